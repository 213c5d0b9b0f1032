//! The scheduler without a process: scripted players (a [`Mover`] that plays by rule, crashes or
//! hangs on cue) in plans built here. Job order for any thread count, the SPRT stopping a
//! pairing's pairs, a kill at every pair resumed into the same files, and a player's fault costing
//! only its game.

use std::path::Path;

use cozy_chess::Move;
use engine::SearchConfig;
use lab::elo::sprt::{EloModel, Sprt};

use super::limits::{ClockState, MoveLimit};
use super::openings::Book;
use super::output::{read_rows, GameRow, MatchSink, GAMES_CSV, MOVES_CSV};
use super::plan::{MatchPlan, PlayerEntry, Schedule};
use super::player::{Fault, GameView, MoveReport, Mover, PlayerKind};
use super::rules::Rules;
use super::run::run_with;

/// A player by rule, named by its entry: `first` and `last` play the first or last legal move in
/// generation order; `crash@N` and `hang@N` play `first` until their Nth move of a game, then
/// fail so; with a `?` after N (`crash@1?`), only in the games whose opening's hash is even.
struct Scripted {
    script: String,
    made: usize,
}

impl Mover for Scripted {
    fn new_game(&mut self, _: &PlayerKind) -> Result<(), Fault> {
        self.made = 0;
        Ok(())
    }

    fn play(
        &mut self,
        _: &PlayerKind,
        game: &GameView,
        _: MoveLimit,
        _: Option<ClockState>,
    ) -> Result<MoveReport, Fault> {
        self.made += 1;
        let (rule, at) = self.script.split_once('@').unwrap_or((&self.script, "0"));
        let (at, sometimes) = at.strip_suffix('?').map_or((at, false), |at| (at, true));
        let this_game = !sometimes || game.start.hash().is_multiple_of(2);
        if at.parse::<usize>().unwrap() == self.made && this_game {
            let why = format!("scripted {rule} at move {at}");
            return Err(if rule == "crash" {
                Fault::Crash(why)
            } else {
                Fault::Hang(why)
            });
        }
        let mut legal: Vec<Move> = Vec::new();
        game.position.board().generate_moves(|moves| {
            legal.extend(moves);
            false
        });
        let mv = if rule == "last" {
            legal[legal.len() - 1]
        } else {
            legal[0]
        };
        Ok(MoveReport {
            mv,
            score: Some(0),
            depth: 1,
            seldepth: 1,
            nodes: 1,
            time_ms: 0.0,
            search_ms: 0.0,
            cut: Some(false),
        })
    }
}

fn scripted(entry: &PlayerEntry) -> Box<dyn Mover> {
    Box::new(Scripted {
        script: entry.name.clone(),
        made: 0,
    })
}

/// A gauntlet of the scripted players `names` (the first the baseline), `pairs` pairs each, games
/// drawn after 24 plies, into `dir`.
fn plan(dir: &Path, names: &[&str], pairs: u64, threads: usize, sprt: Option<Sprt>) -> MatchPlan {
    let players: Vec<PlayerEntry> = names
        .iter()
        .enumerate()
        .map(|(i, name)| PlayerEntry {
            id: format!("p{i:02}"),
            name: name.to_string(),
            kind: PlayerKind::Builtin(SearchConfig::fischerle()),
            limit: MoveLimit::Nodes(1),
            description: serde_json::Value::Null,
        })
        .collect();
    let pairings = MatchPlan::pairings_of(Schedule::Gauntlet, players.len());
    let jobs = pairs * pairings.len() as u64;
    MatchPlan {
        name: "scripted".into(),
        players,
        schedule: Schedule::Gauntlet,
        pairings,
        pairs,
        book: Book::builtin().unwrap(),
        offset: 0,
        rules: Rules {
            max_plies: Some(24),
            resign: None,
            draw: None,
            time_margin_ms: 0,
            tb_adjudicate: false,
        },
        sprt,
        threads,
        out: dir.to_path_buf(),
        range: 0..jobs,
        shard: None,
        factorial: None,
        nps_scale: None,
        affinity: None,
    }
}

/// What a game row says that does not depend on the clock.
fn games(dir: &Path) -> Vec<(u64, String, String, String, String, usize)> {
    let rows: Vec<GameRow> = read_rows(&dir.join(GAMES_CSV)).unwrap();
    rows.into_iter()
        .map(|r| {
            (
                r.index,
                r.pairing,
                r.result,
                r.termination,
                r.reason,
                r.plies,
            )
        })
        .collect()
}

fn play_all(plan: &MatchPlan) -> Vec<(u64, String, String, String, String, usize)> {
    let sink = MatchSink::create(&plan.out, "2026.11.29").unwrap();
    run_with(plan, sink, &[], true, &scripted).unwrap();
    games(&plan.out)
}

#[test]
fn games_are_written_in_job_order_for_any_thread_count() {
    let names = ["first", "last", "crash@7"];
    let one = tempfile::tempdir().unwrap();
    let three = tempfile::tempdir().unwrap();
    let written = play_all(&plan(one.path(), &names, 5, 1, None));
    assert_eq!(written, play_all(&plan(three.path(), &names, 5, 3, None)));
    // Two games a job, jobs 0..10 in order: pairings alternate, pairs advance together.
    let indices: Vec<u64> = written.iter().map(|g| g.0).collect();
    let expected: Vec<u64> = (0..10).flat_map(|i| [i, i]).collect();
    assert_eq!(indices, expected);
    assert!(written
        .iter()
        .step_by(2)
        .zip(["p00-p01", "p00-p02"].iter().cycle())
        .all(|(g, p)| g.1 == *p));
}

#[test]
fn a_decided_sprt_gets_no_more_pairs_of_its_pairing() {
    let dir = tempfile::tempdir().unwrap();
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    };
    // `crash@1?` loses both games of about half the pairs at its first move and draws the others
    // (at the ply limit): its pairing is decided before the 40 pairs.
    let plan = plan(
        dir.path(),
        &["first", "last", "crash@1?"],
        40,
        2,
        Some(sprt),
    );
    let written = play_all(&plan);
    let of = |pairing: &str| written.iter().filter(|g| g.1 == pairing).count() / 2;
    // The draws of `first` against `last` decide too (H0: they are not 50 Elo apart).
    let (drawn, lost) = (of("p00-p01"), of("p00-p02"));
    assert!(lost < 40 && drawn < 40, "{lost} and {drawn} pairs");
    // Each stopped at once: the pairs before its last did not decide it.
    let sprt_decided = |pairing: &str, pairs: usize| {
        let mut standings = super::standings::Standings::new(&plan);
        let i = plan
            .pairings
            .iter()
            .position(|&(_, b)| pairing.ends_with(&plan.players[b].id));
        let rows: Vec<GameRow> = read_rows(&plan.out.join(GAMES_CSV)).unwrap();
        let mine: Vec<&GameRow> = rows.iter().filter(|r| r.pairing == pairing).collect();
        let mut after = Vec::new();
        for pair in mine.chunks(2).take(pairs) {
            standings.add_pair(i.unwrap(), &pair[0].black, pair);
            after.push(standings.decided(i.unwrap()));
        }
        after
    };
    for (pairing, pairs) in [("p00-p01", drawn), ("p00-p02", lost)] {
        let after = sprt_decided(pairing, pairs);
        assert!(
            after[pairs - 1] && !after[..pairs - 1].iter().any(|&d| d),
            "{pairing}"
        );
    }
    assert!(written
        .iter()
        .any(|g| g.1 == "p00-p02" && g.3 == "forfeit: crash"));
}

#[test]
fn a_run_killed_after_any_pair_resumes_into_the_same_files() {
    let names = ["first", "last", "hang@5"];
    let whole = tempfile::tempdir().unwrap();
    let expected = play_all(&plan(whole.path(), &names, 4, 2, None));
    let moves = std::fs::read_to_string(whole.path().join(MOVES_CSV)).unwrap();
    let games_csv = std::fs::read_to_string(whole.path().join(GAMES_CSV)).unwrap();
    let lines: Vec<&str> = games_csv.lines().collect();
    for pairs_kept in 0..=expected.len() / 2 {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(whole.path().join(MOVES_CSV), dir.path().join(MOVES_CSV)).unwrap();
        std::fs::copy(whole.path().join("games.pgn"), dir.path().join("games.pgn")).unwrap();
        // The header, the kept pairs, and half of the next game's row, as a kill leaves it.
        let mut cut = lines[..1 + 2 * pairs_kept].join("\n") + "\n";
        if let Some(torn) = lines.get(1 + 2 * pairs_kept) {
            cut.push_str(&torn[..torn.len() / 2]);
        }
        std::fs::write(dir.path().join(GAMES_CSV), cut).unwrap();
        let (sink, done) = MatchSink::resume(dir.path(), "2026.11.29").unwrap();
        assert_eq!(done.len(), 2 * pairs_kept);
        run_with(
            &plan(dir.path(), &names, 4, 2, None),
            sink,
            &done,
            true,
            &scripted,
        )
        .unwrap();
        assert_eq!(
            games(dir.path()),
            expected,
            "killed after {pairs_kept} pairs"
        );
        let resumed = std::fs::read_to_string(dir.path().join(MOVES_CSV)).unwrap();
        assert_eq!(
            resumed.lines().count(),
            moves.lines().count(),
            "after {pairs_kept} pairs"
        );
    }
}

#[test]
fn a_crash_or_a_hang_loses_that_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let written = play_all(&plan(
        dir.path(),
        &["first", "crash@3", "hang@2"],
        3,
        2,
        None,
    ));
    assert_eq!(written.len(), 12, "every pair is played");
    for g in &written {
        let (termination, reason) = match g.1.as_str() {
            "p00-p01" => ("forfeit: crash", "scripted crash at move 3"),
            _ => ("forfeit: hang", "scripted hang at move 2"),
        };
        assert_eq!((g.3.as_str(), g.4.as_str()), (termination, reason));
    }
    // The baseline wins each: as White (game 1) and as Black (game 2).
    assert!(written
        .chunks(2)
        .all(|p| p[0].2 == "1-0" && p[1].2 == "0-1"));
}

//! The match report, from the run directory alone (`manifest.json`, `games.csv`, `moves.csv`):
//! per pairing the second player's results against the first — W/D/L, pentanomial counts, Elo
//! and normalized Elo with 95 % intervals, LOS, and the SPRT — then what the searches did per
//! move (nodes, depth, time: a blowup shows as a tail of move times or a loss of depth), how the
//! games ended, and the forfeits. Figures: `elo.svg`, and `llr_trace.svg` with an SPRT.

use std::path::Path;

use anyhow::{Context, Result};
use lab::elo::sprt::Decision;
use lab::elo::sprt_setup::describe;
use lab::elo::{EloEstimate, Pentanomial, Trinomial};
use lab::report::figures;
use lab::report::figures::EloBars;
use lab::report::md_table::{Align, MdTable};
use lab::report::stats::quantile;

use super::figures::LlrTrace;
use super::manifest::MatchManifest;
use super::output::{read_rows, GameRow, MoveRow, GAMES_CSV, GAMES_PGN, MOVES_CSV};
use super::standings::Standing;

/// One pairing's numbers.
#[derive(Debug, Clone)]
pub struct PairingResult {
    /// `pA-pB`.
    pub name: String,
    /// `B's name vs A's name`, for figures.
    pub label: String,
    /// Its games.
    pub games: Trinomial,
    /// Its pairs.
    pub pairs: Pentanomial,
    /// Its estimate (by pairs).
    pub estimate: Option<EloEstimate>,
    /// (pairs, LLR) after each pair.
    pub llr_trace: Vec<(u64, f64)>,
}

/// Writes `report.md` and the figures into `dir`, and `games.pgn` when only the tables hold the
/// games (a committed study keeps them, not the PGN); returns the pairings' numbers.
pub fn write(dir: &Path) -> Result<Vec<PairingResult>> {
    let manifest = MatchManifest::read(dir)?;
    let games: Vec<GameRow> = read_rows(&dir.join(GAMES_CSV))?;
    let moves: Vec<MoveRow> = read_rows(&dir.join(MOVES_CSV))?;
    let results = pairings(&manifest, &games);
    write_pairings(dir, &manifest, &results)?;
    let mut md = format!("# Match `{}`\n\n", manifest.name);
    header(&mut md, &manifest, &games);
    table(&mut md, &manifest, &results);
    md += &super::ratings::write(dir, &manifest, &games)?;
    if let Some(design) = &manifest.factorial {
        md += &factorial_section(dir, design, &manifest, &games)?;
    }
    if lab::run_dir::table_exists(&dir.join(MOVES_CSV)) {
        move_stats(&mut md, &manifest, &moves);
    } else {
        md.push_str(&format!(
            "## The searches, per move\n\n`{MOVES_CSV}` is not in this directory (a study leaves it out for size; its script regenerates it): the per-move figures cannot be rebuilt here.\n\n"
        ));
    }
    endings(&mut md, &games);
    overruns(&mut md, &manifest, &games);
    figures_of(dir, &manifest, &results, &mut md)?;
    lab::report::page::write(dir, &md)?;
    let has = |name: &str| lab::run_dir::table_exists(&dir.join(name));
    if has(MOVES_CSV) && !has(GAMES_PGN) {
        // The report stands without it: a book moved since the match costs only the PGN.
        if let Err(e) = super::pgn_rebuild::write(dir, &manifest, &games, &moves) {
            eprintln!("warning: {}: {GAMES_PGN} not rebuilt: {e:#}", dir.display());
        }
    }
    Ok(results)
}

/// The design's section: its effects from every game, its best combination from the two halves
/// (every game of an opening in one half: [`crate::factorial::best::Halves::selects_opening`]),
/// and, for a ladder's rung, that the ladder corrects across every rung.
fn factorial_section(
    dir: &Path,
    design: &crate::factorial::Design,
    manifest: &MatchManifest,
    games: &[GameRow],
) -> Result<String> {
    use crate::factorial::best::Halves;
    use crate::factorial::report::Setting;
    let pairs = super::ratings::pairs_of(manifest, games);
    let half = |a: bool| -> Vec<GameRow> {
        let in_half = |g: &&GameRow| Halves::selects_opening(&g.opening) == a;
        games.iter().filter(in_half).cloned().collect()
    };
    let halves = Halves {
        selection: super::ratings::pairs_of(manifest, &half(true)),
        estimation: super::ratings::pairs_of(manifest, &half(false)),
    };
    let in_ladder = dir
        .parent()
        .is_some_and(|p| p.join(super::ladder::LADDER_JSON).exists());
    let setting = if in_ladder {
        Setting::Rung
    } else {
        Setting::Alone
    };
    let design = in_player_order(design, manifest);
    crate::factorial::report::write(dir, &design, &pairs, &halves, setting)
}

/// The design with its points in the manifest's player order (players are named by their points).
fn in_player_order(
    design: &crate::factorial::Design,
    m: &MatchManifest,
) -> crate::factorial::Design {
    let names: Vec<String> = design.players().into_iter().map(|p| p.name).collect();
    let points = m
        .players
        .iter()
        .filter_map(|p| names.iter().position(|n| *n == p.name))
        .map(|i| design.points[i].clone())
        .collect();
    crate::factorial::Design {
        points,
        ..design.clone()
    }
}

fn pairings(manifest: &MatchManifest, games: &[GameRow]) -> Vec<PairingResult> {
    manifest
        .pairings
        .iter()
        .map(|name| {
            let (first, second) = name.split_once('-').unwrap_or((name, ""));
            let second = second.to_string();
            let named = |id: &str| {
                manifest
                    .players
                    .iter()
                    .find(|p| p.id == id)
                    .map_or(id.to_string(), |p| format!("{id} {}", p.name))
            };
            let mut tally = Standing::default();
            let rows: Vec<&GameRow> = games.iter().filter(|g| &g.pairing == name).collect();
            for pair in rows.chunks(2) {
                tally.add_pair(&second, pair, manifest.sprt.as_ref());
            }
            PairingResult {
                label: format!("{} vs {}", named(&second), named(first)),
                name: name.clone(),
                estimate: EloEstimate::from_pairs(&tally.pairs),
                games: tally.games,
                pairs: tally.pairs,
                llr_trace: tally.llr_trace,
            }
        })
        .collect()
}

/// A row of `pairings.csv`: the second player's result against the first.
#[derive(Debug, serde::Serialize)]
struct PairingRow<'a> {
    pairing: &'a str,
    first: &'a str,
    second: &'a str,
    first_name: &'a str,
    second_name: &'a str,
    pairs: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    ll: u64,
    ld: u64,
    dd_wl: u64,
    wd: u64,
    ww: u64,
    score: Option<f64>,
    elo: Option<f64>,
    elo95: Option<f64>,
    nelo: Option<f64>,
    nelo95: Option<f64>,
    los: Option<f64>,
    llr: Option<f64>,
}

/// Writes `pairings.csv`, the results table in a form a script can join across matches.
fn write_pairings(dir: &Path, m: &MatchManifest, results: &[PairingResult]) -> Result<()> {
    let name_of = |id: &str| {
        m.players
            .iter()
            .find(|p| p.id == id)
            .map_or("", |p| p.name.as_str())
    };
    let path = dir.join(lab::run_dir::PAIRINGS);
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    for r in results {
        let (first, second) = r.name.split_once('-').unwrap_or((&r.name, ""));
        let c = r.pairs.counts();
        let e = r.estimate.as_ref();
        w.serialize(PairingRow {
            pairing: &r.name,
            first,
            second,
            first_name: name_of(first),
            second_name: name_of(second),
            pairs: r.pairs.pairs(),
            wins: r.games.wins,
            draws: r.games.draws,
            losses: r.games.losses,
            ll: c[0],
            ld: c[1],
            dd_wl: c[2],
            wd: c[3],
            ww: c[4],
            score: e.map(|e| e.score),
            elo: e.map(|e| e.elo),
            elo95: e.map(|e| e.elo95),
            nelo: e.map(|e| e.nelo),
            nelo95: e.map(|e| e.nelo95),
            los: e.map(|e| e.los),
            llr: r.llr_trace.last().map(|&(_, llr)| llr),
        })?;
    }
    w.flush()?;
    Ok(())
}

fn header(md: &mut String, m: &MatchManifest, games: &[GameRow]) {
    md.push_str(&format!(
        "{} games in {} pairs; engine {} (bench {}), commit {}; openings {} ({} positions, sha256 {}) from offset {}; {} threads on {}.\n\n",
        games.len(),
        games.len() / 2,
        m.provenance.engine_version,
        m.provenance.bench_signature,
        m.provenance.git_commit.as_deref().unwrap_or("-"),
        m.book.source,
        m.book.openings,
        &m.book.sha256[..12.min(m.book.sha256.len())],
        m.seed,
        m.threads,
        m.provenance.host
    ));
    let mut players = MdTable::new().columns(["player", "name", "limit"], Align::Left);
    for p in &m.players {
        players.row([p.id.clone(), p.name.clone(), p.limit.to_string()]);
    }
    md.push_str(&players.render());
    md.push_str(&format!("\nRules: {}.\n\n", m.rules));
    if let Some(s) = m.nps_scale {
        md.push_str(&format!(
            "Clocks scaled to this machine (`--nps-scale`): reference {:.0} nodes/s, measured {:.0} \
             (`harness bench`, median of 5): every time × {:.3} (the limits above are scaled).\n\n",
            s.reference,
            s.measured,
            s.factor()
        ));
    }
}

fn table(md: &mut String, m: &MatchManifest, results: &[PairingResult]) {
    md.push_str("## Results\n\nThe second player's result against the first, by game pairs (each opening with both colours). Elo and nElo with 95 % intervals from the pentanomial variance; LOS = likelihood of superiority.\n\n");
    let mut table = MdTable::new()
        .left("pairing")
        .columns(
            [
                "pairs", "W", "D", "L", "draws", "LL", "LD", "DD+WL", "WD", "WW", "score",
            ],
            Align::Right,
        )
        .columns(["Elo", "nElo"], Align::Left)
        .right("LOS")
        .left("SPRT");
    for r in results {
        let c = r.pairs.counts();
        let (score, elo, nelo, los) = match &r.estimate {
            Some(e) => (
                format!("{:.1} %", 100.0 * e.score),
                format!("{:+.1} ± {:.1}", e.elo, e.elo95),
                format!("{:+.1} ± {:.1}", e.nelo, e.nelo95),
                format!("{:.1} %", 100.0 * e.los),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        let sprt = match (&m.sprt, r.llr_trace.last()) {
            (Some(s), Some(&(_, llr))) => {
                let (lo, hi) = s.bounds();
                let verdict = match s.decide(llr) {
                    Decision::H1 => "H1",
                    Decision::H0 => "H0",
                    Decision::Continue => "running",
                };
                format!("LLR {llr:.2} ({lo:.2}, {hi:.2}) {verdict}")
            }
            _ => "-".into(),
        };
        let counts =
            [r.pairs.pairs(), r.games.wins, r.games.draws, r.games.losses].map(|n| n.to_string());
        let pentanomial = c.map(|n| n.to_string());
        table.row(
            std::iter::once(r.name.clone())
                .chain(counts)
                .chain([format!("{:.1} %", 100.0 * r.games.draw_ratio())])
                .chain(pentanomial)
                .chain([score, elo, nelo, los, sprt]),
        );
    }
    md.push_str(&table.render());
    if let Some(s) = &m.sprt {
        for r in results {
            md.push_str(&format!(
                "\n`{}`:\n```\n{}```\n",
                r.name,
                describe(s, &r.pairs.counts(), r.estimate.as_ref())
            ));
        }
    }
    md.push('\n');
}

fn move_stats(md: &mut String, m: &MatchManifest, moves: &[MoveRow]) {
    md.push_str("## The searches, per move\n\nNodes and time per move (median, p90, p99, max) and depth reached (median, p10, p1, min), over every move each player made.\n\n");
    let mut table = MdTable::new().left("player").columns(
        [
            "moves",
            "nodes p50",
            "p90",
            "p99",
            "max",
            "time ms p50",
            "p90",
            "p99",
            "max",
            "depth p50",
            "p10",
            "p1",
            "min",
        ],
        Align::Right,
    );
    for p in &m.players {
        let own: Vec<&MoveRow> = moves.iter().filter(|r| r.player == p.id).collect();
        let nodes: Vec<f64> = own.iter().map(|r| r.nodes as f64).collect();
        let time: Vec<f64> = own.iter().map(|r| r.time_ms).collect();
        let depth: Vec<f64> = own.iter().map(|r| f64::from(r.depth)).collect();
        let q = |xs: &[f64], p: f64, digits: usize| {
            quantile(xs, p).map_or("-".to_string(), |v| format!("{v:.digits$}"))
        };
        table.row([
            p.id.clone(),
            own.len().to_string(),
            q(&nodes, 0.5, 0),
            q(&nodes, 0.9, 0),
            q(&nodes, 0.99, 0),
            q(&nodes, 1.0, 0),
            q(&time, 0.5, 1),
            q(&time, 0.9, 1),
            q(&time, 0.99, 1),
            q(&time, 1.0, 1),
            q(&depth, 0.5, 1),
            q(&depth, 0.1, 1),
            q(&depth, 0.01, 1),
            q(&depth, 0.0, 0),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
    for p in &m.players {
        let depths: Vec<i32> = moves
            .iter()
            .filter(|r| r.player == p.id)
            .map(|r| r.depth)
            .collect();
        if let Some(share) = shallow_share(&depths) {
            md.push_str(&format!(
                "**Shallow moves**: {} ({}) reached only depth {SHALLOW_DEPTH} on {:.0} % of its {} moves under `{}`. Some engines move at once on a short clock (Toga II does under about 1 s left): its results then measure that rule, not its search — give a longer clock.\n\n",
                p.id,
                p.name,
                share * 100.0,
                depths.len(),
                p.limit
            ));
        }
    }
}

/// A move that reached no more than this depth is shallow.
const SHALLOW_DEPTH: i32 = 1;
/// The share of shallow moves above which the report warns.
const SHALLOW_SHARE: f64 = 0.1;
/// Fewer moves than this say nothing about a player's habit.
const SHALLOW_MIN_MOVES: usize = 20;

/// The share of a player's moves that were shallow, when it is worth a warning.
fn shallow_share(depths: &[i32]) -> Option<f64> {
    if depths.len() < SHALLOW_MIN_MOVES {
        return None;
    }
    let shallow = depths.iter().filter(|&&d| d <= SHALLOW_DEPTH).count();
    let share = shallow as f64 / depths.len() as f64;
    (share > SHALLOW_SHARE).then_some(share)
}

fn endings(md: &mut String, games: &[GameRow]) {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for g in games {
        match counts.iter_mut().find(|(t, _)| *t == g.termination) {
            Some((_, n)) => *n += 1,
            None => counts.push((g.termination.clone(), 1)),
        }
    }
    md.push_str("## How the games ended\n\n");
    let mut table = MdTable::new().left("termination").right("games");
    for (t, n) in &counts {
        table.row([t.clone(), n.to_string()]);
    }
    md.push_str(&table.render());
    let forfeits: Vec<&GameRow> = games.iter().filter(|g| !g.reason.is_empty()).collect();
    if !forfeits.is_empty() {
        md.push_str("\n### Forfeits\n\n");
        let mut table = MdTable::new().columns(
            ["pair.game", "white", "black", "result", "reason"],
            Align::Left,
        );
        for g in forfeits {
            // The reason quotes the engine; the table escapes a `|` in it.
            table.row([
                format!("{}.{}", g.pair, g.game),
                g.white.clone(),
                g.black.clone(),
                g.result.clone(),
                g.reason.clone(),
            ]);
        }
        md.push_str(&table.render());
    }
    md.push('\n');
}

/// Clock overruns per player: those the time margin forgave (how many, the largest) and the
/// games lost on time (each one's overrun is in its reason).
fn overruns(md: &mut String, m: &MatchManifest, games: &[GameRow]) {
    let lost = games
        .iter()
        .filter(|g| g.termination == "time forfeit")
        .count();
    let forgiven: u32 = games
        .iter()
        .map(|g| g.white_overruns + g.black_overruns)
        .sum();
    if lost == 0 && forgiven == 0 {
        return;
    }
    md.push_str(&format!(
        "## Clock overruns\n\nTime margin: {} ms. A forgiven overrun set the clock to 0; a larger \
         one lost the game on time (its overrun is in the forfeit's reason).\n\n",
        m.rules.time_margin_ms
    ));
    let mut table = MdTable::new().left("player").columns(
        [
            "forgiven overruns",
            "largest forgiven, ms",
            "games lost on time",
        ],
        Align::Right,
    );
    for p in &m.players {
        let (mut count, mut max, mut lost) = (0, 0.0f64, 0);
        for g in games {
            let (c, ms) = if g.white == p.id {
                (g.white_overruns, g.white_max_overrun_ms)
            } else if g.black == p.id {
                (g.black_overruns, g.black_max_overrun_ms)
            } else {
                continue;
            };
            count += c;
            max = max.max(ms);
            let loser = if g.result == "1-0" {
                &g.black
            } else {
                &g.white
            };
            lost += usize::from(g.termination == "time forfeit" && loser == &p.id);
        }
        table.row([
            format!("{} {}", p.id, p.name),
            count.to_string(),
            format!("{max:.1}"),
            lost.to_string(),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

/// The most pairings the per-pairing Elo figure draws.
const MAX_ELO_BARS: usize = 40;

fn figures_of(
    dir: &Path,
    m: &MatchManifest,
    results: &[PairingResult],
    md: &mut String,
) -> Result<()> {
    let bars: Vec<(String, f64, f64, f64)> = results
        .iter()
        .filter_map(|r| {
            let e = r.estimate?;
            Some((r.label.clone(), e.elo, e.elo - e.elo95, e.elo + e.elo95))
        })
        .collect();
    let mut names = Vec::new();
    // Beyond a few dozen pairings the bars cannot be told apart; the joint ratings' figure
    // shows every player of such a match.
    if !bars.is_empty() && bars.len() <= MAX_ELO_BARS {
        names.push(figures::save(
            dir,
            &EloBars {
                bars,
                unit: "Elo".into(),
                title: "Elo against the pairing's first player, 95 % interval".into(),
                file: "elo".into(),
            },
        )?);
    }
    if let Some(s) = &m.sprt {
        let title = format!(
            "SPRT {} [{}, {}], α {}, β {}",
            match s.model {
                lab::elo::sprt::EloModel::Logistic => "Elo",
                lab::elo::sprt::EloModel::Normalized => "nElo",
            },
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta
        );
        names.push(figures::save(
            dir,
            &LlrTrace {
                series: results
                    .iter()
                    .map(|r| (r.label.clone(), r.llr_trace.clone()))
                    .collect(),
                bounds: s.bounds(),
                title,
            },
        )?);
    }
    md.push_str("## Figures\n\n");
    for n in names {
        md.push_str(&format!("{}\n", figures::markdown(&n, &n)));
    }
    Ok(())
}

/// One line per pairing: games, Elo, nElo, LOS and the last LLR.
pub fn print_results(results: &[PairingResult]) {
    for r in results {
        let est = r.estimate.map_or("Elo -".to_string(), |e| {
            format!(
                "Elo {:+.1} ± {:.1}, nElo {:+.1} ± {:.1}, LOS {:.1} %",
                e.elo,
                e.elo95,
                e.nelo,
                e.nelo95,
                100.0 * e.los
            )
        });
        let llr = r
            .llr_trace
            .last()
            .map_or(String::new(), |(_, llr)| format!(", LLR {llr:.2}"));
        println!(
            "{}: {} pairs, +{} ={} -{}: {est}{llr}",
            r.name,
            r.pairs.pairs(),
            r.games.wins,
            r.games.draws,
            r.games.losses
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_moving_at_depth_one_is_flagged_only_when_it_is_a_habit() {
        let mut depths = vec![8; 90];
        depths.extend([1; 10]);
        assert_eq!(
            shallow_share(&depths),
            None,
            "10 % is the limit, not a habit"
        );
        depths.extend([1; 10]);
        let share = shallow_share(&depths).expect("20 of 110 moves at depth 1");
        assert!((share - 20.0 / 110.0).abs() < 1e-12);
        assert_eq!(shallow_share(&[1; 19]), None, "too few moves to say");
        assert!(shallow_share(&[0; 20]).is_some(), "depth 0 counts too");
    }
}

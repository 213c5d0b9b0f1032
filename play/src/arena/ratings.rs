//! A match's joint ratings (three or more players): every game on one scale, the first player
//! (the baseline) = 0, from `games.csv` alone — `ratings.csv`, a report section with the LOS
//! matrix, and `ratings.svg`. The model and the bootstrap: [`lab::elo::ratings`].

use std::path::Path;

use anyhow::{Context, Result};
use lab::elo::ratings::{joint_ratings, Bootstrap, JointRatings, Pair};
use lab::report::figures;
use lab::report::figures::EloBars;
use lab::report::md_table::{Align, MdTable};

use super::manifest::MatchManifest;
use super::output::GameRow;

/// The joint ratings' table.
pub const RATINGS_CSV: &str = "ratings.csv";
/// Fewer players than this have one pairing: its own Elo says everything.
pub const MIN_PLAYERS: usize = 3;

/// One row of `ratings.csv`.
#[derive(Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct RatingRow {
    /// `p00`, …
    pub id: String,
    /// The player's name.
    pub name: String,
    /// Elo on the joint scale, the baseline's 0.
    pub elo: f64,
    /// Lower end of the 95 % bootstrap interval.
    pub elo_lo: f64,
    /// Upper end.
    pub elo_hi: f64,
    /// Games played.
    pub games: u64,
    /// Points scored.
    pub points: f64,
    /// Elo with a draw counted as half a win (Bradley–Terry on the score), the baseline's 0;
    /// empty in a `ratings.csv` written before the model was fitted.
    #[serde(default)]
    pub half_elo: Option<f64>,
    /// Lower end of its 95 % bootstrap interval.
    #[serde(default)]
    pub half_elo_lo: Option<f64>,
    /// Upper end.
    #[serde(default)]
    pub half_elo_hi: Option<f64>,
}

/// The game rows of each pair of each pairing, in the manifest's order of pairings.
fn grouped<'a>(manifest: &MatchManifest, games: &'a [GameRow]) -> Vec<Vec<Vec<&'a GameRow>>> {
    manifest
        .pairings
        .iter()
        .map(|name| {
            let rows: Vec<&GameRow> = games.iter().filter(|g| &g.pairing == name).collect();
            rows.chunk_by(|a, b| a.pair == b.pair)
                .map(<[&GameRow]>::to_vec)
                .collect()
        })
        .collect()
}

/// The pairs of each pairing, players as indices into the manifest's list.
pub fn pairs_of(manifest: &MatchManifest, games: &[GameRow]) -> Vec<Vec<Pair>> {
    let index = |id: &str| manifest.players.iter().position(|p| p.id == id);
    let pair = |rows: &Vec<&GameRow>| -> Pair {
        rows.iter()
            .filter_map(|g| {
                let (w, b) = (index(&g.white)?, index(&g.black)?);
                Some((w, b, g.score_of(&g.white)?))
            })
            .collect()
    };
    grouped(manifest, games)
        .iter()
        .map(|pairs| pairs.iter().map(pair).collect())
        .collect()
}

/// The opening of each pair of each pairing (parallel to [`pairs_of`]), as an index into the
/// match's distinct opening ids: the same opening in two pairings has the same index.
pub fn openings_of(manifest: &MatchManifest, games: &[GameRow]) -> Vec<Vec<usize>> {
    let mut ids: Vec<&str> = games.iter().map(|g| g.opening.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let index = |rows: &Vec<&GameRow>| ids.binary_search(&rows[0].opening.as_str()).unwrap_or(0);
    grouped(manifest, games)
        .iter()
        .map(|pairs| pairs.iter().map(index).collect())
        .collect()
}

/// Writes `ratings.csv`, the figure and the report section, when the match has three or more
/// players; returns the section (empty otherwise).
pub fn write(dir: &Path, manifest: &MatchManifest, games: &[GameRow]) -> Result<String> {
    let players = manifest.players.len();
    let pairs = pairs_of(manifest, games);
    if players < MIN_PLAYERS || pairs.iter().all(Vec::is_empty) {
        return Ok(String::new());
    }
    let openings = openings_of(manifest, games);
    let ratings = match joint_ratings(players, &pairs, &openings, 0, Bootstrap::default()) {
        Ok(r) => r,
        Err(e) => return Ok(format!("## Joint ratings\n\nNot fitted: {e}.\n\n")),
    };
    let rows = rows(manifest, games, &ratings);
    let path = dir.join(RATINGS_CSV);
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    for row in &rows {
        w.serialize(row)?;
    }
    w.flush()?;
    let figure = figures::save(dir, &bars(&rows))?;
    Ok(section(manifest, &rows, &ratings, &figure))
}

fn rows(manifest: &MatchManifest, games: &[GameRow], r: &JointRatings) -> Vec<RatingRow> {
    let mut rows: Vec<RatingRow> = manifest
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let scores: Vec<f64> = games.iter().filter_map(|g| g.score_of(&p.id)).collect();
            let (d, h) = (&r.davidson, &r.half);
            RatingRow {
                id: p.id.clone(),
                name: p.name.clone(),
                elo: d.elo[i],
                elo_lo: d.lo[i],
                elo_hi: d.hi[i],
                games: scores.len() as u64,
                points: scores.iter().sum(),
                half_elo: Some(h.elo[i]),
                half_elo_lo: Some(h.lo[i]),
                half_elo_hi: Some(h.hi[i]),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    rows
}

fn bars(rows: &[RatingRow]) -> EloBars {
    EloBars {
        bars: rows
            .iter()
            .filter(|r| r.elo.is_finite())
            .map(|r| (r.name.clone(), r.elo, r.elo_lo, r.elo_hi))
            .collect(),
        unit: "Elo".into(),
        title: "Joint ratings, baseline = 0, 95 % bootstrap interval".into(),
        file: "ratings".into(),
    }
}

/// The players the games cannot rate, in words (empty when every player has a finite place).
fn unrated_note(m: &MatchManifest, unrated: &[Option<bool>]) -> String {
    let named = |all_won: bool| -> Vec<String> {
        unrated
            .iter()
            .zip(&m.players)
            .filter(|(u, _)| **u == Some(all_won))
            .map(|(_, p)| format!("`{}`", p.name))
            .collect()
    };
    let (won, lost) = (named(true), named(false));
    if won.is_empty() && lost.is_empty() {
        return String::new();
    }
    let mut parts = Vec::new();
    if !won.is_empty() {
        parts.push(format!("{} won every game it played", won.join(", ")));
    }
    if !lost.is_empty() {
        parts.push(format!("{} lost every game it played", lost.join(", ")));
    }
    format!(
        "\n**Not rated by the data:** {}. Against every opponent met, the likelihood grows without \
         end as such a rating runs off, so no finite rating fits: it is left out of the fit (shown \
         as ±∞, without an interval) and the others are rated on the remaining games. Play it \
         against closer opponents (or give odds) to rate it.\n",
        parts.join("; ")
    )
}

/// An Elo cell: `+12.3`, or `+∞`/`−∞` for a player not rated by the data.
fn elo_cell(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+∞".to_string()
    } else {
        "−∞".to_string()
    }
}

/// An interval cell, `—` without one.
fn interval_cell(lo: f64, hi: f64) -> String {
    if lo.is_nan() || hi.is_nan() {
        "—".to_string()
    } else {
        format!("[{lo:+.1}, {hi:+.1}]")
    }
}

/// The opening paragraph: the models, the anchor, the bootstrap.
fn method(m: &MatchManifest, r: &JointRatings) -> String {
    let failed = |e: &lab::elo::ratings::Estimates| e.failed;
    let left_out = match (failed(&r.davidson), failed(&r.half)) {
        (0, 0) => String::new(),
        (d, h) => format!(
            " ({d} resamples under Davidson's draws and {h} with draws as half a win had no \
             finite maximum and are left out){}",
            conditional_warning(d.max(h), r.resamples)
        ),
    };
    format!(
        "All games on one scale: Bradley–Terry with Davidson's draws (draw parameter ν = {:.3}: \
         equal players draw {:.1} % of their games), maximum likelihood, `{}` = 0; beside it \
         Bradley–Terry with a draw counted as half a win (the model of a plain score). 95 % \
         intervals and LOS from {} bootstrap resamples {}{left_out}.\n\n",
        r.nu,
        100.0 * r.nu / (2.0 + r.nu),
        m.players[0].name,
        r.resamples,
        r.scheme.describe(),
    )
}

/// The share of left-out resamples above which the report says what they do to the intervals.
const LEFT_OUT_WARNING: f64 = 0.05;

/// What left-out resamples do to the intervals, said when they are more than
/// [`LEFT_OUT_WARNING`] of all: a resample is left out exactly when some player won or lost every
/// game it drew, so the ones left are those in which the near-0 % and near-100 % players did less
/// well than that — their interval's far end is cut short.
fn conditional_warning(left_out: usize, resamples: usize) -> String {
    if (left_out as f64) <= LEFT_OUT_WARNING * resamples as f64 {
        return String::new();
    }
    format!(
        ". That is {:.0} % of them: the intervals are conditional on the resamples in which every \
         player kept a finite rating, so for a player who won or lost nearly every game the end \
         toward +∞ or −∞ is cut short — read it as a bound, not an estimate",
        100.0 * left_out as f64 / resamples as f64
    )
}

/// The two draw models compared, in words: which players they place differently (an estimate
/// outside the other model's interval: [`lab::elo::ratings::models_differ`]), or that they
/// agree, with the largest gap between them.
fn models_note(m: &MatchManifest, r: &JointRatings) -> String {
    let differ = lab::elo::ratings::models_differ(r);
    let names: Vec<String> = (0..m.players.len())
        .filter(|&p| differ[p])
        .map(|p| format!("`{}`", m.players[p].name))
        .collect();
    if !names.is_empty() {
        return format!(
            "\nThe draw models differ by more than their intervals allow for {} (one model's \
             estimate outside the other's 95 % interval): the table shows both. Davidson's ratings \
             follow the odds of wins to losses (its ν takes the draws); a score counts a draw as \
             half a win, which draws ratings together where many games are drawn.\n",
            names.join(", ")
        );
    }
    let gap = (0..m.players.len())
        .map(|p| ((r.davidson.elo[p] - r.half.elo[p]).abs(), p))
        .filter(|(g, _)| g.is_finite())
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let largest = gap.map_or(String::new(), |(g, p)| {
        format!(
            " (the largest difference: {g:.1} Elo, `{}`)",
            m.players[p].name
        )
    });
    format!(
        "\nWith a draw counted as half a win every rating lies within Davidson's 95 % interval \
         and Davidson's within its{largest}: the models agree; `{RATINGS_CSV}` has both.\n"
    )
}

/// The ratings table; with the draws-as-half columns when the models differ.
fn ratings_table(rows: &[RatingRow], both: bool) -> String {
    let mut table = MdTable::new()
        .left("player")
        .left("id")
        .right("Elo")
        .left("95 % interval");
    if both {
        table = table
            .right("Elo, draws as half")
            .left("95 % interval, draws as half");
    }
    let mut table = table.columns(["games", "score"], Align::Right);
    for row in rows {
        let mut cells = vec![
            row.name.clone(),
            row.id.clone(),
            elo_cell(row.elo),
            interval_cell(row.elo_lo, row.elo_hi),
        ];
        if both {
            let nan = f64::NAN;
            cells.push(elo_cell(row.half_elo.unwrap_or(nan)));
            cells.push(interval_cell(
                row.half_elo_lo.unwrap_or(nan),
                row.half_elo_hi.unwrap_or(nan),
            ));
        }
        cells.push(row.games.to_string());
        cells.push(format!(
            "{:.1} %",
            100.0 * row.points / (row.games.max(1) as f64)
        ));
        table.row(cells);
    }
    table.render()
}

fn section(m: &MatchManifest, rows: &[RatingRow], r: &JointRatings, figure: &str) -> String {
    let mut md = String::from("## Joint ratings\n\n");
    md.push_str(&method(m, r));
    let both = lab::elo::ratings::models_differ(r).contains(&true);
    md.push_str(&ratings_table(rows, both));
    md.push_str(&models_note(m, r));
    md.push_str(&unrated_note(m, &r.unrated));
    md.push_str(
        "\nLikelihood of superiority (row above column, share of resamples, Davidson's draws):\n\n",
    );
    let order: Vec<usize> = rows
        .iter()
        .filter_map(|row| m.players.iter().position(|p| p.id == row.id))
        .collect();
    let id = |i: usize| m.players[i].id.clone();
    // The corner and the diagonal are blank: a player is not compared with itself.
    let mut matrix = MdTable::new()
        .left("")
        .columns(order.iter().map(|&j| id(j)), Align::Right)
        .tight_empty_cells();
    for &i in &order {
        let los = order.iter().map(|&j| match r.los[i][j] {
            _ if i == j => String::new(),
            x if x.is_nan() => "—".to_string(),
            x => format!("{x:.3}"),
        });
        matrix.row(std::iter::once(id(i)).chain(los));
    }
    md.push_str(&matrix.render());
    md.push_str(&format!("\n{}\n\n", figures::markdown(figure, figure)));
    md
}

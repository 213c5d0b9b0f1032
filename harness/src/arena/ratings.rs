//! A match's joint ratings (three or more players): every game on one scale, the first player
//! (the baseline) = 0, from `games.csv` alone — `ratings.csv`, a report section with the LOS
//! matrix, and `ratings.png`/`.svg`. The model and the bootstrap: [`crate::elo::ratings`].

use std::path::Path;

use anyhow::{Context, Result};

use super::figures::EloBars;
use super::manifest::MatchManifest;
use super::output::GameRow;
use crate::elo::ratings::{joint_ratings, Bootstrap, JointRatings, Pair};
use crate::report::figures;
use crate::report::md_table::{Align, MdTable};

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
}

/// The pairs of each pairing, players as indices into the manifest's list.
pub fn pairs_of(manifest: &MatchManifest, games: &[GameRow]) -> Vec<Vec<Pair>> {
    let index = |id: &str| manifest.players.iter().position(|p| p.id == id);
    manifest
        .pairings
        .iter()
        .map(|name| {
            let rows: Vec<&GameRow> = games.iter().filter(|g| &g.pairing == name).collect();
            rows.chunk_by(|a, b| a.pair == b.pair)
                .map(|pair| {
                    pair.iter()
                        .filter_map(|g| {
                            let (w, b) = (index(&g.white)?, index(&g.black)?);
                            Some((w, b, g.score_of(&g.white)?))
                        })
                        .collect()
                })
                .collect()
        })
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
    let ratings = match joint_ratings(players, &pairs, 0, Bootstrap::default()) {
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
    let unrated = crate::elo::ratings::unrated(players, &pairs);
    Ok(section(manifest, &rows, &ratings, &figure, &unrated))
}

fn rows(manifest: &MatchManifest, games: &[GameRow], r: &JointRatings) -> Vec<RatingRow> {
    let mut rows: Vec<RatingRow> = manifest
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let scores: Vec<f64> = games.iter().filter_map(|g| g.score_of(&p.id)).collect();
            RatingRow {
                id: p.id.clone(),
                name: p.name.clone(),
                elo: r.elo[i],
                elo_lo: r.lo[i],
                elo_hi: r.hi[i],
                games: scores.len() as u64,
                points: scores.iter().sum(),
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
         end as such a rating runs off: its Elo and interval above are where the fit stopped, a bound \
         at most, not an estimate. Play it against closer opponents (or give odds) to rate it.\n",
        parts.join("; ")
    )
}

fn section(
    m: &MatchManifest,
    rows: &[RatingRow],
    r: &JointRatings,
    figure: &str,
    unrated: &[Option<bool>],
) -> String {
    let mut md = String::from("## Joint ratings\n\n");
    md.push_str(&format!(
        "All games on one scale: Bradley–Terry with Davidson's draws (draw parameter ν = {:.3}: \
         equal players draw {:.1} % of their games), maximum likelihood, `{}` = 0. 95 % intervals \
         and LOS from {} bootstrap resamples of whole game pairs {}{}.\n\n",
        r.nu,
        100.0 * r.nu / (2.0 + r.nu),
        m.players[0].name,
        r.resamples,
        crate::elo::ratings::scheme(r.stratified),
        if r.failed > 0 {
            format!(
                " ({} resamples had no finite maximum and are left out)",
                r.failed
            )
        } else {
            String::new()
        }
    ));
    let mut table = MdTable::new()
        .left("player")
        .left("id")
        .right("Elo")
        .left("95 % interval")
        .columns(["games", "score"], Align::Right);
    for row in rows {
        table.row([
            row.name.clone(),
            row.id.clone(),
            format!("{:+.1}", row.elo),
            format!("[{:+.1}, {:+.1}]", row.elo_lo, row.elo_hi),
            row.games.to_string(),
            format!("{:.1} %", 100.0 * row.points / (row.games.max(1) as f64)),
        ]);
    }
    md.push_str(&table.render());
    md.push_str(&unrated_note(m, unrated));
    md.push_str("\nLikelihood of superiority (row above column, share of resamples):\n\n");
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
        let los = order.iter().map(|&j| {
            if i == j {
                String::new()
            } else {
                format!("{:.3}", r.los[i][j])
            }
        });
        matrix.row(std::iter::once(id(i)).chain(los));
    }
    md.push_str(&matrix.render());
    md.push_str(&format!("\n![{figure}]({figure}.png)\n\n"));
    md
}

//! The validated plan of a match: players with their limits, pairings, openings, rules, the SPRT
//! and the job order. A job is one game pair — an opening played twice with colours reversed —
//! of one pairing; job `i` is pair `i / P` of pairing `i % P`, so pairings advance together and
//! every pairing plays pair `k` from the same opening.

use std::path::PathBuf;

use lab::elo::sprt::Sprt;
use serde::{Deserialize, Serialize};

use super::limits::MoveLimit;
use super::openings::{Book, Opening};
use super::player::PlayerKind;
use super::rules::Rules;

/// One player.
#[derive(Debug, Clone)]
pub struct PlayerEntry {
    /// `p00`, `p01`, …
    pub id: String,
    /// Name in the PGN and the report (the axis values, the preset or the engine's name).
    pub name: String,
    /// What plays.
    pub kind: PlayerKind,
    /// Its limit per move.
    pub limit: MoveLimit,
    /// Its resolved configuration (builtin) or program and options (UCI), for the manifest.
    pub description: serde_json::Value,
}

/// Who plays whom: baseline against each other player, or everyone against everyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// The baseline against each other player.
    Gauntlet,
    /// Every pair of players.
    RoundRobin,
}

/// A validated match.
#[derive(Debug, Clone)]
pub struct MatchPlan {
    /// Name of the match (PGN `Event`, output directory).
    pub name: String,
    /// The players; the baseline first.
    pub players: Vec<PlayerEntry>,
    /// Who plays whom.
    pub schedule: Schedule,
    /// (first, second) player indices; statistics are the second's against the first.
    pub pairings: Vec<(usize, usize)>,
    /// Game pairs per pairing at most (the SPRT may stop sooner).
    pub pairs: u64,
    /// The openings.
    pub book: Book,
    /// Where in the book pair 0 starts (`--seed`).
    pub offset: u64,
    /// How games end.
    pub rules: Rules,
    /// Sequential test per pairing, if any.
    pub sprt: Option<Sprt>,
    /// Games played at once.
    pub threads: usize,
    /// The run directory.
    pub out: PathBuf,
    /// The jobs this run plays: all, or one shard's contiguous range.
    pub range: std::ops::Range<u64>,
    /// Which shard, when the match is one of several.
    pub shard: Option<lab::shard::Shard>,
    /// The factorial design whose points the players are, if any.
    pub factorial: Option<crate::factorial::Design>,
    /// Clocks scaled to this machine's speed, if asked.
    pub nps_scale: Option<super::limits::NpsScale>,
    /// The core of each worker thread (`--affinity`), if pinned.
    pub affinity: Option<Vec<usize>>,
}

/// What a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Position in the job order.
    pub index: u64,
    /// Index into `pairings`.
    pub pairing: usize,
    /// Pair number within the pairing (0-based).
    pub pair: u64,
}

impl MatchPlan {
    /// The pairings a schedule makes of `players` players (the baseline is player 0).
    pub fn pairings_of(schedule: Schedule, players: usize) -> Vec<(usize, usize)> {
        match schedule {
            Schedule::Gauntlet => (1..players).map(|b| (0, b)).collect(),
            Schedule::RoundRobin => (0..players)
                .flat_map(|a| (a + 1..players).map(move |b| (a, b)))
                .collect(),
        }
    }

    /// Jobs in all (every shard's).
    pub fn jobs(&self) -> u64 {
        self.pairs * self.pairings.len() as u64
    }

    /// Job `index`.
    pub fn job(&self, index: u64) -> Job {
        let p = self.pairings.len() as u64;
        Job {
            index,
            pairing: (index % p) as usize,
            pair: index / p,
        }
    }

    /// The opening of a job: pair k of every pairing plays the same one (a paired comparison of
    /// each player against the baseline); in a factorial design every job its own, so the
    /// effects average over as many openings as the design has game pairs, not over `--pairs`.
    pub fn opening(&self, job: &Job) -> &Opening {
        let k = if self.factorial.is_some() {
            job.index
        } else {
            job.pair
        };
        self.book.opening(self.offset, k)
    }

    /// Refuses a match that would play an opening again where its games repeat exactly (see
    /// [`Self::replayed_openings`]).
    pub fn check_replays(&self) -> anyhow::Result<()> {
        if let Some((needed, distinct)) = self.replayed_openings() {
            anyhow::bail!(
                "each pairing needs {needed} openings but {} gives it {distinct}: at a fixed node or depth limit \
                 an opening played again replays the same two games, which would count as new evidence; \
                 play at most {distinct} pairs, give a larger book with --openings, or pass \
                 --repeat-openings to play them anyway",
                self.book.source
            );
        }
        Ok(())
    }

    /// How many openings the match plays (one per game pair; in a factorial design one per job)
    /// and how many different ones the book has, when the first is more and every player's
    /// limit repeats exactly: then an opening played again replays the same games, and they
    /// would count as new evidence. `None` when no opening repeats or the games may differ.
    pub fn replayed_openings(&self) -> Option<(u64, usize)> {
        let n = self.book.openings.len() as u64;
        // A pairing's pairs step through the book by 1, or in a factorial design (every job its
        // own opening) by the number of pairings: they come back to an opening after n / gcd.
        let step = if self.factorial.is_some() {
            self.pairings.len() as u64
        } else {
            1
        };
        let distinct = n / gcd(step, n).max(1);
        let exact = self.players.iter().all(|p| p.limit.repeats_exactly());
        (exact && self.pairs > distinct).then_some((self.pairs, distinct as usize))
    }

    /// `A vs B` for a pairing.
    pub fn pairing_name(&self, pairing: usize) -> String {
        let (a, b) = self.pairings[pairing];
        format!("{}-{}", self.players[a].id, self.players[b].id)
    }

    /// The plan in words (`--dry-run`).
    pub fn describe(&self) -> String {
        let mut out = format!("match       {}\n", self.name);
        for p in &self.players {
            out += &format!("player      {} {} ({})\n", p.id, p.name, p.limit);
        }
        let pairings: Vec<String> = (0..self.pairings.len())
            .map(|i| self.pairing_name(i))
            .collect();
        out += &format!("pairings    {:?}: {}\n", self.schedule, pairings.join(", "));
        out += &format!(
            "games       {} pairs per pairing ({} games in all at most)\n",
            self.pairs,
            2 * self.jobs()
        );
        if let Some(s) = self.shard {
            out += &format!(
                "shard       {s}: jobs {}..{} of {}\n",
                self.range.start,
                self.range.end,
                self.jobs()
            );
        }
        out += &format!(
            "openings    {} ({} positions, sha256 {}), from offset {}\n",
            self.book.source,
            self.book.openings.len(),
            &self.book.sha256[..12],
            self.offset
        );
        out += &format!("rules       {}\n", self.rules);
        if let Some(s) = &self.sprt {
            out += &format!("sprt        {s:?}\n");
        }
        if let Some(d) = &self.factorial {
            out += &format!("design      {}\n", d.describe());
        }
        if let Some(s) = self.nps_scale {
            out += &format!(
                "nps-scale   reference {:.0}, this machine {:.0} nodes/s: times × {:.3}\n",
                s.reference,
                s.measured,
                s.factor()
            );
        }
        out += &format!(
            "threads     {}\nout         {}\n",
            self.threads,
            self.out.display()
        );
        out
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The jobs a run of `jobs` plays: all of them, or `shard`'s range; a shard with an SPRT
/// (`sprt`), which stops a pairing early, is refused.
pub fn job_range(
    shard: Option<lab::shard::Shard>,
    jobs: u64,
    sprt: bool,
) -> anyhow::Result<std::ops::Range<u64>> {
    if shard.is_some() && sprt {
        anyhow::bail!("--shard plays fixed ranges of pairs and --sprt stops a pairing early: give one (a merged run reports Elo and the LLR of all its games)");
    }
    Ok(shard.map_or(0..jobs, |s| {
        let r = s.range(jobs as usize);
        r.start as u64..r.end as u64
    }))
}

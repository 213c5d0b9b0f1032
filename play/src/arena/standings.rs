//! Where each pairing stands: the second player's game and pair counts against the first, and
//! its SPRT's log-likelihood ratio after every pair, in job order — so the decision, and which
//! pairs count, are the same for any number of threads and after a resume.

use lab::elo::sprt::{Decision, Sprt};
use lab::elo::{Pentanomial, Trinomial};

use super::output::GameRow;
use super::plan::MatchPlan;

/// One pairing's tally.
#[derive(Debug, Clone, Default)]
pub struct Standing {
    /// The second player's games.
    pub games: Trinomial,
    /// The second player's pairs.
    pub pairs: Pentanomial,
    /// (pairs so far, LLR) after each pair, when there is an SPRT.
    pub llr_trace: Vec<(u64, f64)>,
    /// The SPRT's decision so far.
    pub decision: Option<Decision>,
}

/// Every pairing's tally.
#[derive(Debug, Clone)]
pub struct Standings {
    /// By pairing index.
    pub pairings: Vec<Standing>,
    sprt: Option<Sprt>,
}

impl Standings {
    /// Nothing played yet.
    pub fn new(plan: &MatchPlan) -> Self {
        Self {
            pairings: vec![Standing::default(); plan.pairings.len()],
            sprt: plan.sprt,
        }
    }

    /// Whether pairing `i` needs no more pairs: its SPRT has decided.
    pub fn decided(&self, i: usize) -> bool {
        matches!(
            self.pairings[i].decision,
            Some(Decision::H0) | Some(Decision::H1)
        )
    }

    /// Counts a pair (its two rows) of pairing `i` whose second player is `second`.
    pub fn add_pair(&mut self, i: usize, second: &str, rows: &[&GameRow]) {
        self.pairings[i].add_pair(second, rows, self.sprt.as_ref());
    }
}

impl Standing {
    /// Counts a pair (its two rows) for the second player `second`, and the SPRT's state after it.
    pub fn add_pair(&mut self, second: &str, rows: &[&GameRow], sprt: Option<&Sprt>) {
        let scores: Vec<f64> = rows.iter().filter_map(|r| r.score_of(second)).collect();
        for &score in &scores {
            self.games.add_game(score);
        }
        if let [a, b] = scores[..] {
            self.pairs.add_pair(a, b);
        }
        if let Some(sprt) = sprt {
            let llr = sprt.llr(&self.pairs.counts());
            self.llr_trace.push((self.pairs.pairs(), llr));
            self.decision = Some(sprt.decide(llr));
        }
    }
}

//! Singular extension, in two forms (`singular.search`). Both ask whether the TT move is the only
//! move that holds the TT score: every other move is verified against a bound below it, searched
//! shallower with a null window, and when all fail low the TT move is searched deeper.
//!
//! - `"moves"`, Fischerle's restricted form (its later versions, spec §5, in the TT-based form of
//!   today's engines): each other move made and searched alone; at most `max_per_path`
//!   extensions on one path.
//! - `"excluded"`, the form of Stockfish, Ethereal, Weiss and Viridithas: the node itself searched
//!   again without the TT move, with its own move loop (pruning and reductions as any node's),
//!   and kept out of the TT; only on paths shorter than twice the iteration's depth. A result far
//!   below the bound extends by two (`double_margin`), a bound at or above beta cuts the node
//!   (`multicut`), and a TT move that is not singular but whose score reaches beta is searched a
//!   level shallower (`negative`).

use cozy_chess::Board;

use crate::config::{Singular, SingularSearch};
use crate::eval::Score;
use crate::search::ordering::MoveList;
use crate::search::record::{Action, Probe, Recorder};
use crate::search::score::MATE_BOUND;
use crate::search::selective::Budget;
use crate::search::stack::Node;
use crate::search::tt::{Bound, Entry};
use crate::search::Searcher;

/// What the singular extension decided for a node's TT move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Singularity {
    /// Not tried, or the TT move is searched as any move.
    Plain,
    /// The TT move is searched this many levels deeper (1 or 2), or shallower (-1).
    Extend(i32),
    /// Multicut: the verification reached a bound at or above beta; the node returns it.
    Cut(Score),
}

impl<R: Recorder> Searcher<R> {
    /// What the singular extension decides for the TT move of `node`. `moves` are the node's
    /// ordered moves, `budget` its children's selective budget.
    pub(super) fn singularity(
        &mut self,
        board: &Board,
        moves: &MoveList,
        tt_entry: Option<Entry>,
        node: &Node,
        budget: Budget,
    ) -> Singularity {
        let Some(singular) = self.config.singular.clone() else {
            return Singularity::Plain;
        };
        let Some(entry) = tt_entry.filter(|e| self.may_verify(&singular, e, node, moves)) else {
            return Singularity::Plain;
        };
        self.stats.singular_tries += 1;
        let singular_beta = entry.score - singular.margin * node.level;
        let depth = (node.level - 1) / 2;
        let before = self.stats.nodes;
        let decided = match singular.search {
            SingularSearch::Moves => {
                let verified = (singular_beta, depth);
                if self.every_move_fails_low((board, moves), entry, node, budget, verified) {
                    Singularity::Extend(1)
                } else {
                    Singularity::Plain
                }
            }
            SingularSearch::Excluded => {
                let value = self.search_excluded(board, entry, node, (singular_beta, depth));
                self.excluded_decision(&singular, value, singular_beta, entry.score, node)
            }
        };
        self.stats.singular_nodes += self.stats.nodes - before;
        self.count(decided);
        decided
    }

    /// Whether the singular extension is tried at `node` with its TT entry `entry`: a move, a
    /// lower or exact bound at most 3 levels shallower, no mate score, the level and path limits.
    fn may_verify(&self, s: &Singular, entry: &Entry, node: &Node, moves: &MoveList) -> bool {
        let excluded = s.search == SingularSearch::Excluded;
        // The excluded form's own limits: a verification needs a move besides the TT move (the
        // restricted form finds a lone TT move singular, as it always did).
        let excluded_limits =
            !excluded || ((node.ply as i32) < 2 * self.root_depth && moves.len() > 1);
        entry.mv.is_some()
            && node.ply > 0
            && node.excluded.is_none()
            && node.level >= s.min_level
            && self.singular_on_path < s.max_per_path
            && excluded_limits
            && entry.bound != Bound::Upper
            && entry.level >= node.level - s.tt_level_gap
            && entry.score.abs() < MATE_BOUND
    }

    /// Fischerle's verification: each move but the TT move searched alone at `depth` with the
    /// null window just below `singular_beta`; whether all fail low.
    fn every_move_fails_low(
        &mut self,
        (board, moves): (&Board, &MoveList),
        entry: Entry,
        node: &Node,
        budget: Budget,
        (singular_beta, depth): (Score, i32),
    ) -> bool {
        for ordered in moves.as_slice().iter().filter(|m| Some(m.mv) != entry.mv) {
            let child = self.make(board, ordered.mv, node.ply);
            // Every move failing low is what is expected: their replies are expected to cut.
            let window = (singular_beta - 1, singular_beta);
            let verification = Node {
                probe: Probe::Singular,
                ..node.child(window, depth, budget, true)
            };
            let score = -self.alphabeta(&child, verification);
            if score >= singular_beta || self.clock.stopped() {
                return false;
            }
        }
        true
    }

    /// Today's verification: the node searched again at `depth` without its TT move, with the
    /// null window just below `singular_beta`.
    fn search_excluded(
        &mut self,
        board: &Board,
        entry: Entry,
        node: &Node,
        (singular_beta, depth): (Score, i32),
    ) -> Score {
        let verification = Node {
            alpha: singular_beta - 1,
            beta: singular_beta,
            level: depth,
            excluded: entry.mv,
            probe: Probe::Singular,
            ..*node
        };
        self.alphabeta(board, verification)
    }

    /// The excluded form's decision from the verification's `value`.
    fn excluded_decision(
        &self,
        s: &Singular,
        value: Score,
        singular_beta: Score,
        tt_score: Score,
        node: &Node,
    ) -> Singularity {
        if self.clock.stopped() {
            return Singularity::Plain;
        }
        if value < singular_beta {
            let double = s.double_margin.is_some_and(|margin| {
                value < singular_beta - margin && self.doubles_on_path < s.double_max
            });
            return Singularity::Extend(if double { 2 } else { 1 });
        }
        if s.multicut && singular_beta >= node.beta {
            return Singularity::Cut(singular_beta);
        }
        if s.negative && tt_score >= node.beta {
            return Singularity::Extend(-1);
        }
        Singularity::Plain
    }

    fn count(&mut self, decided: Singularity) {
        match decided {
            Singularity::Extend(by) if by > 0 => {
                self.stats.singular_extensions += 1;
                self.stats.singular_doubles += u64::from(by == 2);
            }
            Singularity::Extend(_) => self.stats.singular_negatives += 1,
            Singularity::Cut(_) => {
                self.stats.singular_multicuts += 1;
                self.record(Action::Multicut);
            }
            Singularity::Plain => {}
        }
    }
}

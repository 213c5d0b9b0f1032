//! Restricted singular extension (Fischerle's later versions, spec §5; built in the TT-based form
//! of today's engines): when every move but the TT move fails low against the TT score minus a
//! margin, searched shallower, the TT move is singular and is searched one level deeper — at most
//! `max_per_path` times on one path, which is the restriction. Off in every preset.

use cozy_chess::Board;

use crate::search::ordering::MoveList;
use crate::search::record::{Probe, Recorder};
use crate::search::score::MATE_BOUND;
use crate::search::selective::Budget;
use crate::search::stack::Node;
use crate::search::tt::{Bound, Entry};
use crate::search::Searcher;

impl<R: Recorder> Searcher<R> {
    /// Whether the TT move of `node` is singular (and so extended). `moves` are the node's
    /// ordered moves, `budget` its children's selective budget.
    pub(super) fn tt_move_is_singular(
        &mut self,
        board: &Board,
        moves: &MoveList,
        tt_entry: Option<Entry>,
        node: &Node,
        budget: Budget,
    ) -> bool {
        let (level, ply) = (node.level, node.ply);
        let Some((min_level, margin, max)) = self
            .config
            .singular
            .as_ref()
            .map(|s| (s.min_level, s.margin, s.max_per_path))
        else {
            return false;
        };
        let Some((entry, tt_move)) = tt_entry.and_then(|e| e.mv.map(|mv| (e, mv))) else {
            return false;
        };
        if ply == 0
            || level < min_level
            || self.singular_on_path >= max
            || entry.bound == Bound::Upper
            || entry.level < level - 3
            || entry.score.abs() >= MATE_BOUND
        {
            return false;
        }
        self.stats.singular_tries += 1;
        let singular_beta = entry.score - margin * level;
        let depth = (level - 1) / 2;
        for ordered in moves.as_slice().iter().filter(|m| m.mv != tt_move) {
            let child = self.make(board, ordered.mv, ply);
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
        self.stats.singular_extensions += 1;
        true
    }
}

//! The countermove heuristic: the quiet move that last refuted a move (by its from- and
//! to-square) is tried right after the killers when that move was just played. Off in every
//! preset.

use cozy_chess::Move;

/// Refutations by the previous move's from- and to-square.
#[derive(Debug, Clone)]
pub struct CountermoveTable {
    replies: Box<[[Option<Move>; 64]; 64]>,
}

impl Default for CountermoveTable {
    fn default() -> Self {
        Self {
            replies: Box::new([[None; 64]; 64]),
        }
    }
}

impl CountermoveTable {
    /// The reply stored for `previous`.
    pub fn get(&self, previous: Move) -> Option<Move> {
        self.replies[previous.from as usize][previous.to as usize]
    }

    /// Remembers `reply` as the refutation of `previous`.
    pub fn store(&mut self, previous: Move, reply: Move) {
        self.replies[previous.from as usize][previous.to as usize] = Some(reply);
    }

    /// Forgets every reply.
    pub fn reset(&mut self) {
        self.replies.iter_mut().flatten().for_each(|r| *r = None);
    }
}

//! Perft: the number of leaf nodes of the legal-move tree to a depth, the standard check of a move
//! generator. The last level is counted in bulk.

use cozy_chess::Board;

/// Leaf nodes at `depth` plies below `board`.
///
/// ```
/// assert_eq!(engine::perft::perft(&cozy_chess::Board::default(), 3), 8_902);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

//! Draws by rule are found at the horizon too, where the main search hands a node to QS.

use super::*;

/// White is a queen up; Black's knight went g8–f6 and White's g1–f3–g1, so Nf6–g8 repeats the
/// position the game started from.
fn knight_shuffle() -> Position {
    let mut p = Position::from_fen("6nk/8/8/8/8/8/Q7/4K1N1 w - - 0 1").unwrap();
    for mv in ["g1f3", "g8f6", "f3g1"] {
        p.play_uci(mv).unwrap();
    }
    p
}

#[test]
fn a_repetition_at_the_horizon_is_a_draw() {
    // At depth 1 every child of the root is a horizon node: only the repetition saves Black.
    let position = knight_shuffle();
    let r = Searcher::new(SearchConfig::fischerle()).search(&position, Limits::depth(1), |_| {});
    assert_eq!(r.score, score::DRAW);
    let expected = parse_uci_move(position.board(), "f6g8").unwrap();
    assert_eq!(r.best_move, Some(expected));
}

#[test]
fn fifty_moves_complete_at_the_horizon_are_a_draw() {
    // Black, a queen down, makes the hundredth reversible ply with any quiet move.
    let position = Position::from_fen("7k/8/5n2/8/8/8/Q7/4K3 b - - 99 80").unwrap();
    let r = Searcher::new(SearchConfig::fischerle()).search(&position, Limits::depth(1), |_| {});
    assert_eq!(r.score, score::DRAW);
}

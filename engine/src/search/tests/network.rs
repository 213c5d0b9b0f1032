//! The network in the search (`nnue`): every evaluation reads accumulators equal to the board's
//! summed afresh (the check in `evaluate_cached` runs in every engine test), through castling, en
//! passant, promotions and null moves; the tree is the network's and repeats exactly.

use super::core_switches::{with, KIWIPETE, MIDDLEGAME};
use super::*;

const PROMOTIONS: &str = "8/2P5/8/3pP3/8/8/5p2/K6k w - d6 0 1";

#[test]
fn a_network_search_keeps_every_accumulator_fresh_and_repeats() {
    let nnue = with(&SearchConfig::swift(), "nnue", "on");
    for fen in [MIDDLEGAME, KIWIPETE, PROMOTIONS] {
        let a = search(fen, nnue.clone(), 7).stats;
        let b = search(fen, nnue.clone(), 7).stats;
        assert_eq!(a.nodes, b.nodes, "{fen}");
        assert!(
            a.null_move_tries > 0 || fen == PROMOTIONS,
            "{fen}: passes were made"
        );
        let classic = search(fen, SearchConfig::swift(), 7).stats;
        assert_ne!(
            a.nodes, classic.nodes,
            "{fen}: the network is the evaluation"
        );
    }
}

#[test]
fn a_network_of_the_wrong_width_or_size_is_refused_by_the_configuration() {
    let mut c = SearchConfig::swift();
    // A width other than the built-in network's.
    let other = 2 * crate::nnue::network::EMBEDDED_HIDDEN;
    let e = c
        .set("nnue.hidden", &other.to_string())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("nnue.net") && e.contains(&format!("nnue.hidden = {other}")),
        "{e}"
    );
    let dir = std::env::temp_dir().join(format!("nnue-size-{}", std::process::id()));
    std::fs::write(&dir, [0u8; 1000]).unwrap();
    let e = c
        .set("nnue.net", dir.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("1000 bytes fit no"), "{e}");
    std::fs::remove_file(&dir).unwrap();
}

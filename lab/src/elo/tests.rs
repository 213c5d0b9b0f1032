//! Elo against the values fastchess's tests publish (two decimals).

use super::*;

fn close(got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
}

/// fastchess's published Elo and 95 % error (tests/elo_test.cpp), which it checks to a relative
/// 1 %: its error used an approximate inverse normal (1.96 is exact here), hence 95.59 for 95.43.
#[test]
fn elo_and_error_of_game_counts_match_fastchess() {
    // (wins, losses, draws) → Elo, 95 % error.
    for (w, l, d, e, err) in [
        (0, 36, 14, -315.34, 95.43),
        (859, 772, 1329, 10.21, 9.28),
        (1164, 1267, 3049, -6.53, 6.12),
    ] {
        let t = Trinomial {
            wins: w,
            draws: d,
            losses: l,
        };
        let est = EloEstimate::from_games(&t).unwrap();
        close(est.elo, e, 0.01);
        close(est.elo95, err, 0.01 * err);
    }
}

#[test]
fn textbook_values() {
    close(elo(0.5), 0.0, 1e-12);
    close(elo(score_of_elo(123.0)), 123.0, 1e-9);
    close(phi(0.0), 0.5, 1e-15);
    close(phi(Z95), 0.975, 1e-12);
    close(NELO_PER_T, 347.435_585_522_601_46, 1e-9);
}

#[test]
fn pairs_are_counted_by_their_score() {
    let mut p = Pentanomial::default();
    for (a, b) in [
        (0.0, 0.0),
        (0.5, 0.0),
        (1.0, 0.0),
        (0.5, 0.5),
        (1.0, 0.5),
        (1.0, 1.0),
    ] {
        p.add_pair(a, b);
    }
    assert_eq!(p.counts(), [1, 1, 2, 1, 1]);
    assert_eq!(p.pairs(), 6);
}

#[test]
fn an_even_match_has_zero_elo_and_los_one_half() {
    let p = Pentanomial {
        ll: 10,
        ld: 20,
        dd_wl: 40,
        wd: 20,
        ww: 10,
    };
    let e = EloEstimate::from_pairs(&p).unwrap();
    close(e.elo, 0.0, 1e-9);
    close(e.nelo, 0.0, 1e-9);
    close(e.los, 0.5, 1e-12);
    // 200 games: nElo ± 1.96 · 347.4 / √200.
    close(e.nelo95, Z95 * NELO_PER_T / 200f64.sqrt(), 1e-9);
}

#[test]
fn a_player_who_won_or_lost_everything_is_not_rated_by_the_data() {
    use crate::elo::ratings::unrated;
    // Three players: 0 beats everyone, 2 loses to everyone, 1 has a win (against 2) and a loss
    // (against 0): only 1 is placed by its games.
    let pairings = vec![
        vec![vec![(0, 1, 1.0), (1, 0, 0.0)]],
        vec![vec![(0, 2, 1.0), (2, 0, 0.0)]],
        vec![vec![(1, 2, 1.0), (2, 1, 0.0)]],
    ];
    assert_eq!(unrated(3, &pairings), vec![Some(true), None, Some(false)]);
    // One draw is enough for the data to place a player; no games place nobody.
    let pairings = vec![vec![vec![(0, 1, 0.5), (1, 0, 0.0)]]];
    assert_eq!(unrated(3, &pairings), vec![None, None, None]);
    // A cascade: 0 beats everyone; without 0, 1 has beaten everyone left; 2 and 3 draw.
    let pairings = vec![
        vec![vec![(0, 1, 1.0)]],
        vec![vec![(0, 2, 1.0)]],
        vec![vec![(0, 3, 1.0)]],
        vec![vec![(1, 2, 1.0)]],
        vec![vec![(1, 3, 1.0)]],
        vec![vec![(2, 3, 0.5)]],
    ];
    assert_eq!(
        unrated(4, &pairings),
        vec![Some(true), Some(true), None, None]
    );
}

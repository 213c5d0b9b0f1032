//! Multiple comparisons: Holm's step-down adjustment, the one every table of several tests uses
//! (factorial effects, a ladder's trends, a tune's drift).

/// Holm's step-down adjustment: the i-th smallest of m p-values times (m − i + 1), made
/// monotone, at most 1 — familywise error control under any dependence.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_matches_worked_values() {
        // Holm (1979) by hand: sorted 0.01, 0.02, 0.03, 0.04 × 4, 3, 2, 1 → 0.04, 0.06, 0.06, 0.06.
        let adj = holm(&[0.03, 0.01, 0.04, 0.02]);
        let expected = [0.06, 0.04, 0.06, 0.06];
        for (a, e) in adj.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adj:?}");
        }
        assert_eq!(holm(&[0.5, 0.9]), [1.0, 1.0]);
    }
}

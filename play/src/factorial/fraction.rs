//! Regular two-level fractions of resolution ≥ V: in a 2^(k−p) design the last p factors are
//! generated from the first k − p (`F = ABCDE`: F's level is the product of A…E's), so main effects
//! and two-factor interactions are aliased only with interactions of three or more factors.
//!
//! The generators are those of the standard tables — NIST/SEMATECH e-Handbook of Statistical
//! Methods, §5.3.3.4.7 "Fractional factorial design specifications and design resolution" (from
//! Box, Hunter & Hunter, *Statistics for Experimenters*, table 12.15) — and [`resolution`]
//! recomputes each one's resolution from its defining relation, so a wrong entry fails a test.

/// Factor letters in design order (`A` is the first factor given).
pub const LETTERS: &[u8] = b"ABCDEFGHJKLM";

/// `(k, p, generators)`: the generated factors' words over the first k − p letters.
const TABLE: &[(usize, usize, &[&str])] = &[
    (5, 1, &["ABCD"]),
    (6, 1, &["ABCDE"]),
    (7, 1, &["ABCDEF"]),
    (8, 2, &["ABCD", "ABEF"]),
    (9, 2, &["ACDFG", "BCEFG"]),
    (10, 3, &["ABCG", "BCDE", "ACDF"]),
];

/// The generators of the resolution-≥ V fraction 2^(k−p), or what k allows.
pub fn generators(k: usize, p: usize) -> Result<Vec<String>, String> {
    if p == 0 {
        return Ok(Vec::new());
    }
    TABLE
        .iter()
        .find(|(tk, tp, _)| *tk == k && *tp == p)
        .map(|(_, _, g)| g.iter().map(|w| w.to_string()).collect())
        .ok_or_else(|| {
            let allowed: Vec<String> = TABLE
                .iter()
                .filter(|(tk, _, _)| *tk == k)
                .map(|(_, tp, _)| tp.to_string())
                .collect();
            format!(
                "no fraction 2^({k}−{p}) of resolution V or more in the standard tables: for {k} factors --fraction can be 0 (the full design){}",
                if allowed.is_empty() {
                    String::new()
                } else {
                    format!(" or {}", allowed.join(", "))
                }
            )
        })
}

/// A generator as a factor set (bit i = factor i), including the factor it generates.
fn word(index: usize, generator: &str) -> u32 {
    let letters = generator.bytes().map(|b| {
        1u32 << LETTERS
            .iter()
            .position(|&l| l == b)
            .expect("a factor letter")
    });
    letters.fold(1u32 << index, |w, bit| w ^ bit)
}

/// The defining relation's words (every product of generators), as factor sets.
pub fn defining_relation(k: usize, generators: &[String]) -> Vec<u32> {
    let base = k - generators.len();
    let words: Vec<u32> = generators
        .iter()
        .enumerate()
        .map(|(i, g)| word(base + i, g))
        .collect();
    (1u32..1 << words.len())
        .map(|subset| {
            words
                .iter()
                .enumerate()
                .filter(|(i, _)| subset & (1 << i) != 0)
                .fold(0, |acc, (_, w)| acc ^ w)
        })
        .collect()
}

/// The length of the shortest word of the defining relation (`None` for a full design).
pub fn resolution(k: usize, generators: &[String]) -> Option<u32> {
    defining_relation(k, generators)
        .iter()
        .map(|w| w.count_ones())
        .min()
}

/// The level (−1 or +1) of every factor at each point: a full factorial over the first k − p
/// factors (the first varying slowest), the rest generated.
pub fn points(k: usize, generators: &[String]) -> Vec<Vec<i8>> {
    let base = k - generators.len();
    (0..1u32 << base)
        .map(|n| {
            let mut levels: Vec<i8> = (0..base)
                .map(|f| if n >> (base - 1 - f) & 1 == 1 { 1 } else { -1 })
                .collect();
            for g in generators {
                let product = g
                    .bytes()
                    .map(|b| levels[LETTERS.iter().position(|&l| l == b).expect("a letter")])
                    .product();
                levels.push(product);
            }
            levels
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tabled_fraction_has_resolution_five_or_more() {
        for &(k, p, g) in TABLE {
            let g: Vec<String> = g.iter().map(|w| w.to_string()).collect();
            let r = resolution(k, &g).unwrap();
            assert!(r >= 5, "2^({k}-{p}) has resolution {r}");
            let pts = points(k, &g);
            assert_eq!(pts.len(), 1 << (k - p));
            // Balanced and orthogonal: every column and every product of two sums to 0.
            for a in 0..k {
                assert_eq!(pts.iter().map(|x| i32::from(x[a])).sum::<i32>(), 0);
                for b in a + 1..k {
                    let s: i32 = pts.iter().map(|x| i32::from(x[a] * x[b])).sum();
                    assert_eq!(s, 0, "2^({k}-{p}): {a}×{b}");
                }
            }
        }
    }

    #[test]
    fn a_half_fraction_of_five_factors_is_e_equals_abcd() {
        let g = generators(5, 1).unwrap();
        assert_eq!(resolution(5, &g), Some(5));
        assert_eq!(defining_relation(5, &g), [0b11111]);
        let e = generators(4, 1).unwrap_err();
        assert!(
            e.contains("2^(4−1)") && e.contains("0 (the full design)"),
            "{e}"
        );
        assert!(generators(8, 1).unwrap_err().contains("or 2"));
    }
}

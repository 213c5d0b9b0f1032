//! How the report's tables write numbers: one formatter per kind of cell, shared by the grid
//! report, the summary table and `harness compare`.

use super::stats::{wilson, Estimate};

/// `x` with `digits` decimals, or `-`.
pub fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or("-".into(), |v| format!("{v:.digits$}"))
}

/// A duration given in milliseconds, in the unit that keeps three significant digits at these
/// speeds: `420 µs`, `3.25 ms`, `41.2 ms`, `1830 ms`; `-` when unknown, `< 1 ms` for the 0 of an
/// older run's whole milliseconds.
pub fn duration_ms(ms: Option<f64>) -> String {
    match ms {
        None => "-".into(),
        // Runs recorded before times had microseconds wrote a quicker search as 0 ms.
        Some(ms) if ms <= 0.0 => "< 1 ms".into(),
        Some(ms) if ms < 1.0 => format!("{:.0} µs", ms * 1000.0),
        Some(ms) if ms < 10.0 => format!("{ms:.2} ms"),
        Some(ms) if ms < 100.0 => format!("{ms:.1} ms"),
        Some(ms) => format!("{ms:.0} ms"),
    }
}

/// A count rounded to a whole number with thin spaces between thousands: `36 630`.
pub fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(d);
    }
    if x < 0.0 && digits != "0" {
        out.insert(0, '-');
    }
    out
}

/// `point [low, high]`, or `-` without an estimate.
pub fn estimate(e: Option<Estimate>) -> String {
    e.map_or("-".into(), |e| {
        format!("{:.3} [{:.3}, {:.3}]", e.point, e.low, e.high)
    })
}

/// A p-value: three decimals, or scientific below 0.001 (below double precision: `< 1e-16`).
pub fn pvalue(p: f64) -> String {
    if p < 1e-16 {
        "< 1e-16".to_string()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// `k (p %) [lo, hi]` with the 95 % Wilson interval in per cent.
pub fn share(k: usize, n: usize) -> String {
    match wilson(k, n) {
        Some(e) => format!(
            "{k} ({:.1} %) [{:.1}, {:.1}]",
            100.0 * e.point,
            100.0 * e.low,
            100.0 * e.high
        ),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_keep_their_digits_below_a_millisecond() {
        let cells: Vec<String> = [
            None,
            Some(0.0),
            Some(0.42),
            Some(3.254),
            Some(41.25),
            Some(1830.4),
        ]
        .into_iter()
        .map(duration_ms)
        .collect();
        assert_eq!(
            cells,
            ["-", "< 1 ms", "420 µs", "3.25 ms", "41.2 ms", "1830 ms"]
        );
        assert_eq!(thousands(36_629.6), "36\u{2009}630");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(-1234.0), "-1\u{2009}234");
    }
}

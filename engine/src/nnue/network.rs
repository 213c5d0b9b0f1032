//! A quantised network as it is stored: the raw layout bullet's `simple` example saves, so that a
//! net of this shape trained by bullet plugs in, and the one `harness train` exports.
//!
//! All values little-endian `i16`, in this order:
//!
//! | part | count | quantised by |
//! |---|---|---|
//! | first-layer weights, input-major (input f's H weights together) | 768 × H | QA = 255 |
//! | first-layer biases | H | QA |
//! | output weights: the side to move's H, then the other side's H | 2 × H | QB = 64 |
//! | output bias | 1 | QA × QB |
//!
//! then zeros up to a multiple of 64 bytes (bullet pads its files so; an unpadded file is read
//! too). A file of any other size is refused with the sizes a width would need.

use super::{Activation, INPUTS, QA, QB};

/// The built-in network's hidden width.
pub const EMBEDDED_HIDDEN: usize = 384;
/// The built-in network's activation.
pub const EMBEDDED_ACTIVATION: Activation = Activation::Screlu;

/// Why a network cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read.
    #[error("network {path}: {reason}")]
    Read {
        /// The path.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// The bytes are not a (768→H)×2→1 network of the width asked for.
    #[error("network {origin}: {found} bytes, but a (768→{hidden})×2→1 network has {exact} ({padded} padded to 64){hint}")]
    Size {
        /// Where it came from.
        origin: String,
        /// Its size.
        found: usize,
        /// The width asked for.
        hidden: usize,
        /// The size of that width unpadded.
        exact: usize,
        /// And padded.
        padded: usize,
        /// The width the size fits, if any.
        hint: String,
    },
    /// The size fits no width.
    #[error("network {origin}: {found} bytes fit no (768→H)×2→1 network (2 × (771 H + 1) bytes, padded to 64 or not)")]
    NoWidth {
        /// Where it came from.
        origin: String,
        /// Its size.
        found: usize,
    },
    /// The width asked for cannot be a network's.
    #[error("nnue.hidden = {0} is out of range: expected a multiple of 8 from 8 to 4096")]
    BadWidth(usize),
    /// A network of another width than the configuration names.
    #[error("network {origin} is (768→{found})×2→1, but nnue.hidden = {expected}")]
    Width {
        /// Which network.
        origin: String,
        /// The width configured.
        expected: usize,
        /// The network's.
        found: usize,
    },
}

/// A quantised (768→H)×2→1 network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    out_weights: Vec<i16>,
    out_bias: i16,
}

/// The values a network of width `hidden` stores.
fn values(hidden: usize) -> usize {
    INPUTS * hidden + hidden + 2 * hidden + 1
}

/// The unpadded and padded sizes of a network of width `hidden`, in bytes.
pub fn sizes(hidden: usize) -> (usize, usize) {
    let exact = 2 * values(hidden);
    (exact, exact.div_ceil(64) * 64)
}

/// The width whose file would have `bytes` bytes, if one does.
fn width_of(bytes: usize) -> Option<usize> {
    let hidden = (bytes / 2).saturating_sub(1) / (INPUTS + 3);
    (hidden.saturating_sub(1)..=hidden + 1).find(|&h| {
        let (exact, padded) = sizes(h);
        h > 0 && (bytes == exact || bytes == padded)
    })
}

impl Network {
    /// The network in `bytes` (the layout above), which must have width `hidden` if given (else
    /// the width its size fits); `source` names it in errors.
    pub fn from_bytes(
        bytes: &[u8],
        hidden: Option<usize>,
        source: &str,
    ) -> Result<Self, NetworkError> {
        let hidden = match hidden {
            Some(h) => h,
            None => width_of(bytes.len()).ok_or_else(|| NetworkError::NoWidth {
                origin: source.to_string(),
                found: bytes.len(),
            })?,
        };
        if hidden == 0 || !hidden.is_multiple_of(8) || hidden > 4096 {
            return Err(NetworkError::BadWidth(hidden));
        }
        let (exact, padded) = sizes(hidden);
        if bytes.len() != exact && bytes.len() != padded {
            let hint = match width_of(bytes.len()) {
                Some(h) => format!(": its size is a (768→{h})×2→1 network's (nnue.hidden = {h})"),
                None => ": it fits no width".to_string(),
            };
            return Err(NetworkError::Size {
                origin: source.to_string(),
                found: bytes.len(),
                hidden,
                exact,
                padded,
                hint,
            });
        }
        let mut values = bytes[..exact]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let out_bias = take(1)[0];
        Ok(Self {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The network as stored (padded to 64 bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
            .chain(std::iter::once(&self.out_bias))
            .flat_map(|v| v.to_le_bytes())
            .collect();
        out.resize(sizes(self.hidden).1, 0);
        out
    }

    /// A network from its quantised parts (the trainer's export); the lengths must fit `hidden`.
    pub fn from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i16,
    ) -> Self {
        assert_eq!(ft_weights.len(), INPUTS * hidden, "first-layer weights");
        assert_eq!(ft_bias.len(), hidden, "first-layer biases");
        assert_eq!(out_weights.len(), 2 * hidden, "output weights");
        Self {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        }
    }

    /// The hidden width H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Input `feature`'s first-layer weights (H of them).
    pub fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The first-layer biases.
    pub fn bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The score, centipawns for the side to move, of the accumulators `us` (the side to move's)
    /// and `them`.
    pub fn evaluate(&self, us: &[i16], them: &[i16], activation: Activation, scale: i32) -> i32 {
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        let sum = match activation {
            Activation::Crelu => crelu_dot(us, w_us).wrapping_add(crelu_dot(them, w_them)),
            Activation::Screlu => screlu_dot(us, w_us).wrapping_add(screlu_dot(them, w_them)) / QA,
        };
        (sum + i32::from(self.out_bias)) * scale / (QA * QB)
    }
}

/// Σ clamp(x, 0, QA) · w, in wrapping i32 (order-free, so any vector width gives these integers).
fn crelu_dot(xs: &[i16], ws: &[i16]) -> i32 {
    xs.iter().zip(ws).fold(0i32, |sum, (&x, &w)| {
        sum.wrapping_add(i32::from(x.clamp(0, QA as i16)) * i32::from(w))
    })
}

/// Σ clamp(x, 0, QA)² · w: (v · w) fits an i16 for |w| ≤ 128 (the trainer clips to 127), then
/// times v in i32 — the form a vector multiply-add takes.
fn screlu_dot(xs: &[i16], ws: &[i16]) -> i32 {
    xs.iter().zip(ws).fold(0i32, |sum, (&x, &w)| {
        let v = x.clamp(0, QA as i16);
        let vw = v.wrapping_mul(w);
        sum.wrapping_add(i32::from(vw) * i32::from(v))
    })
}

/// A network of small pseudo-random weights (for tests).
#[cfg(test)]
pub(crate) fn random(hidden: usize, seed: u64) -> Network {
    tests::net(hidden, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn net(hidden: usize, seed: u64) -> Network {
        let mut state = seed;
        let mut next = |range: i16| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as i64 % i64::from(range)) as i16
        };
        Network::from_parts(
            hidden,
            (0..INPUTS * hidden).map(|_| next(60)).collect(),
            (0..hidden).map(|_| next(200)).collect(),
            (0..2 * hidden).map(|_| next(127)).collect(),
            next(3000),
        )
    }

    #[test]
    fn bytes_round_trip_padded_and_unpadded() {
        let n = net(16, 3);
        let bytes = n.to_bytes();
        assert_eq!(bytes.len() % 64, 0);
        assert_eq!(Network::from_bytes(&bytes, Some(16), "t").unwrap(), n);
        let exact = sizes(16).0;
        assert_eq!(
            Network::from_bytes(&bytes[..exact], Some(16), "t").unwrap(),
            n
        );
        assert_eq!(Network::from_bytes(&bytes[..exact], None, "t").unwrap(), n);
    }

    #[test]
    fn a_file_of_another_width_is_refused_with_the_width_it_fits() {
        let bytes = net(32, 1).to_bytes();
        let e = Network::from_bytes(&bytes, Some(16), "x.nnue")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.nnue") && e.contains("nnue.hidden = 32"),
            "{e}"
        );
        let e = Network::from_bytes(&bytes[..1000], Some(16), "x.nnue")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("1000 bytes") && e.contains("fits no width"),
            "{e}"
        );
        let e = Network::from_bytes(&bytes[..1000], None, "x.nnue")
            .unwrap_err()
            .to_string();
        assert!(e.contains("1000 bytes fit no"), "{e}");
        assert_eq!(
            Network::from_bytes(&bytes, Some(12), "x"),
            Err(NetworkError::BadWidth(12))
        );
    }

    #[test]
    fn the_output_is_the_formula_of_the_layout() {
        let n = net(8, 9);
        let us: Vec<i16> = (0..8).map(|i| i * 50 - 100).collect();
        let them: Vec<i16> = (0..8).map(|i| 300 - i * 40).collect();
        let (wu, wt) = n.out_weights.split_at(8);
        let act = |x: i16| i64::from(x.clamp(0, 255));
        let crelu: i64 = us
            .iter()
            .zip(wu)
            .map(|(&x, &w)| act(x) * i64::from(w))
            .sum::<i64>()
            + them
                .iter()
                .zip(wt)
                .map(|(&x, &w)| act(x) * i64::from(w))
                .sum::<i64>();
        let expected = (crelu + i64::from(n.out_bias)) * 400 / (255 * 64);
        assert_eq!(
            i64::from(n.evaluate(&us, &them, Activation::Crelu, 400)),
            expected
        );
        let screlu: i64 = us
            .iter()
            .zip(wu)
            .map(|(&x, &w)| act(x) * act(x) * i64::from(w))
            .sum::<i64>()
            + them
                .iter()
                .zip(wt)
                .map(|(&x, &w)| act(x) * act(x) * i64::from(w))
                .sum::<i64>();
        let expected = (screlu / 255 + i64::from(n.out_bias)) * 400 / (255 * 64);
        assert_eq!(
            i64::from(n.evaluate(&us, &them, Activation::Screlu, 400)),
            expected
        );
    }
}

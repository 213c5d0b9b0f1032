//! The evaluation by an efficiently updatable neural network (NNUE): the perspective network
//! (768→H)×2→1 of bullet's `simple` example and of most first networks (akimbo, Svart, Carp).
//!
//! Each side's accumulator holds the first layer's sum over the 768 piece-square features seen
//! from that side ([`features`]); the search keeps one pair per ply and updates it from its
//! parent's with the features a move removes and adds ([`Accumulator::set_after`]), so a position is
//! never summed from scratch inside a search. The output is the side to move's accumulator and
//! the other side's, activated (CReLU or SCReLU), times the output weights.
//!
//! Integers throughout, as the network is stored ([`network`]): the first layer quantised by
//! [`QA`] = 255, the output layer by [`QB`] = 64, the score `× scale / (QA × QB)` centipawns.

pub mod accumulator;
pub mod features;
pub mod network;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

use serde::{Deserialize, Serialize};

pub use accumulator::Accumulator;
pub use network::{Network, NetworkError};

/// The first layer's quantisation: an activation of 1.0 is 255.
pub const QA: i32 = 255;
/// The output layer's quantisation: a weight of 1.0 is 64.
pub const QB: i32 = 64;
/// The inputs: 2 colours × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;

/// The hidden layer's activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// clamp(x, 0, 1).
    Crelu,
    /// clamp(x, 0, 1)² (squared clipped ReLU).
    Screlu,
}

/// The evaluation by a network: which one, and how to read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nnue {
    /// `default` (the network built into the engine, [`DEFAULT_NET`]) or the path of a raw
    /// quantised network file ([`network`] documents the layout).
    pub net: String,
    /// The hidden width H the file must have; absent: the width its size gives (a file's size
    /// fits one width at most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<usize>,
    /// The hidden layer's activation (the file does not say; the trainer's report does).
    pub activation: Activation,
    /// Centipawns per unit of the network's output (bullet's `SCALE`).
    pub scale: i32,
}

/// The name of the built-in network in [`Nnue::net`].
pub const DEFAULT_NET: &str = "default";

/// The built-in network: `net3-384` of `results/nnue/` (trained on all of generation 0 and
/// generation 1's first 319 chunks, chosen by the third selection; its data, trainer settings and
/// losses are in `results/nnue/nets/net3-384/net.json`).
static EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");

impl Default for Nnue {
    /// The built-in network as it was trained.
    fn default() -> Self {
        Self {
            net: DEFAULT_NET.to_string(),
            hidden: None,
            activation: network::EMBEDDED_ACTIVATION,
            scale: 400,
        }
    }
}

/// The bytes of the built-in network, as [`network`] lays them out (its SHA-256 names it in a
/// run's provenance, beside the bench signature, which does not cover it).
pub fn embedded() -> &'static [u8] {
    EMBEDDED
}

/// Networks read so far, by path: a match of many searchers reads a file once.
static LOADED: LazyLock<Mutex<HashMap<PathBuf, Arc<Network>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

impl Nnue {
    /// The network this names, read (once per path and process) and checked against `hidden`.
    pub fn load(&self) -> Result<Arc<Network>, NetworkError> {
        if self.net == DEFAULT_NET {
            static DEFAULT: LazyLock<Result<Arc<Network>, NetworkError>> = LazyLock::new(|| {
                Network::from_bytes(
                    EMBEDDED,
                    Some(network::EMBEDDED_HIDDEN),
                    "the built-in network",
                )
                .map(Arc::new)
            });
            let net = DEFAULT.clone()?;
            return check_width(net, self.hidden, DEFAULT_NET);
        }
        let path = PathBuf::from(&self.net);
        let mut loaded = LOADED.lock().expect("no reader panics holding the cache");
        if let Some(net) = loaded.get(&path) {
            return check_width(net.clone(), self.hidden, &self.net);
        }
        let bytes = std::fs::read(&path).map_err(|e| NetworkError::Read {
            path: self.net.clone(),
            reason: e.to_string(),
        })?;
        let net = Arc::new(Network::from_bytes(&bytes, None, &self.net)?);
        loaded.insert(path, net.clone());
        check_width(net, self.hidden, &self.net)
    }
}

fn check_width(
    net: Arc<Network>,
    hidden: Option<usize>,
    name: &str,
) -> Result<Arc<Network>, NetworkError> {
    match hidden {
        Some(h) if h != net.hidden() => Err(NetworkError::Width {
            origin: name.to_string(),
            expected: h,
            found: net.hidden(),
        }),
        _ => Ok(net),
    }
}

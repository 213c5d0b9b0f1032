//! The evaluation's terms as data: [`Evaluation`], the `eval` section of
//! [`SearchConfig`](crate::SearchConfig). Each term that can be off is an `Option` (absent = off),
//! each weight a middle-game/endgame [`Pair`] tapered by the game phase. The classic evaluation
//! (material, piece-square tables, doubled, isolated and passed pawns: every preset so far) is
//! [`Evaluation::classic`]; a configuration with it leaves the section out of its TOML.

use serde::{Deserialize, Serialize};

use super::scaling::DrawScaling;
use super::Score;

/// A weight: its middle-game and endgame values in centipawns, written `[mg, eg]` in TOML.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[Score; 2]", into = "[Score; 2]")]
pub struct Pair {
    /// Middle-game value.
    pub mg: Score,
    /// Endgame value.
    pub eg: Score,
}

impl Pair {
    /// `mg`, `eg`.
    pub const fn new(mg: Score, eg: Score) -> Self {
        Self { mg, eg }
    }
}

impl From<[Score; 2]> for Pair {
    fn from([mg, eg]: [Score; 2]) -> Self {
        Self { mg, eg }
    }
}

impl From<Pair> for [Score; 2] {
    fn from(p: Pair) -> Self {
        [p.mg, p.eg]
    }
}

/// The terms switched on and off as a whole, by their `eval.` key (`eval.mobility=on`); each is
/// off in [`Evaluation::classic`] but `pawns` (whose classic part, doubled and isolated pawns,
/// is on there) and `passed.path` (passed pawns by rank are classic, their path is not).
pub const TERMS: [&str; 10] = [
    "passed.path",
    "pawns",
    "mobility",
    "king_safety",
    "bishop_pair",
    "rook_files",
    "outposts",
    "threats",
    "tempo",
    "scaling",
];

/// Every term of the evaluation. `Default` is [`Evaluation::classic`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    /// Piece values; absent = Fischerle's (100, 300, 325, 500, 900 in both phases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
    /// Piece-square tables; absent = the classic tables (the simplified evaluation's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psqt: Option<Box<Psqt>>,
    /// Pawn structure: doubled, isolated, backward, phalanx and supported pawns. On in `classic`
    /// (doubled and isolated only; the others weigh 0 there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pawns: Option<Pawns>,
    /// Passed pawns by rank, and (`passed.path`) their path, king distances and the rule of the
    /// square. On in `classic` (by rank only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<Passed>,
    /// Mobility: safe squares (not own-occupied, not attacked by an enemy pawn) of each knight,
    /// bishop, rook and queen → a weight per count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobility: Option<Mobility>,
    /// King safety: attacks on the king zone, the number of attackers, pawn shield and storm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub king_safety: Option<KingSafety>,
    /// A bonus for holding both bishops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bishop_pair: Option<Bonus>,
    /// Rooks on open (no pawn) and semi-open (no own pawn) files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rook_files: Option<RookFiles>,
    /// Knights and bishops on the fourth to sixth rank, defended by a pawn, where no enemy pawn can
    /// attack them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outposts: Option<Outposts>,
    /// Pawns and minors attacking bigger pieces, rooks attacking queens, hanging pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threats: Option<Threats>,
    /// A bonus for the side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tempo: Option<Bonus>,
    /// Draw scaling: opposite-coloured bishops, no pawns and too little to mate, the wrong rook
    /// pawn, the fifty-move counter (scales of the endgame score, set rather than fitted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling: Option<DrawScaling>,
}

/// Piece values (the king has none: both sides always have one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Material {
    /// Pawn.
    pub pawn: Pair,
    /// Knight.
    pub knight: Pair,
    /// Bishop.
    pub bishop: Pair,
    /// Rook.
    pub rook: Pair,
    /// Queen.
    pub queen: Pair,
}

/// A bonus per square for each piece, 64 pairs from White's side written as a diagram reads
/// (a8 … h8 first, a1 … h1 last); Black reads the rank-mirrored square.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Psqt {
    /// Pawn (ranks 1 and 8 unused).
    pub pawn: Vec<Pair>,
    /// Knight.
    pub knight: Vec<Pair>,
    /// Bishop.
    pub bishop: Vec<Pair>,
    /// Rook.
    pub rook: Vec<Pair>,
    /// Queen.
    pub queen: Vec<Pair>,
    /// King.
    pub king: Vec<Pair>,
}

/// Pawn-structure weights, per pawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pawns {
    /// Each pawn beyond the first on its file.
    pub doubled: Pair,
    /// Each pawn with no own pawn on an adjacent file.
    pub isolated: Pair,
    /// A pawn not isolated, with no own pawn beside or behind it on an adjacent file, whose stop
    /// square an enemy pawn attacks. Default 0.
    #[serde(default)]
    pub backward: Pair,
    /// A pawn with an own pawn beside it on the same rank, by its relative rank. Default 0.
    #[serde(default)]
    pub phalanx: [Pair; 8],
    /// A pawn defended by an own pawn, by its relative rank. Default 0.
    #[serde(default)]
    pub supported: [Pair; 8],
}

/// Passed pawns (no enemy pawn ahead on its file or an adjacent one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Passed {
    /// By relative rank.
    pub rank: [Pair; 8],
    /// What lies ahead of a passed pawn; absent = off (as in `classic`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PassedPath>,
}

/// The passed-pawn terms beyond its rank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassedPath {
    /// No piece on the squares to promotion, by relative rank.
    pub free: [Pair; 8],
    /// Per square of distance from the own king to the pawn's stop square.
    pub own_king: Pair,
    /// Per square of distance from the enemy king to the pawn's stop square.
    pub their_king: Pair,
    /// With no enemy piece but pawns, a free path, and the enemy king outside the pawn's square.
    pub unstoppable: Pair,
}

/// Mobility by count of safe squares, one table per piece.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mobility {
    /// 0 … 8 squares.
    pub knight: [Pair; 9],
    /// 0 … 13 squares.
    pub bishop: [Pair; 14],
    /// 0 … 14 squares.
    pub rook: [Pair; 15],
    /// 0 … 27 squares.
    pub queen: Vec<Pair>,
}

/// King safety: attacks on the enemy king zone (counted for the attacker), and the own king's
/// shelter — pawn shield, enemy pawn storm, an open file (counted for the defender).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingSafety {
    /// Per square of the enemy king zone (the king's square and its neighbours) attacked, by the
    /// attacking piece: knight, bishop, rook, queen.
    pub zone_attacks: [Pair; 4],
    /// By the number of pieces attacking the enemy king zone (0 … 7 or more).
    pub attackers: [Pair; 8],
    /// Per own pawn on the king's file or beside it, on the second and third relative rank.
    pub shield: [Pair; 2],
    /// Per enemy pawn on the king's file or beside it, on the third, fourth and fifth relative
    /// rank (a storm on the king; usually negative).
    pub storm: [Pair; 3],
    /// The king on a file without an own pawn.
    pub open_file: Pair,
}

/// A single bonus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    /// Its value.
    pub bonus: Pair,
}

/// Rooks on files without pawns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RookFiles {
    /// No pawn on the file.
    pub open: Pair,
    /// Only enemy pawns on the file.
    pub semi_open: Pair,
}

/// Minor pieces on outposts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outposts {
    /// Knight.
    pub knight: Pair,
    /// Bishop.
    pub bishop: Pair,
}

/// Attacks on bigger or undefended pieces (per piece attacked).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Threats {
    /// An enemy knight, bishop, rook or queen attacked by a pawn.
    pub pawn: Pair,
    /// An enemy rook or queen attacked by a knight or bishop.
    pub minor: Pair,
    /// An enemy queen attacked by a rook.
    pub rook: Pair,
    /// An enemy piece (not a pawn or the king) attacked and not defended.
    pub hanging: Pair,
}

impl Default for Evaluation {
    fn default() -> Self {
        Self::classic()
    }
}

impl Evaluation {
    /// Whether this is [`Evaluation::classic`] (a configuration then leaves the section out).
    pub fn is_classic(&self) -> bool {
        *self == Self::classic()
    }
}

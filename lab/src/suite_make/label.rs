//! Labelling a position with a reference UCI engine: MultiPV 2 to a fixed depth, one thread,
//! hash cleared (`ucinewgame`) before every position, so the label repeats exactly. A position is
//! kept when its best move beats the second best by the margin and is not a mate in one (too easy
//! to say anything about a search) — or, for an opening book, when its best score is balanced.

use std::time::Duration;

use cozy_chess::Board;
use engine::board::san_move;
use engine::{Position, Variant};

use crate::uci::client::{UciEngine, UciError};
use crate::uci::go::{self, Deadline, GoArgs};
use crate::uci::info::UciScore;

/// How long the handshake, `isready` and `ucinewgame` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// The reference engine and what it is asked.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The program.
    pub path: std::path::PathBuf,
    /// Depth of the analysis.
    pub depth: i32,
    /// Hash in MiB.
    pub hash_mb: u32,
    /// Least difference in centipawns between the best and the second-best move.
    pub margin: i32,
    /// Instead of a clear best move, keep positions whose best score lies within ±this (an
    /// opening book's balanced positions).
    pub balanced: Option<i32>,
    /// How long one analysis may take before the engine counts as hung.
    pub timeout: Duration,
    /// Chess960 positions: the engine is told `UCI_Chess960` and sent Shredder-FEN.
    pub variant: Variant,
}

/// The reference's verdict on one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// The best move in SAN.
    pub best_san: String,
    /// Scores of the best and the second-best move.
    pub best: UciScore,
    /// The second.
    pub second: UciScore,
    /// best − second in centipawns (mates on the engine's scale).
    pub margin: i32,
}

impl Reference {
    /// Starts the engine with one thread, the hash and MultiPV 2.
    pub fn start(&self) -> Result<UciEngine, UciError> {
        let mut engine = UciEngine::start(&self.path, HANDSHAKE)?;
        let has = |e: &UciEngine, name: &str| e.identity.declared.iter().any(|o| o.name == name);
        if !has(&engine, "MultiPV") {
            return Err(UciError::Unsupported(format!(
                "a reference must offer the MultiPV option to rank its two best moves; `{}` offers {:?}",
                engine.identity.name,
                engine.identity.declared.iter().map(|o| &o.name).collect::<Vec<_>>()
            )));
        }
        for (name, value) in [
            ("Threads", "1".to_string()),
            ("Hash", self.hash_mb.to_string()),
        ] {
            if has(&engine, name) {
                engine.set_option(name, &value)?;
            }
        }
        engine.set_option("MultiPV", "2")?;
        if self.variant == Variant::Chess960 {
            if !has(&engine, "UCI_Chess960") {
                return Err(UciError::Unsupported(format!(
                    "a reference for Chess960 positions must offer UCI_Chess960; `{}` does not",
                    engine.identity.name
                )));
            }
            engine.set_option("UCI_Chess960", "true")?;
        }
        engine.sync(HANDSHAKE)?;
        Ok(engine)
    }

    /// The label of `board`, or `None` when it has no clear best move.
    pub fn label(&self, engine: &mut UciEngine, board: &Board) -> Result<Option<Label>, UciError> {
        engine.new_game(HANDSHAKE)?;
        let deadline = Deadline {
            stop_after: self.timeout,
            grace: Duration::from_secs(2),
        };
        let at = Position::with_variant(board.clone(), self.variant);
        let outcome = go::search(
            engine,
            &at,
            &GoArgs {
                depth: Some(self.depth),
                ..GoArgs::default()
            },
            deadline,
            |_| false,
        )?;
        let [first, second, ..] = outcome.lines.as_slice() else {
            return Ok(None);
        };
        let (best, next) = (
            first.score.expect("pv line"),
            second.score.expect("pv line"),
        );
        let margin = best.centipawns() - next.centipawns();
        let keep = match self.balanced {
            Some(window) => matches!(best, UciScore::Cp(cp) if cp.abs() <= window),
            None => best != UciScore::Mate(1) && margin >= self.margin,
        };
        if !keep {
            return Ok(None);
        }
        let mv = self
            .variant
            .parse_uci_move(board, &outcome.best_move)
            .expect("go::search checked it");
        Ok(Some(Label {
            best_san: san_move(board, mv),
            best,
            second: next,
            margin,
        }))
    }
}

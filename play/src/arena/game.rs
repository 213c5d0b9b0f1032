//! One game: both players prepared, then moves until the rules, the ply limit, an adjudication or
//! a player's fault end it. Every move is recorded with what its player reported.

use cozy_chess::{Color, Move};
use engine::board::san_move;
use engine::{Position, Variant};

use super::limits::{ClockState, MoveLimit};
use super::openings::Opening;
use super::player::{Fault, GameView, MoveReport, Mover, PlayerKind};
use super::rules::{by_the_rules, Outcome, Rules, Termination};

/// A side of a game: who plays it and under which limit.
pub struct Side<'a> {
    /// The player.
    pub player: &'a mut dyn Mover,
    /// What it is.
    pub kind: &'a PlayerKind,
    /// Its limit per move.
    pub limit: MoveLimit,
}

/// One move of a finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedMove {
    /// The move in SAN.
    pub san: String,
    /// What its player reported.
    pub report: MoveReport,
}

/// A finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// The opening's id.
    pub opening: String,
    /// The start position (FEN; Shredder-FEN in Chess960).
    pub start_fen: String,
    /// Which chess the game was.
    pub variant: Variant,
    /// The moves.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended.
    pub termination: Termination,
    /// A fault's details (empty otherwise).
    pub reason: String,
    /// Clock overruns forgiven by the time margin, White's then Black's.
    pub overruns: [Overruns; 2],
}

/// A side's clock overruns that the time margin forgave.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overruns {
    /// How many moves overran the clock.
    pub count: u32,
    /// The largest overrun, ms.
    pub max_ms: f64,
}

/// Plays `opening` with `white` and `black` under `rules`.
pub fn play<'a>(white: Side<'a>, black: Side<'a>, opening: &Opening, rules: &Rules) -> GameRecord {
    let mut sides = [white, black];
    let mut record = GameRecord {
        opening: opening.id.clone(),
        start_fen: opening.variant.fen(&opening.board),
        variant: opening.variant,
        moves: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::MaxPlies,
        reason: String::new(),
        overruns: [Overruns::default(); 2],
    };
    for (i, side) in sides.iter_mut().enumerate() {
        if let Err(fault) = side.player.new_game(side.kind) {
            let loser = if i == 0 { Color::White } else { Color::Black };
            return forfeit(record, loser, fault);
        }
    }
    let mut clocks = sides.each_ref().map(|s| match s.limit {
        MoveLimit::Clock(tc) => Some(tc.base_ms as f64),
        _ => None,
    });
    let mut made = [0u32; 2];
    let mut position = Position::with_variant(opening.board.clone(), opening.variant);
    let mut moves: Vec<Move> = Vec::new();
    let mut scores: Vec<Option<i32>> = Vec::new();
    loop {
        if let Some((outcome, termination)) = by_the_rules(position.board(), position.history()) {
            return GameRecord {
                outcome,
                termination,
                ..record
            };
        }
        let mover = position.side_to_move();
        let (us, them) = match mover {
            Color::White => (0, 1),
            Color::Black => (1, 0),
        };
        let movestogo = match sides[us].limit {
            MoveLimit::Clock(tc) => tc.moves_to_go(made[us]),
            _ => None,
        };
        let clock = clocks[us].map(|own| ClockState {
            own_ms: own.max(0.0) as u64,
            other_ms: clocks[them].unwrap_or(own).max(0.0) as u64,
            movestogo,
        });
        let view = GameView {
            start: &opening.board,
            moves: &moves,
            position: &position,
        };
        let side = &mut sides[us];
        let report = match side.player.play(side.kind, &view, side.limit, clock) {
            Ok(r) => r,
            Err(fault) => return forfeit(record, mover, fault),
        };
        if let (Some(left), MoveLimit::Clock(tc)) = (clocks[us].as_mut(), side.limit) {
            *left -= report.time_ms;
            let over = -*left;
            if over > rules.time_margin_ms as f64 {
                record.moves.push(PlayedMove {
                    san: san_move(position.board(), report.mv),
                    report,
                });
                return GameRecord {
                    outcome: Outcome::win_for(!mover),
                    termination: Termination::Time,
                    reason: format!("{mover:?}'s clock ran out (by {over:.1} ms)"),
                    ..record
                };
            }
            if over > 0.0 {
                let o = &mut record.overruns[us];
                o.count += 1;
                o.max_ms = o.max_ms.max(over);
                *left = 0.0;
            }
            made[us] += 1;
            *left += tc.added_after(made[us]) as f64;
        }
        scores.push(report.score);
        record.moves.push(PlayedMove {
            san: san_move(position.board(), report.mv),
            report: report.clone(),
        });
        moves.push(report.mv);
        position.play(report.mv);
        let fullmove = position.board().fullmove_number() as u32;
        let over = by_the_rules(position.board(), position.history())
            .or_else(|| rules.adjudicate(&scores, fullmove, mover))
            .or_else(|| {
                rules
                    .tb_adjudicate
                    .then(|| super::tablebase::adjudicate(position.board()))
                    .flatten()
            });
        if let Some((outcome, termination)) = over {
            return GameRecord {
                outcome,
                termination,
                ..record
            };
        }
    }
}

fn forfeit(record: GameRecord, loser: Color, fault: Fault) -> GameRecord {
    let (termination, reason) = match fault {
        Fault::Crash(r) => (Termination::Crash, r),
        Fault::Hang(r) => (Termination::Hang, r),
        Fault::Illegal(r) => (Termination::IllegalMove, r),
    };
    GameRecord {
        outcome: Outcome::win_for(!loser),
        termination,
        reason,
        ..record
    }
}

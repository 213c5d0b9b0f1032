//! Retrograde analysis of king + one piece against a lone king (KQK, KRK, and KPK on top of them):
//! the exact value of every position, both sides to move, as the number of plies to mate for the
//! stronger side (White) or a draw. Built level by level, so every distance is exact.

use cozy_chess::{Board, BoardBuilder, Color, Move, Piece, Square};
use rayon::prelude::*;

/// Positions per table: piece square × white king × black king × side to move.
pub const SIZE: usize = 64 * 64 * 64 * 2;
/// The value of a drawn position.
pub const DRAW: u8 = 254;
/// The value of an index that is not a legal position.
pub const ILLEGAL: u8 = 255;
/// Not yet known during the build.
const UNKNOWN: u8 = 253;

/// One position of K + `piece` (White) against K (Black).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// White's extra piece.
    pub piece: Piece,
    /// Its square.
    pub piece_sq: Square,
    /// White king.
    pub wk: Square,
    /// Black king.
    pub bk: Square,
    /// Side to move.
    pub stm: Color,
}

impl Placement {
    /// This placement's index in its table.
    pub fn index(&self) -> usize {
        ((self.piece_sq as usize * 64 + self.wk as usize) * 64 + self.bk as usize) * 2
            + usize::from(self.stm == Color::Black)
    }

    /// The placement of index `i` in the table of `piece`.
    pub fn from_index(piece: Piece, i: usize) -> Self {
        Self {
            piece,
            piece_sq: Square::index(i / (64 * 64 * 2)),
            wk: Square::index(i / (64 * 2) % 64),
            bk: Square::index(i / 2 % 64),
            stm: if i % 2 == 0 { Color::White } else { Color::Black },
        }
    }

    /// The board, or `None` if the placement is not a legal position (squares shared, kings
    /// adjacent, a pawn on the first or last rank, the side not to move in check).
    pub fn board(&self) -> Option<Board> {
        let (p, w, b) = (self.piece_sq, self.wk, self.bk);
        let adjacent = (w as usize % 8).abs_diff(b as usize % 8) <= 1 && (w as usize / 8).abs_diff(b as usize / 8) <= 1;
        if p == w || p == b || adjacent {
            return None;
        }
        let mut builder = BoardBuilder::empty();
        *builder.square_mut(w) = Some((Piece::King, Color::White));
        *builder.square_mut(b) = Some((Piece::King, Color::Black));
        *builder.square_mut(p) = Some((self.piece, Color::White));
        builder.side_to_move = self.stm;
        builder.build().ok()
    }

    /// The placement of a board with exactly this material, if it has it.
    pub fn of_board(board: &Board) -> Option<Self> {
        let white = board.colors(Color::White);
        if board.colors(Color::Black).len() != 1 || white.len() != 2 {
            return None;
        }
        let piece_sq = (white & !board.pieces(Piece::King)).next_square()?;
        Some(Self {
            piece: board.piece_on(piece_sq)?,
            piece_sq,
            wk: board.king(Color::White),
            bk: board.king(Color::Black),
            stm: board.side_to_move(),
        })
    }
}

/// Where a move leads.
#[derive(Debug, Clone, Copy)]
enum Next {
    /// A position of the same table.
    Same(u32),
    /// A position of another table (a promotion), already valued.
    Valued(u8),
    /// A dead draw: the piece was captured, or it promoted to a minor piece.
    Draw,
}

/// The values of one table.
#[derive(Debug, Clone)]
pub struct Table {
    /// White's extra piece.
    pub piece: Piece,
    /// Plies to mate (White mates), [`DRAW`] or [`ILLEGAL`], by [`Placement::index`].
    pub values: Vec<u8>,
}

impl Table {
    /// The value of a placement.
    pub fn value(&self, p: &Placement) -> u8 {
        self.values[p.index()]
    }

    /// The longest mate in the table with `stm` to move, in plies.
    pub fn longest_mate(&self, stm: Color) -> Option<u8> {
        let to_move = usize::from(stm == Color::Black);
        self.values.iter().enumerate().filter(|(i, v)| i % 2 == to_move && **v < DRAW).map(|(_, v)| *v).max()
    }

    /// Builds the table of `piece`; pawns need the queen and rook tables for promotions.
    pub fn build(piece: Piece, promotions: &[&Table]) -> Self {
        let moves: Vec<Option<Vec<Next>>> = (0..SIZE)
            .into_par_iter()
            .map(|i| successors(&Placement::from_index(piece, i), promotions))
            .collect();
        let mut values: Vec<u8> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| match m {
                None => ILLEGAL,
                Some(next) if next.is_empty() => terminal(piece, i),
                Some(_) => UNKNOWN,
            })
            .collect();
        resolve(&mut values, &moves);
        Self { piece, values }
    }
}

/// Mate (0 plies) or stalemate for a position without legal moves.
fn terminal(piece: Piece, i: usize) -> u8 {
    let board = Placement::from_index(piece, i).board().expect("legal");
    if board.side_to_move() == Color::Black && !board.checkers().is_empty() { 0 } else { DRAW }
}

fn successors(p: &Placement, promotions: &[&Table]) -> Option<Vec<Next>> {
    let board = p.board()?;
    let mut next = Vec::new();
    board.generate_moves(|moves| {
        next.extend(moves.into_iter().map(|mv| follow(p, &board, mv, promotions)));
        false
    });
    Some(next)
}

fn follow(p: &Placement, board: &Board, mv: Move, promotions: &[&Table]) -> Next {
    let mut after = board.clone();
    after.play_unchecked(mv);
    let Some(q) = Placement::of_board(&after) else { return Next::Draw };
    if q.piece == p.piece {
        return Next::Same(q.index() as u32);
    }
    promotions
        .iter()
        .find(|t| t.piece == q.piece)
        .map_or(Next::Draw, |t| Next::Valued(t.value(&q)))
}

/// Assigns distances level by level: a White position is mate in L if some move reaches a mate in
/// L − 1; a Black one if every move reaches a mate in at most L − 1 and one in exactly L − 1.
/// Whatever is left when no level changes anything (and no promotion can still apply) is a draw.
fn resolve(values: &mut [u8], moves: &[Option<Vec<Next>>]) {
    let value = |values: &[u8], n: &Next| match *n {
        Next::Same(j) => values[j as usize],
        Next::Valued(v) => v,
        Next::Draw => DRAW,
    };
    let longest_promotion = moves.iter().flatten().flatten().filter_map(|n| match n {
        Next::Valued(v) if *v < UNKNOWN => Some(*v),
        _ => None,
    });
    let horizon = longest_promotion.max().unwrap_or(0);
    let mut last_change = 0u8;
    let mut level = 1u8;
    while level <= horizon.saturating_add(1).max(last_change).saturating_add(2) && level < UNKNOWN {
        let white_moves = level % 2 == 1;
        let found: Vec<usize> = (0..values.len())
            .into_par_iter()
            .filter(|&i| values[i] == UNKNOWN && (i % 2 == 0) == white_moves)
            .filter(|&i| {
                let next = moves[i].as_ref().expect("legal");
                let mut vs = next.iter().map(|n| value(values, n));
                if white_moves {
                    vs.any(|v| v == level - 1)
                } else {
                    let vs: Vec<u8> = vs.collect();
                    vs.iter().all(|&v| v < level) && vs.contains(&(level - 1))
                }
            })
            .collect();
        if !found.is_empty() {
            last_change = level;
        }
        for i in found {
            values[i] = level;
        }
        level += 1;
    }
    for v in values.iter_mut().filter(|v| **v == UNKNOWN) {
        *v = DRAW;
    }
}

/// The three tables KPK needs, built in order.
pub struct Tables {
    /// KQK.
    pub queen: Table,
    /// KRK.
    pub rook: Table,
    /// KPK.
    pub pawn: Table,
}

impl Tables {
    /// Builds KQK, KRK and then KPK.
    pub fn build() -> Self {
        let queen = Table::build(Piece::Queen, &[]);
        let rook = Table::build(Piece::Rook, &[]);
        let pawn = Table::build(Piece::Pawn, &[&queen, &rook]);
        Self { queen, rook, pawn }
    }
}

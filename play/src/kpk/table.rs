//! Retrograde analysis of king + one piece against a lone king (KQK, KRK, and KPK on top of them):
//! the exact value of every position, both sides to move, as the number of plies to mate for the
//! stronger side (White) or a draw. Built level by level, so every distance is exact.

use cozy_chess::{Board, BoardBuilder, Color, Move, Piece, Rank, Square};
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
            stm: if i.is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            },
        }
    }

    /// The board, or `None` if the placement is not a legal position (squares shared, kings
    /// adjacent, a pawn on the first or last rank, the side not to move in check).
    pub fn board(&self) -> Option<Board> {
        let (p, w, b) = (self.piece_sq, self.wk, self.bk);
        let adjacent = (w as usize % 8).abs_diff(b as usize % 8) <= 1
            && (w as usize / 8).abs_diff(b as usize / 8) <= 1;
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

    /// The placement of a board with exactly this material (White with the piece), if it has it.
    pub fn of_board(board: &Board) -> Option<Self> {
        Self::of_side(board, Color::White)
    }

    /// The placement of a board where either side has king and piece against a lone king, as
    /// the tables see it — a board where Black has the piece mirrored top to bottom with the
    /// colours swapped — and the side with the piece.
    pub fn of_either_side(board: &Board) -> Option<(Self, Color)> {
        [Color::White, Color::Black]
            .into_iter()
            .find_map(|strong| Self::of_side(board, strong).map(|p| (p, strong)))
    }

    /// The placement with `strong` holding the piece, mirrored when that is Black.
    fn of_side(board: &Board, strong: Color) -> Option<Self> {
        let own = board.colors(strong);
        if board.colors(!strong).len() != 1 || own.len() != 2 {
            return None;
        }
        let flip = |sq: Square| match strong {
            Color::White => sq,
            Color::Black => sq.flip_rank(),
        };
        let piece_sq = (own & !board.pieces(Piece::King)).next_square()?;
        Some(Self {
            piece: board.piece_on(piece_sq)?,
            piece_sq: flip(piece_sq),
            wk: flip(board.king(strong)),
            bk: flip(board.king(!strong)),
            stm: if board.side_to_move() == strong {
                Color::White
            } else {
                Color::Black
            },
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
        self.values
            .iter()
            .enumerate()
            .filter(|(i, v)| i % 2 == to_move && **v < DRAW)
            .map(|(_, v)| *v)
            .max()
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
    if board.side_to_move() == Color::Black && !board.checkers().is_empty() {
        0
    } else {
        DRAW
    }
}

fn successors(p: &Placement, promotions: &[&Table]) -> Option<Vec<Next>> {
    if p.piece == Piece::Pawn && matches!(p.piece_sq.rank(), Rank::First | Rank::Eighth) {
        return None;
    }
    let board = p.board()?;
    let mut next = Vec::new();
    board.generate_moves(|moves| {
        next.extend(moves.into_iter().map(|mv| follow(p, mv, promotions)));
        false
    });
    Some(next)
}

/// The placement a legal move leads to, worked out from the move itself (cheaper than playing
/// it on a board: the table makes some twenty million of them).
fn follow(p: &Placement, mv: Move, promotions: &[&Table]) -> Next {
    let mut q = Placement { stm: !p.stm, ..*p };
    match p.stm {
        Color::Black if mv.to == p.piece_sq => return Next::Draw,
        Color::Black => q.bk = mv.to,
        Color::White if mv.from == p.wk => q.wk = mv.to,
        Color::White => {
            q.piece_sq = mv.to;
            q.piece = mv.promotion.unwrap_or(p.piece);
        }
    }
    if q.piece == p.piece {
        return Next::Same(q.index() as u32);
    }
    promotions
        .iter()
        .find(|t| t.piece == q.piece)
        .map_or(Next::Draw, |t| Next::Valued(t.value(&q)))
}

/// Assigns distances level by level, by counting (classic retrograde analysis): when a position
/// is found to be mate in L − 1, each predecessor is visited once. A White predecessor is then mate
/// in L (the first level that reaches it is its shortest mate); a Black one is mate in L when this
/// was the last of its moves to be resolved and none of them draws. Whatever is never reached is
/// a draw.
fn resolve(values: &mut [u8], moves: &[Option<Vec<Next>>]) {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); values.len()];
    let mut remaining = vec![0u32; values.len()];
    let mut via_promotion: Vec<Vec<u32>> = vec![Vec::new(); UNKNOWN as usize];
    let mut frontier: Vec<u32> = Vec::new();
    for (i, next) in moves.iter().enumerate() {
        let Some(next) = next else { continue };
        if values[i] == 0 {
            frontier.push(i as u32);
        }
        let draws = next
            .iter()
            .any(|n| matches!(n, Next::Draw | Next::Valued(DRAW)));
        // A Black position with a drawing move is never resolved: its counter never reaches zero.
        remaining[i] = next.len() as u32 + u32::from(draws);
        for n in next {
            match *n {
                Next::Same(j) => preds[j as usize].push(i as u32),
                Next::Valued(v) if v < UNKNOWN => via_promotion[v as usize].push(i as u32),
                _ => {}
            }
        }
    }
    let mut level = 0u8;
    while level < UNKNOWN - 1
        && (!frontier.is_empty()
            || via_promotion[level as usize..]
                .iter()
                .any(|b| !b.is_empty()))
    {
        level += 1;
        let reached = frontier
            .iter()
            .flat_map(|&j| &preds[j as usize])
            .chain(&via_promotion[level as usize - 1]);
        let mut next_frontier = Vec::new();
        for &i in reached {
            let i = i as usize;
            if values[i] != UNKNOWN {
                continue;
            }
            let white = i.is_multiple_of(2);
            remaining[i] -= 1;
            if white || remaining[i] == 0 {
                values[i] = level;
                next_frontier.push(i as u32);
            }
        }
        frontier = next_frontier;
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

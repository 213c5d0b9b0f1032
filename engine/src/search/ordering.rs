//! Move ordering (Fischerle section 3). Every scheme shares one mechanism: each legal move gets a
//! small key while it is generated, a counting sort puts the keys in order (no general sort), and
//! the search order is then TT move → killers → countermove → preferred keys → history moves →
//! continuation-history moves → the rest, each move once. The scheme only decides the key.
//!
//! Fischerle's keys are its 14 buckets (here split a little finer, same order):
//!
//! | key | bucket | moves |
//! |---|---|---|
//! | 0–3 | 1 | promotions: capturing before non-capturing, queen before the under-promotions |
//! | 4–7 | 2–5 | advantageous captures by pawn, minor, rook, queen |
//! | 8 | 6 | king captures |
//! | 9 | 7 | en passant |
//! | 10–13 | 8 | neutral captures by pawn, minor, rook, queen |
//! | 14 | 9 | castling |
//! | 15 | 10 | quiet piece moves (not king, not pawn) |
//! | 16 | 11 | pawn double steps |
//! | 17 | 12 | pawn single steps |
//! | 18 | 13 | quiet king moves |
//! | 19–22 | 14 | disadvantageous captures by pawn, minor, rook, queen |
//!
//! Keys 0–13 (buckets 1–8) are the *preferred* moves.

use cozy_chess::{Board, Move, Piece};

use crate::board::is_castling;
use crate::config::{OrderingScheme, SearchConfig};
use crate::search::classify::{classify, victim, CaptureClass};
use crate::search::continuation::{ContinuationTable, Previous};
use crate::search::history::HistoryTable;
use crate::search::stats::SearchStats;

const KEYS: usize = 32;

/// Why a move stands where it does in the order (for statistics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The transposition table's move.
    TtMove,
    /// A killer move.
    Killer,
    /// The stored refutation of the previous move (countermove heuristic).
    Countermove,
    /// A quiet move moved up by the history heuristic.
    History,
    /// A quiet move moved up by continuation history.
    Continuation,
    /// Placed by the scheme's key.
    Scheme,
}

/// A move and why it stands where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderedMove {
    /// The move.
    pub mv: Move,
    /// Why it is here.
    pub source: Source,
}

/// A node's moves in search order. The searcher keeps one per ply and reuses it, so a node
/// neither allocates nor initialises a large array.
#[derive(Debug, Clone, Default)]
pub struct MoveList {
    moves: Vec<OrderedMove>,
    /// The quiet moves a move picker has not scored yet: in generation order until the search
    /// reaches the first of them (`picker` only).
    unscored: Option<std::ops::Range<usize>>,
}

impl MoveList {
    pub(super) fn push(&mut self, mv: Move, source: Source) {
        self.moves.push(OrderedMove { mv, source });
    }

    pub(super) fn clear(&mut self) {
        self.moves.clear();
        self.unscored = None;
    }

    /// Where the quiet moves a move picker has not scored yet start, if any are left.
    pub(super) fn unscored_from(&self) -> Option<usize> {
        self.unscored.as_ref().map(|r| r.start)
    }

    /// Marks `range` as quiet moves not scored yet (an empty range marks nothing).
    pub(super) fn set_unscored(&mut self, range: std::ops::Range<usize>) {
        self.unscored = (!range.is_empty()).then_some(range);
    }

    /// Takes the range of the quiet moves not scored yet, which the caller then scores.
    pub(super) fn take_unscored(&mut self) -> Option<std::ops::Range<usize>> {
        self.unscored.take()
    }

    pub(super) fn as_mut_slice(&mut self) -> &mut [OrderedMove] {
        &mut self.moves
    }

    /// The moves in search order.
    pub fn as_slice(&self) -> &[OrderedMove] {
        &self.moves
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Takes `mv` out of the list, if it is there: a singular verification searches the node
    /// without its TT move.
    pub(super) fn exclude(&mut self, mv: Move) {
        let Some(at) = self.moves.iter().position(|m| m.mv == mv) else {
            return;
        };
        self.moves.remove(at);
        if let Some(range) = self.unscored.take() {
            let shift = |i: usize| if at < i { i - 1 } else { i };
            self.set_unscored(shift(range.start)..shift(range.end));
        }
    }

    /// Keeps only the moves in `allowed` (all when it is empty or names none of them), in order.
    pub fn restrict_to(&mut self, allowed: &[Move]) {
        debug_assert!(
            self.unscored.is_none(),
            "restricting a list not fully ordered"
        );
        if self.moves.iter().any(|m| allowed.contains(&m.mv)) {
            self.moves.retain(|m| allowed.contains(&m.mv));
        }
    }
}

/// Lists up to this long are sorted by insertion.
const SMALL: usize = 12;

/// Reused buffers for generating and sorting moves (one per searcher).
#[derive(Debug, Default)]
pub struct Scratch {
    keyed: Vec<(Move, u8)>,
    sorted: Vec<(Move, u8)>,
    ranks: Vec<i64>,
}

impl Scratch {
    /// A reused buffer of move scores (the staged order's).
    pub(super) fn scores(&mut self) -> &mut Vec<i64> {
        &mut self.ranks
    }

    /// Forgets the last node's moves.
    pub(super) fn start(&mut self) {
        self.keyed.clear();
    }

    /// A generated move and its key.
    pub(super) fn push(&mut self, mv: Move, key: u8) {
        self.keyed.push((mv, key));
    }

    /// Stable sort of the generated moves by key, generation order kept within a key: counting
    /// sort, O(n), except for the few moves of most QS nodes, where an insertion sort (same
    /// order) costs less than clearing the key counts.
    pub(super) fn stable_sort(&mut self) -> &[(Move, u8)] {
        if self.keyed.len() <= SMALL {
            let keyed = &mut self.keyed;
            for i in 1..keyed.len() {
                let item = keyed[i];
                let mut j = i;
                while j > 0 && keyed[j - 1].1 > item.1 {
                    keyed[j] = keyed[j - 1];
                    j -= 1;
                }
                keyed[j] = item;
            }
            return keyed;
        }
        let mut start = [0usize; KEYS + 1];
        for &(_, key) in &self.keyed {
            start[key as usize + 1] += 1;
        }
        for k in 1..=KEYS {
            start[k] += start[k - 1];
        }
        // Same length as the input; every slot is overwritten below.
        self.sorted.clone_from(&self.keyed);
        for &(mv, key) in &self.keyed {
            self.sorted[start[key as usize]] = (mv, key);
            start[key as usize] += 1;
        }
        &self.sorted
    }
}

/// What the search knows that the generator does not.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hints<'a> {
    /// The TT move (tried first if legal).
    pub tt_move: Option<Move>,
    /// Killer moves for this node's slot (tried next if legal and quiet).
    pub killers: &'a [Option<Move>],
    /// The countermove of the previous move (tried after the killers if legal and quiet).
    pub countermove: Option<Move>,
    /// History table and how many of its best quiet moves to move up.
    pub history: Option<(&'a HistoryTable, usize)>,
    /// Continuation-history table, the previous move, and how many of its best quiet moves to
    /// move up (after the history moves).
    pub continuation: Option<(&'a ContinuationTable, Previous, usize)>,
    /// The move two plies back, read in the continuation table too (`continuation_history.plies
    /// = 2`, the staged order only).
    pub follow_up: Option<Previous>,
}

/// Keys at or below this are the preferred moves of the scheme.
fn last_preferred_key(scheme: OrderingScheme) -> Option<u8> {
    match scheme {
        OrderingScheme::Fischerle => Some(13),
        OrderingScheme::MvvLva | OrderingScheme::Staged | OrderingScheme::Picker => {
            Some(MVV_LVA_QUIET - 1)
        }
        OrderingScheme::None => None,
    }
}

/// All legal moves of a main-search node under a bucket scheme (`fischerle`, `mvv_lva`, `none`), in
/// search order, into `out`; the staged order is `staged::order_staged`.
pub fn order_moves(
    board: &Board,
    config: &SearchConfig,
    hints: Hints,
    stats: &mut SearchStats,
    scratch: &mut Scratch,
    out: &mut MoveList,
) {
    scratch.start();
    board.generate_moves(|pm| {
        for mv in pm {
            scratch.push(mv, main_key(board, mv, pm.piece, config, stats));
        }
        false
    });
    let rest = assemble(board, scratch.stable_sort(), config.ordering, hints, out);
    if config.history.as_ref().is_some_and(|h| h.sort_all) {
        let score = |mv: Move| quiet_score(board, &hints, mv);
        sort_quiets(board, score, &mut out.moves[rest..], &mut scratch.ranks);
    }
}

/// A quiet move's history score plus its continuation-history score (each when on; the move two
/// plies back too where the hints carry it).
pub(super) fn quiet_score(board: &Board, hints: &Hints, mv: Move) -> i64 {
    let history = hints
        .history
        .map_or(0, |(t, _)| t.score(board.side_to_move(), mv));
    let continuation = match (hints.continuation, board.piece_on(mv.from)) {
        (Some((table, previous, _)), Some(piece)) => {
            let follow_up = hints
                .follow_up
                .map_or(0, |before| table.score(before, piece, mv));
            table.score(previous, piece, mv) + follow_up
        }
        _ => 0,
    };
    i64::from(history) + i64::from(continuation)
}

/// Sorts `moves` (the tail the scheme left in its own order) so that its quiet moves come first,
/// by `score`, best first, and the other moves after them; both keep their order on ties. An
/// insertion sort on reused buffers: a node's tail is short and allocating per node costs more.
fn sort_quiets(
    board: &Board,
    score: impl Fn(Move) -> i64,
    moves: &mut [OrderedMove],
    keys: &mut Vec<i64>,
) {
    keys.clear();
    keys.extend(moves.iter().map(|m| {
        if is_quiet(board, m.mv) {
            -score(m.mv)
        } else {
            i64::MAX
        }
    }));
    for i in 1..moves.len() {
        let (key, mv) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = mv;
    }
}

/// The moves placed ahead of their key (TT move, killers, history moves), each at most once, by
/// their index in the sorted list: a bit per index, so the passes over the list ask in O(1).
#[derive(Default)]
struct Picked {
    taken: [u64; 4],
    len: usize,
}

/// Most moves placed ahead of their key, all sources together: as many as one table may ask for.
const MOST_PICKED: usize = crate::config::MAX_PREFERRED_MOVES;

impl Picked {
    fn contains(&self, index: usize) -> bool {
        self.taken[index / 64] & (1 << (index % 64)) != 0
    }

    fn room(&self) -> usize {
        MOST_PICKED - self.len
    }

    fn add(&mut self, list: &mut MoveList, sorted: &[(Move, u8)], index: usize, source: Source) {
        list.push(sorted[index].0, source);
        self.taken[index / 64] |= 1 << (index % 64);
        self.len += 1;
    }
}

/// Puts the sorted moves in search order: TT move, killers, preferred, history, rest. Returns
/// where the rest starts in `list`.
pub(super) fn assemble(
    board: &Board,
    sorted: &[(Move, u8)],
    scheme: OrderingScheme,
    hints: Hints,
    list: &mut MoveList,
) -> usize {
    list.clear();
    // The preferred keys are the lowest, so the preferred moves are a prefix of the sorted list.
    let last = last_preferred_key(scheme);
    let split = || sorted.partition_point(|&(_, key)| last.is_some_and(|last| key <= last));
    if hints.tt_move.is_none()
        && hints.killers.is_empty()
        && hints.countermove.is_none()
        && hints.history.is_none()
        && hints.continuation.is_none()
    {
        // Nothing to place ahead (every QS node): preferred keys come first in the sorted order
        // anyway, so the search order is the sorted order.
        list.moves.extend(sorted.iter().map(|&(mv, _)| OrderedMove {
            mv,
            source: Source::Scheme,
        }));
        // Only `history.sort_all` reads where the rest starts, and it implies history hints.
        return sorted.len();
    }
    let split = split();
    let mut picked = Picked::default();
    let index_of = |mv: Move| sorted.iter().position(|&(m, _)| m == mv);
    if let Some(i) = hints.tt_move.and_then(index_of) {
        picked.add(list, sorted, i, Source::TtMove);
    }
    for mv in hints.killers.iter().flatten().copied() {
        if picked.room() == 0 {
            break;
        }
        if let Some(i) = index_of(mv).filter(|&i| !picked.contains(i) && is_quiet(board, mv)) {
            picked.add(list, sorted, i, Source::Killer);
        }
    }
    if let Some(mv) = hints.countermove.filter(|_| picked.room() > 0) {
        if let Some(i) = index_of(mv).filter(|&i| !picked.contains(i) && is_quiet(board, mv)) {
            picked.add(list, sorted, i, Source::Countermove);
        }
    }
    for (i, &(mv, _)) in sorted[..split].iter().enumerate() {
        if !picked.contains(i) {
            list.push(mv, Source::Scheme);
        }
    }
    if let Some((table, count)) = hints.history {
        // Quiet moves never have a preferred key: only the rest can be history moves.
        let color = board.side_to_move();
        let score = |mv: Move| table.score(color, mv);
        let best = best_quiet_moves(board, (sorted, split), score, count, &picked);
        for &(_, i) in best.as_slice() {
            picked.add(list, sorted, i, Source::History);
        }
    }
    if let Some((table, previous, count)) = hints.continuation {
        let score = |mv: Move| match board.piece_on(mv.from) {
            Some(piece) => table.score(previous, piece, mv),
            None => 0,
        };
        let best = best_quiet_moves(board, (sorted, split), score, count, &picked);
        for &(_, i) in best.as_slice() {
            picked.add(list, sorted, i, Source::Continuation);
        }
    }
    let rest = list.len();
    for (i, &(mv, _)) in sorted.iter().enumerate().skip(split) {
        if !picked.contains(i) {
            list.push(mv, Source::Scheme);
        }
    }
    rest
}

/// At most 8 (score, index into the sorted list) pairs, best first, on the stack.
struct Best {
    items: [(i32, usize); MOST_PICKED],
    len: usize,
}

impl Best {
    fn as_slice(&self) -> &[(i32, usize)] {
        &self.items[..self.len]
    }

    /// Inserts in score order (ties keep generation order), keeping at most `count`.
    fn offer(&mut self, score: i32, index: usize, count: usize) {
        let at = self
            .as_slice()
            .iter()
            .position(|&(s, _)| score > s)
            .unwrap_or(self.len);
        if at >= count {
            return;
        }
        let end = self.len.min(count - 1);
        self.items.copy_within(at..end, at + 1);
        self.items[at] = (score, index);
        self.len = (self.len + 1).min(count);
    }
}

/// Up to `count` quiet moves from `sorted[from..]` with the best positive `score`, best first,
/// none already picked (and no more than `picked` has room for).
fn best_quiet_moves(
    board: &Board,
    (sorted, from): (&[(Move, u8)], usize),
    score: impl Fn(Move) -> i32,
    count: usize,
    picked: &Picked,
) -> Best {
    let mut best = Best {
        items: [(0, 0); MOST_PICKED],
        len: 0,
    };
    let count = count.min(picked.room());
    for (i, &(mv, _)) in sorted.iter().enumerate().skip(from) {
        let score = score(mv);
        if score > 0 && !picked.contains(i) && is_quiet(board, mv) {
            best.offer(score, i, count);
        }
    }
    best
}

/// Neither a capture nor a promotion (castling counts as quiet).
pub fn is_quiet(board: &Board, mv: Move) -> bool {
    mv.promotion.is_none() && victim(board, mv).is_none()
}

/// The key of a move of `piece` in the main search under the configured scheme.
pub(super) fn main_key(
    board: &Board,
    mv: Move,
    piece: Piece,
    config: &SearchConfig,
    stats: &mut SearchStats,
) -> u8 {
    match config.ordering {
        OrderingScheme::Fischerle => fischerle_key_of(board, mv, piece, victim(board, mv), |v| {
            classify(board, mv, v, config, stats)
        }),
        OrderingScheme::MvvLva | OrderingScheme::Staged | OrderingScheme::Picker => {
            mvv_lva_key(board, mv)
        }
        OrderingScheme::None => 0,
    }
}

/// Index of the capturer's group in buckets 2–5, 8 and 14: pawn, minor, rook, queen.
fn capturer_group(piece: Piece) -> u8 {
    match piece {
        Piece::Pawn => 0,
        Piece::Knight | Piece::Bishop => 1,
        Piece::Rook => 2,
        Piece::Queen | Piece::King => 3,
    }
}

/// The first key of bucket 8 (neutral captures, by pawn first).
pub(super) const NEUTRAL_PAWN_CAPTURE: u8 = 10;

/// Fischerle's bucket key; `class` classifies a capture of the given victim.
pub(super) fn fischerle_key(
    board: &Board,
    mv: Move,
    class: impl FnOnce(Piece) -> CaptureClass,
) -> u8 {
    let piece = board.piece_on(mv.from).expect("a move starts on a piece");
    fischerle_key_of(board, mv, piece, victim(board, mv), class)
}

/// [`fischerle_key`] when the moving piece and the victim are already known (QS generation knows
/// both), so they are not looked up again.
pub(super) fn fischerle_key_of(
    board: &Board,
    mv: Move,
    piece: Piece,
    captured: Option<Piece>,
    class: impl FnOnce(Piece) -> CaptureClass,
) -> u8 {
    if let Some(promotion) = mv.promotion {
        let under = u8::from(promotion != Piece::Queen);
        return if captured.is_some() { under } else { 2 + under };
    }
    // A pawn's capture onto an empty square is en passant (the victim says it captures).
    if piece == Piece::Pawn && captured.is_some() && !board.occupied().has(mv.to) {
        return 9;
    }
    if let Some(v) = captured {
        if piece == Piece::King {
            return 8;
        }
        let group = capturer_group(piece);
        return match class(v) {
            CaptureClass::Advantageous => 4 + group,
            CaptureClass::Neutral => NEUTRAL_PAWN_CAPTURE + group,
            CaptureClass::Disadvantageous => 19 + group,
        };
    }
    quiet_key(board, mv, piece)
}

fn quiet_key(board: &Board, mv: Move, piece: Piece) -> u8 {
    match piece {
        Piece::King if is_castling(board, mv) => 14,
        Piece::King => 18,
        Piece::Pawn if (mv.from.rank() as i8 - mv.to.rank() as i8).abs() == 2 => 16,
        Piece::Pawn => 17,
        _ => 15,
    }
}

/// The key all quiet moves share under MVV-LVA.
const MVV_LVA_QUIET: u8 = 31;

/// Promotions first, then captures by most valuable victim, least valuable attacker; quiets last.
pub(super) fn mvv_lva_key(board: &Board, mv: Move) -> u8 {
    if mv.promotion == Some(Piece::Queen) {
        return 0;
    }
    match victim(board, mv) {
        Some(v) => {
            let attacker = board.piece_on(mv.from).expect("a move starts on a piece") as u8;
            1 + (4 - v as u8) * 6 + attacker
        }
        None => MVV_LVA_QUIET,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{legal_moves, parse_fen, parse_uci_move, uci_move};
    use cozy_chess::Color;
    fn ordered(fen: &str, config: &SearchConfig, hints: Hints) -> Vec<String> {
        let b = parse_fen(fen).unwrap();
        let mut list = MoveList::default();
        order_moves(
            &b,
            config,
            hints,
            &mut SearchStats::default(),
            &mut Scratch::default(),
            &mut list,
        );
        list.as_slice().iter().map(|m| uci_move(&b, m.mv)).collect()
    }
    const BUSY: &str = "r3k2r/1P3ppp/8/3q4/2n1P3/1B6/P4PPP/R2QK2R w KQkq - 0 1";
    #[test]
    fn sort_all_puts_every_remaining_quiet_move_in_history_order() {
        let b = parse_fen(BUSY).unwrap();
        let mut table = HistoryTable::default();
        for (i, mv) in ["a2a3", "h2h3", "d1e2", "b3a4", "e1f1", "g2g4"]
            .iter()
            .enumerate()
        {
            let mv = parse_uci_move(&b, mv).unwrap();
            table.reward(Color::White, mv, 1 + i as i32);
        }
        let mut config = SearchConfig::fischerle();
        config.set("history.sort_all", "true").unwrap();
        let hints = Hints {
            history: Some((&table, 2)),
            ..Hints::default()
        };
        let got = ordered(BUSY, &config, hints);
        let mut sorted = got.clone();
        sorted.sort();
        let mut expected: Vec<String> = legal_moves(&b).iter().map(|&m| uci_move(&b, m)).collect();
        expected.sort();
        assert_eq!(sorted, expected, "every legal move once");
        // The two best are the history moves; the other four rewarded ones follow them at once,
        // best first, then the quiet moves without a score, then the losing captures.
        let at = |m: &str| got.iter().position(|g| g == m).unwrap();
        let order = ["g2g4", "e1f1", "b3a4", "d1e2", "h2h3", "a2a3"].map(at);
        assert!(order.windows(2).all(|w| w[1] == w[0] + 1), "{got:?}");
        let quiet_unscored = at("a1b1");
        assert!(quiet_unscored > order[5], "{got:?}");
        // Without the switch the four other rewarded moves stay in bucket order.
        let plain = ordered(BUSY, &SearchConfig::fischerle(), hints);
        assert_ne!(plain, got);
    }
    #[test]
    fn every_legal_move_appears_once_in_every_scheme() {
        let b = parse_fen(BUSY).unwrap();
        let mut expected: Vec<String> = legal_moves(&b).iter().map(|&m| uci_move(&b, m)).collect();
        expected.sort();
        for scheme in [
            OrderingScheme::Fischerle,
            OrderingScheme::MvvLva,
            OrderingScheme::None,
        ] {
            let config = SearchConfig {
                ordering: scheme,
                ..SearchConfig::fischerle()
            };
            let mut got = ordered(BUSY, &config, Hints::default());
            got.sort();
            assert_eq!(got, expected, "{scheme:?}");
        }
    }
    #[test]
    fn fischerle_buckets_come_in_the_page_order() {
        let got = ordered(BUSY, &SearchConfig::fischerle(), Hints::default());
        // Capturing promotions first, then quiet promotions, then the advantageous capture exd5
        // (pawn takes queen), then Bxc4 (minor takes a knight defended once: neutral).
        assert_eq!(&got[..4], &["b7a8q", "b7a8n", "b7a8b", "b7a8r"][..]);
        let pos = |m: &str| got.iter().position(|x| x == m).unwrap();
        assert!(pos("b7b8q") < pos("e4d5"));
        assert!(pos("e4d5") < pos("b3c4"));
        assert!(pos("b3c4") < pos("e1g1"));
        assert!(pos("e1g1") < pos("d1d2"));
        assert!(pos("d1d2") < pos("a2a4"));
        assert!(pos("a2a4") < pos("a2a3"));
        assert!(pos("a2a3") < pos("e1e2"));
    }
    #[test]
    fn tt_move_then_killers_lead() {
        let b = parse_fen(BUSY).unwrap();
        let tt = parse_uci_move(&b, "a2a3").unwrap();
        let killer = parse_uci_move(&b, "h2h3").unwrap();
        let killers = [Some(killer), None];
        let countermove = parse_uci_move(&b, "g2g3").unwrap();
        let got = ordered(
            BUSY,
            &SearchConfig::fischerle(),
            Hints {
                tt_move: Some(tt),
                killers: &killers,
                countermove: Some(countermove),
                history: None,
                follow_up: None,
                continuation: None,
            },
        );
        assert_eq!(&got[..3], &["a2a3", "h2h3", "g2g3"][..]);
    }
    #[test]
    fn a_countermove_that_is_a_capture_or_already_placed_stays_where_it_is() {
        let b = parse_fen(BUSY).unwrap();
        let killer = parse_uci_move(&b, "h2h3").unwrap();
        let plain = ordered(BUSY, &SearchConfig::fischerle(), Hints::default());
        let capture = plain
            .iter()
            .map(|m| parse_uci_move(&b, m).unwrap())
            .find(|&m| !is_quiet(&b, m))
            .unwrap();
        for countermove in [capture, killer] {
            let got = ordered(
                BUSY,
                &SearchConfig::fischerle(),
                Hints {
                    killers: &[Some(killer)],
                    countermove: Some(countermove),
                    ..Hints::default()
                },
            );
            let mut expected: Vec<String> = vec![uci_move(&b, killer)];
            expected.extend(
                plain
                    .iter()
                    .filter(|m| **m != uci_move(&b, killer))
                    .cloned(),
            );
            assert_eq!(got, expected);
        }
    }
    #[test]
    fn illegal_hints_are_ignored() {
        let bogus: Move = "h7h5".parse().unwrap();
        let got = ordered(
            BUSY,
            &SearchConfig::fischerle(),
            Hints {
                tt_move: Some(bogus),
                killers: &[Some(bogus)],
                countermove: Some(bogus),
                history: None,
                follow_up: None,
                continuation: None,
            },
        );
        assert!(!got.contains(&"h7h5".to_string()));
    }
}

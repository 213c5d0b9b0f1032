//! Quiescence search (Fischerle section 2). At level 0 it starts only if the side to move is in
//! check, has a potentially advantageous capture, or can promote; otherwise the static evaluation
//! is the score. In check all evasions are searched and there is no stand-pat. The level keeps
//! falling below 0 and `qsearch.min_level` bounds it. No killers or history here, and the TT
//! only with `qsearch.tt`.

use cozy_chess::{BitBoard, Board, Move, Piece, Rank, Square};

use crate::config::{OrderingScheme, Promotions, SearchConfig};
use crate::eval::Score;
use crate::search::classify::victim;
use crate::search::classify::{promotion_en_prise, worth_capturing, CaptureClass};
use crate::search::ordering::{
    assemble, fischerle_key, fischerle_key_of, main_key, mvv_lva_key, Hints, MoveList, Scratch,
    NEUTRAL_PAWN_CAPTURE,
};
use crate::search::record::{Action, Enter, Leave, NodeKind, Probe, Recorder};
use crate::search::score::{mated_in, DRAW, INFINITY};
use crate::search::see::see;
use crate::search::selective::Budget;
use crate::search::stats::SearchStats;
use crate::search::tt::{Bound, Entry};
use crate::search::{play, Searcher, MAX_PLY};

/// What the move loop of a QS node needs to know about the node.
#[derive(Clone, Copy)]
struct QsNode {
    level: i32,
    ply: usize,
    /// The horizon node, where the main search handed over.
    entry: bool,
    in_check: bool,
    /// The static evaluation when step 4 already made it.
    stand_pat: Option<Score>,
}

impl<R: Recorder> Searcher<R> {
    /// The QS node at `level` (≤ 0); `entry` marks the horizon node where the main search handed
    /// over (recorded as the main search's child, the others here).
    pub(crate) fn quiescence(
        &mut self,
        board: &Board,
        alpha: Score,
        beta: Score,
        level: i32,
        ply: usize,
        entry: bool,
    ) -> Score {
        if !R::ON || entry {
            return self.quiescence_node(board, alpha, beta, level, ply, entry);
        }
        self.recorder.enter(Enter {
            kind: NodeKind::Quiescence,
            edge: self.edge_to(ply),
            probe: Probe::Plain,
            ply,
            level,
            alpha,
            beta,
            expected_cut: false,
            budget: (0, 0),
            hash: board.hash(),
        });
        let value = self.quiescence_node(board, alpha, beta, level, ply, entry);
        self.recorder.leave(Leave { value });
        value
    }

    /// Steps 1 to 3a and 8 of a QS node (4 to 7 in `quiescence_moves`).
    fn quiescence_node(
        &mut self,
        board: &Board,
        alpha: Score,
        beta: Score,
        level: i32,
        ply: usize,
        entry: bool,
    ) -> Score {
        // Step 1. Count the node; stop when a limit is reached.
        self.visit(ply);
        self.stats.qnodes += 1;
        if self.clock.should_stop(self.stats.nodes) {
            return 0;
        }

        // Step 2. Draws by rule at the horizon node: its move may have repeated a position or
        // completed fifty moves, and the static evaluation would not see it. Deeper QS nodes follow
        // captures and promotions, which cannot repeat; only an unbroken series of quiet evasions
        // that each give check could, and QS keeps no path for it.
        if entry && self.is_draw(board) {
            return DRAW;
        }

        // Step 3. Depth bound (QSMinSuchLevel).
        if level <= self.config.qsearch.min_level || ply >= MAX_PLY - 1 {
            self.stats.qs_depth_cutoffs += 1;
            return self.static_eval(board, ply);
        }

        // Step 3a. With `qsearch.tt`, a stored score whose bound fits the window ends the node.
        let stored = self.qs_probe(board, ply);
        if let Some(score) = stored.and_then(|e| qs_tt_cutoff(e, alpha, beta)) {
            self.stats.qs_tt_cutoffs += 1;
            self.record(Action::TtCutoff);
            return score;
        }
        let score = self.quiescence_moves(board, alpha, beta, level, ply, entry);
        // Step 8. With `qsearch.tt`, the result at level 0, where no deeper entry is kept.
        if stored.is_none_or(|e| e.level <= 0) {
            self.qs_store(board, ply, (alpha, beta), score);
        }
        score
    }

    /// Steps 4 to 7 of a QS node.
    fn quiescence_moves(
        &mut self,
        board: &Board,
        alpha: Score,
        beta: Score,
        level: i32,
        ply: usize,
        entry: bool,
    ) -> Score {
        // Step 4. Stand pat ahead of the moves: outside check, a static evaluation that reaches
        // beta ends the node before its moves are ordered. The horizon node still learns why QS
        // starts there, from the first move that says so. The tree and the counts are the same as
        // testing it after ordering; only the work is saved.
        let in_check = !board.checkers().is_empty();
        let lazy = (!in_check).then(|| self.lazy_stand_pat(board, ply, beta));
        let stand_pat = match lazy.flatten() {
            Some(cheap) => Some(cheap),
            None => (!in_check).then(|| self.static_eval(board, ply)),
        };
        if let Some(score) = stand_pat.filter(|&s| s >= beta) {
            self.record(Action::StandPat);
            if entry {
                let start = qsearch_start(board, &self.config, &mut self.stats);
                self.count_entry(start);
            }
            return score;
        }

        // Step 5. The moves QS looks at; in check, no evasion is mate.
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        let legal = qsearch_moves(
            board,
            in_check,
            &self.config,
            &mut self.stats,
            &mut self.scratch,
            &mut moves,
        );
        let score = if in_check && moves.is_empty() {
            // Mate, or evasions that are all promotions outside the QS subset: with nothing it
            // may search, the node can only give the static evaluation.
            if legal == 0 {
                mated_in(ply)
            } else {
                self.static_eval(board, ply)
            }
        } else {
            let node = QsNode {
                level,
                ply,
                entry,
                in_check,
                stand_pat,
            };
            self.search_qs_moves(board, alpha, beta, node, &moves)
        };
        self.stack[ply].moves = moves;
        score
    }

    /// Steps 6–7 of a QS node over its generated moves.
    fn search_qs_moves(
        &mut self,
        board: &Board,
        mut alpha: Score,
        beta: Score,
        node: QsNode,
        moves: &MoveList,
    ) -> Score {
        let QsNode {
            level,
            ply,
            entry,
            in_check,
            stand_pat,
        } = node;
        if entry {
            let start = if in_check {
                Start::Check
            } else {
                start_of(board, moves)
            };
            if !self.count_entry(start) {
                return self.static_eval(board, ply);
            }
        }

        // Step 6. Stand pat: outside check the side to move may decline every capture.
        let mut best = -INFINITY;
        if !in_check {
            best = stand_pat.unwrap_or_else(|| self.static_eval(board, ply));
            if best >= beta {
                self.record(Action::StandPat);
                return best;
            }
            alpha = alpha.max(best);
        }

        // Step 7. Search the captures, promotions or evasions.
        let static_eval = best;
        for (rank, ordered) in moves.as_slice().iter().enumerate() {
            if !in_check
                && (self.delta_prunes(board, ordered.mv, static_eval, alpha)
                    || self.see_prunes(board, ordered.mv))
            {
                continue;
            }
            // The child's TT slot starts loading while its frame is worked out.
            let child = play(board, ordered.mv);
            if self.config.qsearch.tt {
                self.prefetch_tt(child.hash());
            }
            self.enter(board, ordered.mv, ply, &child);
            let score = -self.quiescence(&child, -beta, -alpha, level - 1, ply + 1, false);
            if self.clock.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                self.record(Action::Best(ordered.mv));
            }
            if score > alpha {
                alpha = score;
                self.pv.update(ply, ordered.mv);
            }
            if score >= beta {
                self.record(Action::Cutoff {
                    mv: ordered.mv,
                    rank,
                });
                break;
            }
        }
        best
    }

    /// The TT entry of the QS node, with `qsearch.tt`.
    fn qs_probe(&mut self, board: &Board, ply: usize) -> Option<Entry> {
        if !self.config.qsearch.tt {
            return None;
        }
        self.probe_tt(board.hash(), ply)
    }

    /// Stores a QS node's `score` at level 0, its bound from the `window` it was entered with,
    /// with `qsearch.tt` (a stopped search's score is not a result and is not stored).
    fn qs_store(&mut self, board: &Board, ply: usize, window: (Score, Score), score: Score) {
        if !self.config.qsearch.tt || self.clock.stopped() {
            return;
        }
        let Some(tt) = self.tt.as_mut() else { return };
        let entry = Entry {
            mv: None,
            score,
            level: 0,
            bound: Bound::of(score, window.0, window.1),
            budget: Budget {
                dyn_left: 0,
                triv_left: 0,
            },
        };
        tt.store(board.hash(), ply, entry);
    }

    /// Lazy evaluation (`lazy_eval`): the evaluation's cheap part, when it clears beta by the
    /// margin and the node's full evaluation is not known yet, fails the stand pat high without
    /// the piece terms. A KPK verdict is exact, so it is never bypassed; a network has no cheap
    /// part, so it never acts with `nnue` on.
    fn lazy_stand_pat(&mut self, board: &Board, ply: usize, beta: Score) -> Option<Score> {
        let margin = self.config.lazy_eval.as_ref()?.margin;
        if self.stack[ply].static_eval.is_some()
            || self.network.is_some()
            || self.config.kpk.score(board).is_some()
        {
            return None;
        }
        let cheap = self
            .evaluator
            .evaluate_cheap(board, self.stack[ply].placement);
        if cheap - margin < beta {
            return None;
        }
        self.stats.lazy_cutoffs += 1;
        Some(cheap)
    }

    /// Delta pruning: a capture that could not lift the stand-pat score above alpha even with
    /// the margin is not searched (promotions always are).
    fn delta_prunes(&mut self, board: &Board, mv: Move, stand_pat: Score, alpha: Score) -> bool {
        let Some(margin) = self.config.qsearch.delta else {
            return false;
        };
        let gain = victim(board, mv).map_or(0, crate::eval::piece_value);
        let futile = mv.promotion.is_none() && stand_pat + gain + margin <= alpha;
        self.stats.delta_prunes += u64::from(futile);
        if futile {
            self.record(Action::DeltaPrune(mv));
        }
        futile
    }

    /// SEE pruning: a capture (not a promotion) whose static exchange loses more than the
    /// margin is not searched.
    fn see_prunes(&mut self, board: &Board, mv: Move) -> bool {
        let Some(margin) = self.config.qsearch.see_prune else {
            return false;
        };
        if mv.promotion.is_some() {
            return false;
        }
        self.stats.see_calls += 1;
        let losing = see(board, mv) < -margin;
        self.stats.qs_see_prunes += u64::from(losing);
        if losing {
            self.record(Action::SeePrune(mv));
        }
        losing
    }

    /// Records why QS starts at the horizon; `false` when none of the three cases holds.
    fn count_entry(&mut self, start: Start) -> bool {
        let counter = match start {
            Start::Check => &mut self.stats.qs_entries_check,
            Start::Capture => &mut self.stats.qs_entries_capture,
            Start::Promotion => &mut self.stats.qs_entries_promotion,
            Start::Nothing => &mut self.stats.qs_skipped,
        };
        *counter += 1;
        start != Start::Nothing
    }
}

/// A stored score that answers a QS node with window (`alpha`, `beta`): any level does, the
/// node being at or below level 0.
fn qs_tt_cutoff(entry: Entry, alpha: Score, beta: Score) -> Option<Score> {
    entry.fits(alpha, beta).then_some(entry.score)
}

/// Why QS starts at the horizon node (Fischerle section 2), or that it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// The side to move is in check.
    Check,
    /// It has a potentially advantageous capture (a capturing promotion counts as a promotion).
    Capture,
    /// It can promote (to a piece of the configured subset).
    Promotion,
    /// None of the three: the static evaluation is the score.
    Nothing,
}

/// Why QS starts, from the moves it generated outside check.
fn start_of(board: &Board, moves: &MoveList) -> Start {
    if moves
        .as_slice()
        .iter()
        .any(|m| m.mv.promotion.is_none() && victim(board, m.mv).is_some())
    {
        Start::Capture
    } else if moves.is_empty() {
        Start::Nothing
    } else {
        Start::Promotion
    }
}

/// Why QS starts outside check, without ordering the moves: generation stops at the first
/// capture that passes the filter. Every capture's filter is still asked with `see` on, so that
/// the SEE count is the one a full generation makes.
fn qsearch_start(board: &Board, config: &SearchConfig, stats: &mut SearchStats) -> Start {
    let targets = qsearch_targets(board);
    let mut start = Start::Nothing;
    board.generate_moves(|mut pm| {
        pm.to &= if pm.piece == Piece::Pawn {
            targets.pawn
        } else {
            targets.piece
        };
        for mv in pm {
            if qs_searches(board, mv, victim(board, mv), config, stats) {
                if mv.promotion.is_some() {
                    start = start.max_with(Start::Promotion);
                } else {
                    start = Start::Capture;
                    if !config.see {
                        return true;
                    }
                }
            }
        }
        false
    });
    start
}

impl Start {
    /// `other` unless a capture was already found.
    fn max_with(self, other: Start) -> Start {
        if self == Start::Capture {
            self
        } else {
            other
        }
    }
}

/// The moves of a QS node, in order, into `out`: all evasions when in check; otherwise the
/// captures the filter lets through. Promotions follow the configured subset in both cases (a
/// capturing promotion counts as a promotion). QS ordering is rudimentary: no TT, killer or
/// history moves; captures all count as advantageous except while evading check; a promotion is
/// advantageous, or neutral when the new piece stands en prise (seed 003).
///
/// Returns the number of legal moves the node has before the promotion subset is applied: in
/// check, zero is mate, while evasions that are all excluded promotions are not.
pub fn qsearch_moves(
    board: &Board,
    in_check: bool,
    config: &SearchConfig,
    stats: &mut SearchStats,
    scratch: &mut Scratch,
    out: &mut MoveList,
) -> usize {
    scratch.start();
    let mut legal = 0;
    if in_check {
        board.generate_moves(|pm| {
            for mv in pm {
                legal += 1;
                if mv
                    .promotion
                    .is_none_or(|p| promotion_allowed(config.qsearch.promotions, p))
                {
                    scratch.push(mv, qsearch_evasion_key(board, mv, pm.piece, config, stats));
                }
            }
            false
        });
    } else {
        let targets = qsearch_targets(board);
        board.generate_moves(|mut pm| {
            pm.to &= if pm.piece == Piece::Pawn {
                targets.pawn
            } else {
                targets.piece
            };
            for mv in pm {
                if let Some(key) = qsearch_key(board, mv, pm.piece, config, stats) {
                    scratch.push(mv, key);
                }
            }
            false
        });
    }
    assemble(
        board,
        scratch.stable_sort(),
        config.ordering,
        Hints::default(),
        out,
    );
    legal
}

/// An evasion's key: the main search's, except that a promotion is neutral when the new piece
/// stands en prise.
fn qsearch_evasion_key(
    board: &Board,
    mv: Move,
    piece: Piece,
    config: &SearchConfig,
    stats: &mut SearchStats,
) -> u8 {
    if mv.promotion.is_some() && config.ordering == OrderingScheme::Fischerle {
        return promotion_key(board, mv, config);
    }
    main_key(board, mv, piece, config, stats)
}

/// Fischerle's QS key of a promotion: bucket 1 when advantageous, the pawn's neutral key (bucket 8)
/// when the new piece stands en prise.
fn promotion_key(board: &Board, mv: Move, config: &SearchConfig) -> u8 {
    if promotion_en_prise(board, mv, config.see) {
        NEUTRAL_PAWN_CAPTURE
    } else {
        fischerle_key(board, mv, |_| CaptureClass::Advantageous)
    }
}

/// The squares QS moves can go to, for pawns and for other pieces.
struct Targets {
    pawn: BitBoard,
    piece: BitBoard,
}

fn qsearch_targets(board: &Board) -> Targets {
    let enemy = board.colors(!board.side_to_move());
    let last_rank = Rank::Eighth.relative_to(board.side_to_move()).bitboard();
    let ep = board.en_passant().map_or(BitBoard::EMPTY, |file| {
        Square::new(file, Rank::Sixth.relative_to(board.side_to_move())).bitboard()
    });
    Targets {
        pawn: enemy | last_rank | ep,
        piece: enemy,
    }
}

/// The QS key of a move outside check, or `None` if QS does not search it.
fn qsearch_key(
    board: &Board,
    mv: Move,
    piece: Piece,
    config: &SearchConfig,
    stats: &mut SearchStats,
) -> Option<u8> {
    let captured = victim(board, mv);
    if !qs_searches(board, mv, captured, config, stats) {
        return None;
    }
    Some(match config.ordering {
        OrderingScheme::Fischerle if mv.promotion.is_some() => promotion_key(board, mv, config),
        OrderingScheme::Fischerle => {
            fischerle_key_of(board, mv, piece, captured, |_| CaptureClass::Advantageous)
        }
        OrderingScheme::MvvLva | OrderingScheme::Staged | OrderingScheme::Picker => {
            mvv_lva_key(board, mv)
        }
        OrderingScheme::None => 0,
    })
}

/// Whether QS searches `mv` (which takes `captured`) outside check: a promotion of the
/// configured subset, or a capture that passes the filter.
fn qs_searches(
    board: &Board,
    mv: Move,
    captured: Option<Piece>,
    config: &SearchConfig,
    stats: &mut SearchStats,
) -> bool {
    match (mv.promotion, captured) {
        (Some(promotion), _) => promotion_allowed(config.qsearch.promotions, promotion),
        (None, Some(captured)) => worth_capturing(board, mv, captured, config, stats),
        (None, None) => false,
    }
}

/// Whether QS searches a promotion to `piece`.
pub fn promotion_allowed(subset: Promotions, piece: Piece) -> bool {
    match subset {
        Promotions::None => false,
        Promotions::Q => piece == Piece::Queen,
        Promotions::Qn => matches!(piece, Piece::Queen | Piece::Knight),
        Promotions::Qrbn => true,
    }
}

#[cfg(test)]
mod move_tests {
    use super::*;
    use crate::board::{parse_fen, uci_move};
    use crate::search::ordering::is_quiet;

    const BUSY: &str = "r3k2r/1P3ppp/8/3q4/2n1P3/1B6/P4PPP/R2QK2R w KQkq - 0 1";

    fn qs_list(board: &Board, config: &SearchConfig) -> MoveList {
        let mut list = MoveList::default();
        let (mut stats, mut scratch) = (SearchStats::default(), Scratch::default());
        qsearch_moves(board, false, config, &mut stats, &mut scratch, &mut list);
        list
    }
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// The early stand-pat's reason for starting QS (and its SEE count) is the one the
        /// ordered moves give, on positions of random games, with and without SEE.
        #[test]
        fn start_without_ordering_equals_start_of_the_ordered_moves(seed in 0u64..u64::MAX, plies in 0usize..120) {
            let b = crate::board::random_playout(seed, plies);
            proptest::prop_assume!(b.checkers().is_empty());
            for see in [false, true] {
                let config = SearchConfig { see, ..SearchConfig::fischerle() };
                let (mut ordered_stats, mut scratch, mut list) =
                    (SearchStats::default(), Scratch::default(), MoveList::default());
                qsearch_moves(&b, false, &config, &mut ordered_stats, &mut scratch, &mut list);
                let mut stats = SearchStats::default();
                proptest::prop_assert_eq!(qsearch_start(&b, &config, &mut stats), start_of(&b, &list));
                proptest::prop_assert_eq!(stats.see_calls, ordered_stats.see_calls);
            }
        }
    }

    #[test]
    fn qs_promotion_subsets_generate_exactly_the_chosen_pieces() {
        let b = parse_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let cases = [
            (Promotions::None, ""),
            (Promotions::Q, "q"),
            (Promotions::Qn, "nq"),
            (Promotions::Qrbn, "bnqr"),
        ];
        for (subset, pieces) in cases {
            let mut config = SearchConfig::fischerle();
            config.qsearch.promotions = subset;
            let list = qs_list(&b, &config);
            let mut got: Vec<char> = list
                .as_slice()
                .iter()
                .map(|m| char::from(m.mv.promotion.unwrap()))
                .collect();
            got.sort();
            let mut want: Vec<char> = pieces.chars().collect();
            want.sort();
            assert_eq!(got, want, "{subset:?}");
        }
    }
    #[test]
    fn qs_outside_check_has_no_quiet_moves() {
        let b = parse_fen(BUSY).unwrap();
        let mut config = SearchConfig::fischerle();
        config.qsearch.captures = crate::config::CaptureFilter::All;
        let list = qs_list(&b, &config);
        assert!(list.as_slice().iter().all(|m| !is_quiet(&b, m.mv)));
        assert!(list.len() >= 4);
    }
    fn qs_in_check(board: &Board, config: &SearchConfig) -> (MoveList, usize) {
        let mut list = MoveList::default();
        let (mut stats, mut scratch) = (SearchStats::default(), Scratch::default());
        let legal = qsearch_moves(board, true, config, &mut stats, &mut scratch, &mut list);
        (list, legal)
    }
    #[test]
    fn qs_evasions_keep_only_the_subsets_promotions() {
        // The rook on a8 checks; bxa8 promotes while taking it.
        let b = parse_fen("r3k3/1P6/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let (list, legal) = qs_in_check(&b, &SearchConfig::fischerle());
        let promotions: Vec<String> = list
            .as_slice()
            .iter()
            .filter(|m| m.mv.promotion.is_some())
            .map(|m| uci_move(&b, m.mv))
            .collect();
        assert_eq!(promotions, ["b7a8q", "b7a8n"]);
        assert_eq!(
            legal,
            list.len() + 2,
            "bxa8=R and bxa8=B are legal but not searched"
        );
    }
    #[test]
    fn qs_evasions_that_are_all_excluded_promotions_are_not_mate() {
        // The king on a1 cannot move (the bishop covers b1, the knight b2); only bxa8 answers.
        let b = parse_fen("r3k3/1P6/8/8/2n1b3/8/8/K7 w - - 0 1").unwrap();
        let mut config = SearchConfig::fischerle();
        config.qsearch.promotions = Promotions::None;
        let (list, legal) = qs_in_check(&b, &config);
        assert!(list.is_empty() && legal > 0);
    }

    /// White can take an undefended knight (advantageous) or promote on b8, where the rook on h8
    /// takes the new piece.
    const EN_PRISE: &str = "7r/1P2k3/8/8/3n4/8/8/3RK3 w - - 0 1";
    #[test]
    fn qs_orders_a_promotion_en_prise_as_neutral() {
        let b = parse_fen(EN_PRISE).unwrap();
        for see in [false, true] {
            let config = SearchConfig {
                see,
                ..SearchConfig::fischerle()
            };
            let list = qs_list(&b, &config);
            let mut got: Vec<String> = list.as_slice().iter().map(|m| uci_move(&b, m.mv)).collect();
            // Both promotions share the neutral pawn key, in generation order.
            got[1..].sort();
            assert_eq!(got, ["d1d4", "b7b8n", "b7b8q"], "see={see}");
        }
    }
    #[test]
    fn qs_orders_a_safe_promotion_first() {
        // Without the rook on h8 the new piece is safe: bucket 1, ahead of the capture.
        let b = parse_fen("8/1P2k3/8/8/3n4/8/8/3RK3 w - - 0 1").unwrap();
        let list = qs_list(&b, &SearchConfig::fischerle());
        let got: Vec<String> = list.as_slice().iter().map(|m| uci_move(&b, m.mv)).collect();
        assert_eq!(got, ["b7b8q", "b7b8n", "d1d4"]);
    }
}

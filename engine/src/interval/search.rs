//! The interval search of the 1989 text (§2.3.3–2.3.8): alpha-beta over intervals of results with
//! a depth, combined with knowledge rules and a table of stored results.

use cozy_chess::{Board, Move};
use rustc_hash::FxHashMap;

use super::knowledge::{Knowledge, Known};
use super::value::{Depth, Interval, Valued, Wdl};
use crate::board::legal_moves;

/// Window bounds live one step outside the results, so that the root's window excludes nothing.
type Bound = i8;
const BELOW_LOSS: Bound = -2;
const ABOVE_WIN: Bound = 2;

fn bound(w: Wdl) -> Bound {
    w as Bound
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IntervalStats {
    /// Positions visited.
    pub nodes: u64,
    /// Nodes ended by knowledge giving a point interval.
    pub known_points: u64,
    /// Nodes answered from the table of stored results.
    pub stored_hits: u64,
    /// Beta cutoffs (§2.3.4).
    pub cutoffs: u64,
    /// Nodes where the search's interval and the knowledge's did not intersect: a rule
    /// contradicted by search below it. The search's interval is kept.
    pub contradictions: u64,
}

/// A stored result (§2.3.6): used outright when deep enough, else to seed interval and move.
#[derive(Debug, Clone, Copy)]
struct Stored(Valued);

/// The searcher: knowledge, the table of stored results, counters and a node budget.
pub struct IntervalSearch<'k, K: Knowledge> {
    knowledge: &'k K,
    stored: FxHashMap<u64, Stored>,
    /// Counters since the searcher was made.
    pub stats: IntervalStats,
    budget: u64,
    /// The root's own knowledge is not asked: validation searches a position to check what the
    /// rules say about it (§3.1).
    ignore_root_knowledge: bool,
    /// Every node's window, in visiting order (tests check §2.3.8 with it).
    #[cfg(test)]
    windows: Vec<(u64, Bound, Bound)>,
}

/// A root result: the statement and the deepest iteration that ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// The root's value after the last iteration.
    pub value: Valued,
    /// The last iteration's depth.
    pub depth: u16,
    /// The node budget ran out before a point interval was found.
    pub out_of_budget: bool,
}

impl<'k, K: Knowledge> IntervalSearch<'k, K> {
    /// A searcher asking `knowledge`, with no budget and an empty table.
    pub fn new(knowledge: &'k K) -> Self {
        Self {
            knowledge,
            stored: FxHashMap::default(),
            stats: IntervalStats::default(),
            budget: u64::MAX,
            ignore_root_knowledge: false,
            #[cfg(test)]
            windows: Vec::new(),
        }
    }

    /// At most `nodes` nodes over all searches of this searcher (the text's "erträglicher Aufwand").
    pub fn with_budget(mut self, nodes: u64) -> Self {
        self.budget = nodes;
        self
    }

    /// Do not ask the knowledge at the root (it is still asked when the root recurs below).
    pub fn ignoring_root_knowledge(mut self) -> Self {
        self.ignore_root_knowledge = true;
        self
    }

    /// The stored result of `board`, if any.
    pub fn stored(&self, board: &Board) -> Option<Valued> {
        self.stored.get(&board.hash()).map(|s| s.0)
    }

    /// Whether the node budget is spent.
    pub fn out_of_budget(&self) -> bool {
        self.stats.nodes >= self.budget
    }

    /// One search of `board` to `depth` plies with the full window.
    pub fn search(&mut self, board: &Board, depth: u16) -> Valued {
        self.node(board, BELOW_LOSS, ABOVE_WIN, depth, true)
    }

    /// Iterative deepening from depth 1 until the root's interval is a point, `max_depth` is
    /// searched or the budget runs out.
    pub fn solve(&mut self, board: &Board, max_depth: u16) -> Solved {
        self.deepen(board, max_depth, true)
    }

    /// The value of playing `mv` in `board`, side to move's view: the position after it solved as
    /// [`IntervalSearch::solve`] does, its knowledge asked (it is not the position being checked).
    pub fn solve_after(&mut self, board: &Board, mv: Move, max_depth: u16) -> Solved {
        let mut child = board.clone();
        child.play_unchecked(mv);
        let solved = self.deepen(&child, max_depth, false);
        let v = solved.value;
        Solved {
            value: Valued::new(v.interval.flip(), v.depth.above(), Some(mv)),
            ..solved
        }
    }

    fn deepen(&mut self, board: &Board, max_depth: u16, root: bool) -> Solved {
        let mut value = Valued::new(Interval::UNKNOWN, Depth(0), None);
        for depth in 1..=max_depth {
            value = self.node(board, BELOW_LOSS, ABOVE_WIN, depth, root);
            if value.interval.exact().is_some() || self.out_of_budget() {
                return Solved {
                    value,
                    depth,
                    out_of_budget: value.interval.exact().is_none(),
                };
            }
        }
        Solved {
            value,
            depth: max_depth,
            out_of_budget: false,
        }
    }

    /// `bestzug`: the node as a list of the text's steps.
    fn node(&mut self, board: &Board, alpha: Bound, beta: Bound, depth: u16, root: bool) -> Valued {
        self.stats.nodes += 1;
        #[cfg(test)]
        self.windows.push((board.hash(), alpha, beta));
        let moves = legal_moves(board);
        if let Some(result) = game_over(board, &moves) {
            return Valued::new(Interval::point(result), Depth::EXACT, None);
        }
        let known = self.known(board, root);
        if let Some(point) = known.filter(|k| k.interval.exact().is_some()) {
            self.stats.known_points += 1;
            return Valued::new(point.interval, Depth::EXACT, point.best);
        }
        let rule = known.map_or(Interval::UNKNOWN, |k| k.interval);
        let mut start = Start {
            rule,
            best: known.and_then(|k| k.best),
        };
        if let Some(found) = self.use_stored(board, depth, &mut start) {
            return found;
        }
        if depth == 0 || self.out_of_budget() {
            return Valued::new(start.rule, Depth(0), start.best);
        }
        let found = self.search_moves(board, &moves, alpha, beta, depth, start);
        self.stored.insert(board.hash(), Stored(found));
        found
    }

    fn known(&self, board: &Board, root: bool) -> Option<Known> {
        if root && self.ignore_root_knowledge {
            return None;
        }
        self.knowledge.probe(board)
    }

    /// §2.3.6: a stored result deep enough (or a point) is the answer; a shallower one narrows the
    /// rule's interval and gives the first move.
    fn use_stored(&mut self, board: &Board, depth: u16, start: &mut Start) -> Option<Valued> {
        let stored = self.stored.get(&board.hash())?.0;
        if stored.depth >= Depth(depth) {
            self.stats.stored_hits += 1;
            let interval = stored
                .interval
                .intersect(start.rule)
                .unwrap_or(stored.interval);
            return Some(Valued::new(interval, stored.depth, stored.best));
        }
        if let Some(narrower) = start.rule.intersect(stored.interval) {
            if stored.interval.lo >= start.rule.lo && stored.best.is_some() {
                start.best = stored.best;
            }
            start.rule = narrower;
        }
        None
    }

    /// §2.3.3–2.3.8 over the moves, the rule's (or stored) move first.
    fn search_moves(
        &mut self,
        board: &Board,
        moves: &[Move],
        alpha: Bound,
        beta: Bound,
        depth: u16,
        start: Start,
    ) -> Valued {
        let rule = start.rule;
        // §2.3.5: maxa starts at the rule's a, zbest at the rule's move (or none). The search's
        // own bounds are kept apart, so that a rule the moves contradict is seen.
        // A rule's move stands for the rule's b: a later move with the same a must beat that.
        let best_b = if start.best.is_some() {
            rule.hi
        } else {
            Wdl::Loss
        };
        let (mut max_a, mut best, mut best_b) = (rule.lo, start.best, best_b);
        let mut searched: Option<Interval> = None;
        let mut shallowest = Depth::EXACT;
        for mv in ordered(moves, start.best) {
            // §2.3.8: only values above alpha, the rule's a and the best so far are of interest.
            let max_ab = alpha.max(bound(max_a));
            let mut child = board.clone();
            child.play_unchecked(mv);
            let v = self.node(&child, -beta, -max_ab, depth - 1, false);
            let mine = v.interval.flip();
            searched = Some(searched.map_or(mine, |s| {
                Interval::new(s.lo.max(mine.lo), s.hi.max(mine.hi))
            }));
            shallowest = shallowest.min(v.depth);
            // zbest: the move to the largest a_i, ties to the largest b_i.
            if mine.lo > max_a || (mine.lo == max_a && (best.is_none() || mine.hi > best_b)) {
                (max_a, best, best_b) = (mine.lo, Some(mv), mine.hi);
            }
            // §2.3.7: a move reaching the rule's b (or a win) settles the position.
            if max_a >= rule.hi {
                return Valued::new(Interval::point(rule.hi), Depth::EXACT, best);
            }
            // §2.3.4: the moves not searched could still raise b: widen to the rule's b, depth 0.
            let cutoff = bound(mine.lo) >= beta;
            if cutoff || self.out_of_budget() {
                self.stats.cutoffs += u64::from(cutoff);
                return Valued::new(Interval::new(max_a, rule.hi), Depth(0), best);
            }
        }
        let searched = searched.expect("a node with moves searched one");
        let interval = searched.intersect(rule).unwrap_or_else(|| {
            self.stats.contradictions += 1;
            searched
        });
        Valued::new(interval, shallowest.above(), best)
    }
}

/// What the search of a node starts from: the rule's (and stored) interval and first move.
#[derive(Debug, Clone, Copy)]
struct Start {
    rule: Interval,
    best: Option<Move>,
}

/// The result when the rules of chess end the game (`moves` are `board`'s legal moves):
/// checkmate is a loss for the side to move; stalemate and bare kings are draws.
pub fn game_over(board: &Board, moves: &[Move]) -> Option<Wdl> {
    if !moves.is_empty() && board.occupied().len() > 2 {
        return None;
    }
    Some(if moves.is_empty() && !board.checkers().is_empty() {
        Wdl::Loss
    } else {
        Wdl::Draw
    })
}

/// `first` (when legal here), then the others in generation order.
fn ordered(moves: &[Move], first: Option<Move>) -> impl Iterator<Item = Move> + '_ {
    let first = first.filter(|m| moves.contains(m));
    first
        .into_iter()
        .chain(moves.iter().copied().filter(move |m| Some(*m) != first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::TextRules;
    use Wdl::*;

    /// Knowledge by hash: what each test declares about the positions it reaches.
    #[derive(Default)]
    struct Declared(FxHashMap<u64, Known>);

    impl Knowledge for Declared {
        fn probe(&self, board: &Board) -> Option<Known> {
            self.0.get(&board.hash()).copied()
        }
    }

    /// White: Ka1, Ph2 against Ka8; five moves (Ka2 Kb1 Kb2 h3 h4).
    const ROOT: &str = "k7/8/8/8/8/8/7P/K7 w - - 0 1";

    fn root() -> (Board, Vec<Move>) {
        let board: Board = ROOT.parse().unwrap();
        let moves = legal_moves(&board);
        assert_eq!(moves.len(), 5);
        (board, moves)
    }

    fn child(board: &Board, mv: Move) -> Board {
        let mut c = board.clone();
        c.play_unchecked(mv);
        c
    }

    /// Declares each child's interval as seen from the root's side (stored flipped, as the child
    /// sees it), and optionally the root's own.
    fn declare(parent_view: &[Interval], root_known: Option<Known>) -> Declared {
        let (board, moves) = root();
        let mut d = Declared::default();
        for (mv, i) in moves.iter().zip(parent_view) {
            let known = Known {
                interval: i.flip(),
                best: None,
                source: "test",
            };
            d.0.insert(child(&board, *mv).hash(), known);
        }
        if let Some(k) = root_known {
            d.0.insert(board.hash(), k);
        }
        d
    }

    fn iv(lo: Wdl, hi: Wdl) -> Interval {
        Interval::new(lo, hi)
    }

    #[test]
    fn children_combine_to_max_a_max_b_with_the_shallowest_depth() {
        // §2.3.3: [max a_i, max b_i], zbest the move of the largest a_i, depth min t_i + 1.
        let d = declare(
            &[
                iv(Loss, Win),
                iv(Draw, Win),
                iv(Loss, Draw),
                iv(Loss, Win),
                iv(Loss, Loss),
            ],
            None,
        );
        let (board, moves) = root();
        let v = IntervalSearch::new(&d).search(&board, 1);
        assert_eq!(v.interval, iv(Draw, Win));
        assert_eq!(v.best, Some(moves[1]));
        assert_eq!(v.depth, Depth(1));
    }

    #[test]
    fn equal_lower_bounds_go_to_the_larger_upper_bound() {
        let d = declare(
            &[
                iv(Draw, Draw),
                iv(Loss, Loss),
                iv(Draw, Win),
                iv(Loss, Draw),
                iv(Loss, Loss),
            ],
            None,
        );
        let (board, moves) = root();
        let v = IntervalSearch::new(&d).search(&board, 1);
        assert_eq!((v.interval, v.best), (iv(Draw, Win), Some(moves[2])));
    }

    #[test]
    fn a_beta_cutoff_widens_to_the_maximum_and_resets_the_depth() {
        // §2.3.4: with beta = draw, the second move reaches it; the rest are not searched.
        let d = declare(
            &[
                iv(Loss, Draw),
                iv(Draw, Draw),
                iv(Win, Win),
                iv(Loss, Loss),
                iv(Loss, Loss),
            ],
            None,
        );
        let (board, moves) = root();
        let mut s = IntervalSearch::new(&d);
        let v = s.node(&board, BELOW_LOSS, bound(Draw), 1, true);
        assert_eq!(
            (v.interval, v.depth, v.best),
            (iv(Draw, Win), Depth(0), Some(moves[1]))
        );
        assert_eq!((s.stats.nodes, s.stats.cutoffs), (3, 1));
    }

    #[test]
    fn a_rules_interval_is_intersected_and_its_a_and_move_come_first() {
        // §2.3.5: the rule says [loss, draw]; the moves say at most a win: the result is the cut.
        let rule = Known {
            interval: iv(Loss, Draw),
            best: None,
            source: "rule",
        };
        let d = declare(&[iv(Loss, Win); 5], Some(rule));
        let (board, moves) = root();
        let v = IntervalSearch::new(&d).search(&board, 1);
        assert_eq!(v.interval, iv(Loss, Draw));
        // A rule [draw, win] with move h3: maxa starts at draw and zbest at h3, which stays best
        // although it (and every move) shows only [loss, win] here.
        let rule = Known {
            interval: iv(Draw, Win),
            best: Some(moves[3]),
            source: "rule",
        };
        let d = declare(&[iv(Loss, Win); 5], Some(rule));
        let mut s = IntervalSearch::new(&d);
        let v = s.search(&board, 1);
        assert_eq!((v.interval, v.best), (iv(Draw, Win), Some(moves[3])));
        // The rule's move is searched first (the root, then h3's child).
        assert_eq!(s.windows[1].0, child(&board, moves[3]).hash());
    }

    #[test]
    fn a_rule_the_moves_contradict_is_counted_and_the_search_kept() {
        let rule = Known {
            interval: iv(Win, Win),
            best: None,
            source: "rule",
        };
        let d = declare(&[iv(Loss, Draw); 5], None);
        let (board, _) = root();
        let mut d2 = d;
        // A non-point claim [draw, win] against moves that all give at most a draw... is consistent;
        // [win, win] is a point and ends the node, so contradict with a wide rule instead.
        d2.0.insert(
            board.hash(),
            Known {
                interval: iv(Win, Win),
                ..rule
            },
        );
        let mut s = IntervalSearch::new(&d2).ignoring_root_knowledge();
        assert_eq!(s.search(&board, 1).interval, iv(Loss, Draw));
        let d3 = declare(
            &[iv(Loss, Loss); 5],
            Some(Known {
                interval: iv(Draw, Win),
                ..rule
            }),
        );
        let mut s = IntervalSearch::new(&d3);
        assert_eq!(s.search(&board, 1).interval, iv(Loss, Loss));
        assert_eq!(s.stats.contradictions, 1);
    }

    #[test]
    fn a_stored_result_answers_when_deep_enough_and_seeds_otherwise() {
        // §2.3.6.
        let d = declare(
            &[
                iv(Loss, Win),
                iv(Draw, Win),
                iv(Loss, Draw),
                iv(Loss, Win),
                iv(Loss, Loss),
            ],
            None,
        );
        let (board, moves) = root();
        let mut s = IntervalSearch::new(&d);
        s.search(&board, 1);
        let before = s.stats.nodes;
        assert_eq!(s.search(&board, 1).interval, iv(Draw, Win));
        assert_eq!((s.stats.nodes - before, s.stats.stored_hits), (1, 1));
        // At depth 2 the stored depth-1 result is not enough: its move is searched first.
        s.windows.clear();
        s.search(&board, 2);
        assert_eq!(s.windows[1].0, child(&board, moves[1]).hash());
    }

    #[test]
    fn a_point_interval_ends_the_search() {
        // §2.3.7: the rule says the side to move cannot win (b = draw); the second move reaches a
        // draw, so the position is a draw at any depth and the others are not searched.
        let rule = Known {
            interval: iv(Loss, Draw),
            best: None,
            source: "rule",
        };
        let d = declare(
            &[
                iv(Loss, Draw),
                iv(Draw, Win),
                iv(Win, Win),
                iv(Loss, Loss),
                iv(Loss, Loss),
            ],
            Some(rule),
        );
        let (board, moves) = root();
        let mut s = IntervalSearch::new(&d);
        let v = s.search(&board, 1);
        assert_eq!(
            (v.interval, v.depth, v.best),
            (Interval::point(Draw), Depth::EXACT, Some(moves[1]))
        );
        assert_eq!(s.stats.nodes, 3);
        // Without a rule, a win (maxbew) ends it too.
        let d = declare(
            &[
                iv(Loss, Draw),
                iv(Win, Win),
                iv(Draw, Win),
                iv(Loss, Loss),
                iv(Loss, Loss),
            ],
            None,
        );
        let mut s = IntervalSearch::new(&d);
        assert_eq!(s.search(&board, 1).interval, Interval::point(Win));
        assert_eq!(s.stats.nodes, 3);
    }

    #[test]
    fn the_recursive_window_is_minus_beta_minus_maxab() {
        // §2.3.8: after the first move gives a ≥ draw, the next child is searched with
        // [−beta, −draw]; with the rule's a = draw it is so from the first move on.
        let d = declare(
            &[
                iv(Draw, Win),
                iv(Loss, Win),
                iv(Loss, Win),
                iv(Loss, Win),
                iv(Loss, Win),
            ],
            None,
        );
        let (board, _) = root();
        let mut s = IntervalSearch::new(&d);
        s.search(&board, 1);
        let w: Vec<(Bound, Bound)> = s.windows.iter().map(|w| (w.1, w.2)).collect();
        assert_eq!(
            w[..3],
            [
                (BELOW_LOSS, ABOVE_WIN),
                (BELOW_LOSS, -bound(Loss)),
                (BELOW_LOSS, -bound(Draw))
            ]
        );
        let rule = Known {
            interval: iv(Draw, Win),
            best: None,
            source: "rule",
        };
        let d = declare(&[iv(Loss, Win); 5], Some(rule));
        let mut s = IntervalSearch::new(&d);
        s.search(&board, 1);
        assert_eq!((s.windows[1].1, s.windows[1].2), (BELOW_LOSS, -bound(Draw)));
    }

    #[test]
    fn the_text_rules_settle_a_two_level_draw_and_a_square_win() {
        // The defender takes the pawn: KK is a draw; with "cannot lose" on both levels the
        // interval search proves the draw without searching to the end.
        let board: Board = "8/8/8/8/8/2k5/1P6/7K b - - 0 1".parse().unwrap();
        let mut s = IntervalSearch::new(&TextRules::ALL).ignoring_root_knowledge();
        let solved = s.solve(&board, 6);
        assert_eq!(solved.value.interval, Interval::point(Draw));
        assert_eq!(solved.depth, 1);
        // The square rule's position: its move a5-a6 leads to another square-rule win.
        let board: Board = "8/8/6k1/P7/8/8/8/K7 w - - 0 1".parse().unwrap();
        let solved = IntervalSearch::new(&TextRules::ALL)
            .ignoring_root_knowledge()
            .solve(&board, 6);
        assert_eq!(
            (solved.value.interval, solved.depth),
            (Interval::point(Win), 1)
        );
    }

    #[test]
    fn the_budget_stops_the_search_with_a_sound_interval() {
        let board: Board = "8/8/3k4/8/3K4/3P4/8/8 w - - 0 1".parse().unwrap();
        let mut s = IntervalSearch::new(&TextRules::ALL)
            .with_budget(50)
            .ignoring_root_knowledge();
        let solved = s.solve(&board, 30);
        assert!(solved.out_of_budget);
        assert!(
            solved.value.interval.contains(Win),
            "the position is a win: {}",
            solved.value.interval
        );
        assert!(s.stats.nodes <= 50 + 30);
    }
}

//! The validation of the 1989 text (seed 004, §3.1) over KPK: every position a rule decides is
//! checked by a search that ends in decided positions — the rule's move first, then whether a
//! better result exists — and every undecided position is searched to a result within a budget
//! (the text's "erträglicher Aufwand"). After a promotion the tables (KQK, KRK) are the already
//! validated endgames the text presupposes.

use cozy_chess::{Move, Piece};
use engine::interval::{IntervalSearch, Known, Wdl};

use super::knowledge::{white_view, RulesAndTables};
use super::support::support;
use super::table::{Placement, Tables, ILLEGAL, SIZE};

/// How far the validation searches one position.
#[derive(Debug, Clone, Copy)]
pub struct Effort {
    /// Iterative deepening stops at this depth.
    pub max_depth: u16,
    /// And after this many nodes (all searches of one position together).
    pub max_nodes: u64,
}

/// What the procedure concludes about one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// A rule's verdict confirmed by search (and, for wins and losses, by a cycle-free support).
    Confirmed,
    /// The search from the position finds another value than the rule says.
    Contradicted,
    /// The rule's move reaches its value, but another move does better.
    BetterMove,
    /// The rule's move does not reach the rule's value, though the value holds.
    MoveFails,
    /// A claimed win or loss whose support is not founded (§3.2–3.4): it rests on a support
    /// cycle or on a claim the validation did not confirm, and searched again trusting only
    /// founded claims it is still not confirmed.
    Unfounded,
    /// The search did not reach a point interval within the effort.
    Unresolved,
    /// No rule decides the position; the search valued it.
    Searched,
}

impl Outcome {
    /// Name in the CSV and report.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Confirmed => "confirmed",
            Outcome::Contradicted => "contradicted",
            Outcome::BetterMove => "better_move",
            Outcome::MoveFails => "move_fails",
            Outcome::Unfounded => "unfounded",
            Outcome::Unresolved => "unresolved",
            Outcome::Searched => "searched",
        }
    }

    /// Whether the procedure reports the position's rule as wrong.
    pub fn flags(self) -> bool {
        matches!(
            self,
            Outcome::Contradicted | Outcome::BetterMove | Outcome::MoveFails | Outcome::Unfounded
        )
    }
}

/// One position's validation.
#[derive(Debug, Clone)]
pub struct Validation {
    /// KPK table index.
    pub index: usize,
    /// What the rules say, if they decide the position (a point interval).
    pub claim: Option<Known>,
    /// The procedure's conclusion.
    pub outcome: Outcome,
    /// The value the search found from the position (its own rule not asked), if a point.
    pub found: Option<Wdl>,
    /// The value through the rule's move, when it gives one and it was searched to a point.
    pub via_move: Option<Wdl>,
    /// Nodes of all its searches.
    pub nodes: u64,
    /// Deepest iteration.
    pub depth: u16,
    /// Rule-decided wins and losses its proof rests on (table indices); `None` where no support
    /// is traced (draws, unconfirmed claims, undecided positions).
    pub support: Option<Vec<u32>>,
}

/// The table indices of every `every`th legal KPK position, in table order (1: all of them).
pub fn sample(tables: &Tables, every: usize) -> Vec<usize> {
    (0..SIZE)
        .filter(|&i| tables.pawn.values[i] != ILLEGAL)
        .enumerate()
        .filter(|(k, _)| k % every.max(1) == 0)
        .map(|(_, i)| i)
        .collect()
}

/// §3.1 for one position.
pub fn validate(knowledge: &RulesAndTables, effort: Effort, index: usize) -> Validation {
    let board = Placement::from_index(Piece::Pawn, index)
        .board()
        .expect("a legal index");
    // The claim is the rules' own, whatever is trusted below the root.
    let claim = knowledge
        .claim(&board)
        .filter(|k| k.interval.exact().is_some());
    let mut search = IntervalSearch::new(knowledge)
        .with_budget(effort.max_nodes)
        .ignoring_root_knowledge();
    let mut v = Validation {
        index,
        claim,
        outcome: Outcome::Unresolved,
        found: None,
        via_move: None,
        nodes: 0,
        depth: 0,
        support: None,
    };
    let Some(claim) = claim else {
        let solved = search.solve(&board, effort.max_depth);
        v.found = solved.value.interval.exact();
        v.outcome = if v.found.is_some() {
            Outcome::Searched
        } else {
            Outcome::Unresolved
        };
        (v.nodes, v.depth) = (search.stats.nodes, solved.depth);
        return v;
    };
    let claimed = claim.interval.exact().expect("a point claim");
    // The rule's move first: it must reach the rule's value.
    if let Some(mv) = claim.best {
        let solved = search.solve_after(&board, mv, effort.max_depth);
        v.via_move = solved.value.interval.exact();
        v.depth = solved.depth;
    }
    // Then from the position itself, unless the rule's move already wins (nothing is better).
    let move_wins = v.via_move == Some(Wdl::Win) && claimed == Wdl::Win;
    if !move_wins {
        let solved = search.solve(&board, effort.max_depth);
        v.found = solved.value.interval.exact();
        v.depth = v.depth.max(solved.depth);
    } else {
        v.found = Some(Wdl::Win);
    }
    v.outcome = judge(claimed, claim.best.is_some(), v.via_move, v.found);
    if v.outcome == Outcome::Confirmed && claimed != Wdl::Draw {
        v.support = support(&search, knowledge, &board, claimed, claim.best);
    }
    v.nodes = search.stats.nodes;
    v
}

/// The outcome from the claim and what the searches found (`None`: no point interval).
fn judge(claimed: Wdl, has_move: bool, via_move: Option<Wdl>, found: Option<Wdl>) -> Outcome {
    let Some(found) = found else {
        return Outcome::Unresolved;
    };
    if found != claimed {
        return if found > claimed && via_move == Some(claimed) {
            Outcome::BetterMove
        } else {
            Outcome::Contradicted
        };
    }
    match (has_move, via_move) {
        (true, None) => Outcome::Unresolved,
        (true, Some(w)) if w != claimed => Outcome::MoveFails,
        _ => Outcome::Confirmed,
    }
}

/// The true value of a position for the side to move, from the retrograde table.
pub fn truth(tables: &Tables, index: usize) -> Wdl {
    let p = Placement::from_index(Piece::Pawn, index);
    white_view(tables.pawn.values[index], p.stm)
}

/// The move the rule gave, as UCI text.
pub fn move_text(index: usize, mv: Option<Move>) -> String {
    let board = Placement::from_index(Piece::Pawn, index)
        .board()
        .expect("legal");
    mv.map(|m| engine::board::uci_move(&board, m))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kpk::mutant::Mutant;
    use cozy_chess::Board;
    use engine::interval::{Interval, Knowledge, TextRules, SETTLED};
    use std::sync::OnceLock;

    fn tables() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(Tables::build)
    }

    fn knowledge() -> RulesAndTables<'static> {
        RulesAndTables {
            rules: TextRules::ALL,
            mutant: None,
            tables: tables(),
            founded: None,
            trust_draws: true,
        }
    }

    const EFFORT: Effort = Effort {
        max_depth: 40,
        max_nodes: 50_000,
    };

    fn of(fen: &str) -> Validation {
        let board: Board = fen.parse().unwrap();
        let index = Placement::of_board(&board).unwrap().index();
        validate(&knowledge(), EFFORT, index)
    }

    #[test]
    fn the_square_rules_stalemate_exception_is_contradicted() {
        // The rule counts the pawn's run from a2, but Black's king on a1 simply takes it (Kb1
        // and Kb2 are covered by White's king): the rule says Black loses; the search finds the
        // draw.
        let v = of("8/8/8/8/8/8/P7/k1K5 b - - 0 1");
        assert_eq!(v.claim.unwrap().source, "square");
        assert_eq!(
            (v.outcome, v.found),
            (Outcome::Contradicted, Some(Wdl::Draw))
        );
        assert_eq!(truth(tables(), v.index), Wdl::Draw);
    }

    #[test]
    fn a_promotion_that_stalemates_fails_as_the_rules_move_but_the_win_stands() {
        // b8=Q stalemates the king on h1; b8=R wins.
        let v = of("8/1P6/8/8/8/8/8/5K1k w - - 0 1");
        assert_eq!(move_text(v.index, v.claim.unwrap().best), "b7b8q");
        assert_eq!(v.via_move, Some(Wdl::Draw));
        assert_eq!((v.outcome, v.found), (Outcome::MoveFails, Some(Wdl::Win)));
    }

    #[test]
    fn a_key_square_win_is_confirmed_with_its_support() {
        let v = of("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        assert_eq!(v.claim.unwrap().source, "key_squares");
        assert_eq!(v.outcome, Outcome::Confirmed);
        assert!(!v.support.unwrap().is_empty());
    }

    #[test]
    fn an_undecided_position_is_searched_or_left_unresolved() {
        // The opposition: White to move draws; no rule decides it, and only a blockade holds it,
        // which no rule of the text recognises: unresolved within the effort.
        let v = of("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1");
        assert!(v.claim.is_none());
        assert_eq!(v.outcome, Outcome::Unresolved);
        assert!(v.nodes >= EFFORT.max_nodes);
        // Black to move loses; the search reaches positions the rules decide.
        let v = of("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1");
        assert_eq!((v.outcome, v.found), (Outcome::Searched, Some(Wdl::Loss)));
    }

    #[test]
    fn unfounded_claims_are_not_trusted() {
        let board: Board = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1".parse().unwrap();
        let mut founded = vec![true; SIZE];
        let k = RulesAndTables {
            founded: Some(&founded),
            ..knowledge()
        };
        assert_eq!(k.probe(&board).unwrap().interval, Interval::point(Wdl::Win));
        founded[Placement::of_board(&board).unwrap().index()] = false;
        let k = RulesAndTables {
            founded: Some(&founded),
            ..knowledge()
        };
        assert_eq!(
            k.probe(&board).unwrap().interval,
            Interval::new(Wdl::Draw, Wdl::Win)
        );
        // The validation still reads the rule's claim itself.
        let v = validate(&k, EFFORT, Placement::of_board(&board).unwrap().index());
        assert_eq!(v.claim.unwrap().interval, Interval::point(Wdl::Win));
    }

    #[test]
    fn a_draw_resting_on_wrong_draws_passes_until_draws_are_not_trusted() {
        // White wins (Ka6, then Ka7), but the mutant calls every position with Black's king on
        // b8 a draw, so every line ends in its own wrong claims.
        let board: Board = "1k6/1P6/8/K7/8/8/8/8 w - - 0 1".parse().unwrap();
        let index = Placement::of_board(&board).unwrap().index();
        let mutant = RulesAndTables {
            mutant: Some(Mutant::FrontDraws),
            ..knowledge()
        };
        let v = validate(&mutant, EFFORT, index);
        assert_eq!((v.outcome, v.found), (Outcome::Confirmed, Some(Wdl::Draw)));
        let distrusting = RulesAndTables {
            trust_draws: false,
            ..mutant
        };
        let v = validate(&distrusting, EFFORT, index);
        assert_eq!(
            (v.outcome, v.found),
            (Outcome::Contradicted, Some(Wdl::Win))
        );
        // A true draw (the rook pawn's corner) holds without trusting any draw.
        let board: Board = "k7/8/8/8/8/8/P7/7K w - - 0 1".parse().unwrap();
        let index = Placement::of_board(&board).unwrap().index();
        let v = validate(
            &RulesAndTables {
                trust_draws: false,
                ..knowledge()
            },
            EFFORT,
            index,
        );
        assert_ne!(v.outcome, Outcome::Contradicted);
    }

    #[test]
    fn promotions_are_settled_by_the_tables() {
        // KQK, Black to move, the queen defended: a loss for Black; KRK with the rook hanging: a draw.
        let k = knowledge();
        let q = k
            .probe(&"8/8/8/8/8/2k5/1Q6/1K6 b - - 0 1".parse().unwrap())
            .unwrap();
        assert_eq!(
            (q.interval, q.source),
            (Interval::point(Wdl::Loss), SETTLED)
        );
        let r = k
            .probe(&"8/8/8/8/8/2k5/1R6/7K b - - 0 1".parse().unwrap())
            .unwrap();
        assert_eq!(r.interval, Interval::point(Wdl::Draw));
    }
}

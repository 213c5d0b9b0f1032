//! Selective deepening (Fischerle section 1): a node with few legal moves does not use up a level.
//! Two budgets travel down each path; `level` (remaining depth) stays unchanged where a level is
//! inserted, while `ply` (distance from the root) always grows.

use crate::config::SearchConfig;

/// The levels that may still be inserted on the current path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Dynamic levels left (`DynSuchTiefe` at the root).
    pub dyn_left: u32,
    /// Trivial levels left (`TrivDynSuchTiefe` at the root).
    pub triv_left: u32,
}

/// What a node does with its level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `level - 1`, as usual.
    Normal,
    /// A single legal move: same level, one trivial level used.
    Trivial,
    /// At most `candidate_limit` legal moves: same level, one dynamic level used.
    Dynamic,
}

impl Budget {
    /// The budgets at the root of a search to `root_depth`. Off in mate-search mode.
    pub fn root(config: &SearchConfig, root_depth: i32) -> Self {
        let s = &config.selective;
        if config.mate_search {
            return Self {
                dyn_left: 0,
                triv_left: 0,
            };
        }
        let scaled = s
            .depth_scaling
            .filter(|&d| d > 0)
            .map_or(0, |d| root_depth.max(0) as u32 / d);
        Self {
            dyn_left: s.dyn_levels + scaled,
            triv_left: s.triv_dyn_levels,
        }
    }

    /// Levels inserted on the path so far, given the root budget.
    pub fn used(self, root: Budget) -> u32 {
        (root.dyn_left - self.dyn_left) + (root.triv_left - self.triv_left)
    }

    /// The budget as the TT keeps it: each part at most 255.
    pub fn saturated(self) -> Budget {
        Budget {
            dyn_left: self.dyn_left.min(255),
            triv_left: self.triv_left.min(255),
        }
    }

    /// Whether a search with this budget looked at least as far as one with `other`: it may
    /// insert at least as many dynamic and as many trivial levels.
    pub fn covers(self, other: Budget) -> bool {
        self.dyn_left >= other.dyn_left && self.triv_left >= other.triv_left
    }

    /// The step at a node with `legal_moves` legal moves. A single-move node whose trivial budget
    /// is spent falls through to the dynamic rule (a choice the spec marks).
    pub fn step(self, config: &SearchConfig, legal_moves: usize) -> Step {
        if legal_moves == 1 && self.triv_left > 0 {
            Step::Trivial
        } else if legal_moves <= config.selective.candidate_limit as usize && self.dyn_left > 0 {
            Step::Dynamic
        } else {
            Step::Normal
        }
    }

    /// The children's level and budget after `step`.
    pub fn child(self, step: Step, level: i32) -> (i32, Budget) {
        match step {
            Step::Normal => (level - 1, self),
            Step::Trivial => (
                level,
                Budget {
                    triv_left: self.triv_left - 1,
                    ..self
                },
            ),
            Step::Dynamic => (
                level,
                Budget {
                    dyn_left: self.dyn_left - 1,
                    ..self
                },
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_rules() {
        let config = SearchConfig::fischerle();
        let b = Budget::root(&config, 5);
        assert_eq!(
            b,
            Budget {
                dyn_left: 4,
                triv_left: 10
            }
        );
        assert_eq!(b.step(&config, 1), Step::Trivial);
        assert_eq!(b.step(&config, 3), Step::Dynamic);
        assert_eq!(b.step(&config, 4), Step::Normal);
        let spent = Budget {
            dyn_left: 1,
            triv_left: 0,
        };
        assert_eq!(spent.step(&config, 1), Step::Dynamic);
        assert_eq!(
            spent.child(Step::Dynamic, 3),
            (
                3,
                Budget {
                    dyn_left: 0,
                    triv_left: 0
                }
            )
        );
        assert_eq!(
            Budget {
                dyn_left: 0,
                triv_left: 0
            }
            .step(&config, 1),
            Step::Normal
        );
    }

    #[test]
    fn mate_search_turns_it_off() {
        let config = SearchConfig {
            mate_search: true,
            ..SearchConfig::fischerle()
        };
        assert_eq!(
            Budget::root(&config, 5),
            Budget {
                dyn_left: 0,
                triv_left: 0
            }
        );
    }

    #[test]
    fn depth_scaling_adds_levels() {
        let mut config = SearchConfig::fischerle();
        config.selective.depth_scaling = Some(2);
        assert_eq!(Budget::root(&config, 7).dyn_left, 4 + 3);
    }

    #[test]
    fn limit_four_extends_four_move_nodes() {
        let mut config = SearchConfig::fischerle();
        let b = Budget::root(&config, 5);
        assert_eq!(b.step(&config, 4), Step::Normal);
        config.selective.candidate_limit = 4;
        assert_eq!(b.step(&config, 4), Step::Dynamic);
    }

    #[test]
    fn a_budget_covers_one_with_no_more_levels_left() {
        let four = Budget {
            dyn_left: 4,
            triv_left: 10,
        };
        let none = Budget {
            dyn_left: 0,
            triv_left: 10,
        };
        assert!(four.covers(none) && four.covers(four));
        assert!(
            !none.covers(four),
            "an entry with no dynamic level left cannot answer four"
        );
        assert!(!four.covers(Budget {
            dyn_left: 4,
            triv_left: 11
        }));
    }
}

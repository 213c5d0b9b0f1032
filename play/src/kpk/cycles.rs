//! Support and its cycles (the 1989 text, §3.2–3.4): a claimed win or loss is proven by a search
//! whose lines end in positions other rules decide — the positions it rests on ("stützt sich
//! ab"). Every such position was itself checked, but claims that rest on each other in a circle
//! prove nothing: a circle the supposed loser can keep up hides a wrongly claimed win. Draws
//! are not traced (a wrong draw is a wrong win or loss of the other side, §3.3).

use engine::interval::Wdl;
use petgraph::graph::{DiGraph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::knowledge::RulesAndTables;
use super::table::SIZE;
use super::validate::{validate, Effort, Outcome, Validation};

/// What the cycle search found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct CycleSummary {
    /// Claimed wins and losses whose support was traced.
    pub traced: usize,
    /// Strongly connected components of the first-traced support graph with a cycle.
    pub components: usize,
    /// Positions on those cycles.
    pub on_cycles: usize,
    /// Confirmed claims not founded on the first-traced support (on a cycle, or resting on one
    /// or on a claim the validation did not confirm).
    pub unfounded_first: usize,
    /// Rounds of re-search trusting only founded claims.
    pub rounds: usize,
    /// Claims the re-search rejected (contradicted, or another flagged outcome).
    pub rejected: usize,
    /// Positions still unfounded after them: flagged [`Outcome::Unfounded`].
    pub unfounded: usize,
    /// Confirmed draws refuted when searched with no draw claim trusted.
    pub draws_refuted: usize,
}

/// §3.2–3.4: finds the support cycles of the confirmed claimed wins and losses, then tells a
/// circle the supposed loser can force from one the winner's choice of move made. Only confirmed
/// claims can be founded: those whose support rests only on founded claims, from the claims that
/// rest on none upward. The other confirmed claims (on a cycle, or resting on one or on a claim
/// the validation rejected) are searched again trusting only founded claims, round after round,
/// until nothing changes; what is then rejected keeps that outcome, what is left is flagged
/// [`Outcome::Unfounded`].
pub fn settle(all: &mut [Validation], knowledge: &RulesAndTables, effort: Effort) -> CycleSummary {
    let (components, on_cycles) = components(all);
    // Positions not validated here (a sample) cannot be checked: they count as founded.
    let mut founded = vec![true; SIZE];
    for v in all.iter() {
        if matches!(
            v.claim.and_then(|k| k.interval.exact()),
            Some(Wdl::Win | Wdl::Loss)
        ) {
            founded[v.index] = false;
        }
    }
    close(all, &mut founded);
    let open = |all: &[Validation], founded: &[bool]| {
        all.iter()
            .enumerate()
            .filter(|(_, v)| {
                v.outcome == Outcome::Confirmed && v.support.is_some() && !founded[v.index]
            })
            .map(|(k, _)| k)
            .collect::<Vec<_>>()
    };
    let mut summary = CycleSummary {
        traced: all.iter().filter(|v| v.support.is_some()).count(),
        components,
        on_cycles,
        unfounded_first: open(all, &founded).len(),
        ..CycleSummary::default()
    };
    loop {
        let candidates = open(all, &founded);
        if candidates.is_empty() {
            break;
        }
        summary.rounds += 1;
        let trusting = RulesAndTables {
            founded: Some(&founded),
            ..*knowledge
        };
        let again: Vec<(usize, Validation)> = candidates
            .par_iter()
            .map(|&k| (k, validate(&trusting, effort, all[k].index)))
            .collect();
        let mut changed = false;
        for (k, v) in again {
            if v.outcome == Outcome::Confirmed && v.support.is_some() {
                founded[v.index] = true;
                all[k].support = v.support;
                changed = true;
            } else if v.outcome.flags() {
                summary.rejected += 1;
                all[k].outcome = v.outcome;
                all[k].found = v.found;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        close(all, &mut founded);
    }
    for k in open(all, &founded) {
        all[k].outcome = Outcome::Unfounded;
        summary.unfounded += 1;
    }
    summary.draws_refuted = check_draws(all, knowledge, effort, &founded);
    summary
}

/// §3.4's draw cycles: a wrong draw can rest on other wrong draws and so pass its own check.
/// Every confirmed draw is searched again with no draw claim trusted (and only founded wins and
/// losses): a forced win or loss found then refutes it. A true draw can never be refuted so,
/// since every trusted claim is founded; a wrong one is when the refutation fits the effort.
fn check_draws(
    all: &mut [Validation],
    knowledge: &RulesAndTables,
    effort: Effort,
    founded: &[bool],
) -> usize {
    let draws: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            v.outcome == Outcome::Confirmed
                && v.claim.and_then(|k| k.interval.exact()) == Some(Wdl::Draw)
        })
        .map(|(k, _)| k)
        .collect();
    let distrusting = RulesAndTables {
        founded: Some(founded),
        trust_draws: false,
        ..*knowledge
    };
    let refuted: Vec<(usize, Validation)> = draws
        .par_iter()
        .map(|&k| (k, validate(&distrusting, effort, all[k].index)))
        .filter(|(_, v)| v.outcome.flags())
        .collect();
    for (k, v) in &refuted {
        all[*k].outcome = v.outcome;
        all[*k].found = v.found;
    }
    refuted.len()
}

/// Founds every claim whose support is all founded, until none is left to found.
fn close(all: &[Validation], founded: &mut [bool]) {
    loop {
        let mut changed = false;
        for v in all {
            let Some(support) = &v.support else { continue };
            if !founded[v.index] && support.iter().all(|&t| founded[t as usize]) {
                founded[v.index] = true;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// The strongly connected components with a cycle in the support graph (a component of more
/// than one position, or a position resting on itself), and how many positions they hold.
pub fn components(all: &[Validation]) -> (usize, usize) {
    let mut graph = DiGraph::<usize, ()>::new();
    let mut node: FxHashMap<usize, NodeIndex> = FxHashMap::default();
    for (k, v) in all.iter().enumerate() {
        if v.support.is_some() {
            node.insert(v.index, graph.add_node(k));
        }
    }
    for v in all {
        let Some(support) = &v.support else { continue };
        for target in support {
            if let Some(&to) = node.get(&(*target as usize)) {
                graph.add_edge(node[&v.index], to, ());
            }
        }
    }
    let cyclic: Vec<Vec<NodeIndex>> = petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .filter(|c| c.len() > 1 || graph.contains_edge(c[0], c[0]))
        .collect();
    (cyclic.len(), cyclic.iter().map(Vec::len).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(index: usize, support: &[u32]) -> Validation {
        Validation {
            index,
            claim: None,
            outcome: Outcome::Confirmed,
            found: Some(Wdl::Win),
            via_move: None,
            nodes: 1,
            depth: 1,
            support: Some(support.to_vec()),
        }
    }

    #[test]
    fn components_with_a_cycle_are_counted() {
        // 1 ↔ 2 is a cycle, 3 rests on itself, 4 → 1 rests on the cycle, 5 on nothing.
        let all = [
            claim(1, &[2]),
            claim(2, &[1]),
            claim(3, &[3]),
            claim(4, &[1]),
            claim(5, &[]),
        ];
        assert_eq!(components(&all), (2, 3));
    }

    #[test]
    fn founding_climbs_from_claims_that_rest_on_nothing() {
        let all = [
            claim(1, &[2]),
            claim(2, &[1]),
            claim(4, &[1]),
            claim(5, &[]),
            claim(6, &[5]),
            claim(7, &[6, 5]),
            Validation {
                support: None,
                outcome: Outcome::Contradicted,
                ..claim(3, &[])
            },
            claim(8, &[3, 5]),
        ];
        let mut founded = vec![true; 9];
        for v in &all {
            founded[v.index] = false;
        }
        // 3 was rejected by its validation: 8 resting on it stays unfounded.
        close(&all, &mut founded);
        let open: Vec<usize> = (1..9).filter(|&i| !founded[i]).collect();
        assert_eq!(open, [1, 2, 3, 4, 8]);
    }
}

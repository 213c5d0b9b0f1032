//! `report.md`: the tables of a report, in the order a reader asks the questions (what ran, how
//! did each configuration do, what is each worth against the baseline, how far from the limit).

use std::fmt::Write;

use super::data::RunDir;
use super::depth::MinimalTreeRow;
use super::depth_tail::{TailRow, FACTORS};
use super::format::{estimate, opt, pvalue, share};
use super::paired::{Pair, Paired};
use super::selective::{SelectiveRow, MOVE_COUNTS};
use super::steps::Step;
use super::summary::SummaryRow;
use super::Analysis;

/// The whole report.
pub fn render(run: &RunDir, analysis: &Analysis, figures: &[String]) -> String {
    let mut md = String::new();
    header(&mut md, run, &analysis.baseline);
    summary(&mut md, &analysis.summary);
    engine_speed(&mut md, run, &analysis.summary);
    failures(&mut md, run);
    ablation(&mut md, run, analysis);
    steps(&mut md, &run.suites(), &analysis.steps);
    depth_tails(&mut md, &analysis.depth_tails);
    heinz(&mut md, run, analysis);
    selective(&mut md, run, &analysis.selective);
    minimal_tree(&mut md, run, &analysis.minimal_tree);
    super::measured_minimal::markdown(&mut md, run, &analysis.measured_minimal);
    figure_list(&mut md, figures);
    md
}

fn header(md: &mut String, run: &RunDir, baseline: &str) {
    let m = &run.manifest;
    let _ = writeln!(md, "# Report: {}\n", m.name);
    let _ = writeln!(md, "- command: `{}`", m.provenance.command.join(" "));
    let _ = writeln!(
        md,
        "- engine: {}, commit {}, bench signature {}",
        m.provenance.engine_version,
        m.provenance.git_commit.as_deref().unwrap_or("unknown"),
        m.provenance.bench_signature
    );
    let _ = writeln!(
        md,
        "- host: {}, {} worker threads",
        m.provenance.host, m.threads
    );
    let _ = writeln!(md, "- limits: `{}`", m.limits);
    for s in &m.suites {
        let _ = writeln!(
            md,
            "- suite `{}`: {} positions from `{}` (sha256 {})",
            s.label,
            s.positions,
            s.source,
            &s.sha256[..12.min(s.sha256.len())]
        );
    }
    let _ = writeln!(md, "- baseline: `{baseline}` ({})\n", run.label(baseline));
}

fn summary(md: &mut String, rows: &[SummaryRow]) {
    md.push_str("## Configurations\n\n");
    md.push_str(
        "Nodes count main and quiescence nodes. Time and nodes to solution: when the final, \
        correct move was found and kept, median over solved positions. EBF: nodes of the last \
        iteration over the one before, mean over positions. FHF: share of beta cutoffs made by the \
        first move. QS: quiescence share of all nodes. Failed: jobs whose external engine crashed, \
        hung or spoke garbage (unsolved, left out of every other figure; reasons below). A dash: \
        the engine does not report it (UCI engines report nodes, depth and time only).\n\n",
    );
    md.push_str("| config | values | solved | censored | failed | total nodes | geomean nodes | median nodes to solution | median time to solution | mean EBF | FHF | QS |\n");
    md.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let cells = r.cells().join(" | ");
        let _ = writeln!(
            md,
            "| {} | {} | {}/{} | {cells} |",
            r.config_id, r.values, r.solved, r.positions
        );
    }
    md.push('\n');
    credit(md, rows);
}

/// With more than one engine: each configuration's nodes per second, and why equal nodes do not
/// mean equal work across engines.
fn engine_speed(md: &mut String, run: &RunDir, rows: &[SummaryRow]) {
    let engines: Vec<&str> = rows
        .iter()
        .filter_map(|r| run.engine_of(&r.config_id))
        .collect();
    if engines.iter().all(|e| Some(e) == engines.first()) {
        return;
    }
    md.push_str(
        "## Speed by engine\n\nEach engine counts nodes its own way (what is a node, whether \
         quiescence and TT probes count), so node counts and node limits compare searches within \
         one engine, not across engines: compare engines at equal time. Nodes per second over \
         the configuration's searches:\n\n| config | engine | nodes per second |\n|---|---|---:|\n",
    );
    for r in rows {
        let nps = r.total_nodes as f64 / (r.total_time_ms / 1e3).max(1e-9);
        let _ = writeln!(
            md,
            "| {} | {} | {:.0} |",
            r.config_id,
            run.engine_of(&r.config_id).unwrap_or("builtin"),
            nps
        );
    }
    md.push('\n');
}

/// STS-style scoring where the positions give partial credit: points of the final move, out of
/// the most the positions give.
fn credit(md: &mut String, rows: &[SummaryRow]) {
    if rows.iter().all(|r| r.points.is_none()) {
        return;
    }
    md.push_str(
        "Partial credit (STS `c7`/`c8`: points of the final move, 0 for a move not listed):\n\n",
    );
    md.push_str("| config | values | points | of | score |\n|---|---|---:|---:|---:|\n");
    for r in rows {
        if let (Some(points), Some(max)) = (r.points, r.max_points) {
            let _ = writeln!(
                md,
                "| {} | {} | {points:.0} | {max:.0} | {:.1} % |",
                r.config_id,
                r.values,
                100.0 * points / max.max(1.0)
            );
        }
    }
    md.push('\n');
}

/// Every failed job with its reason.
fn failures(md: &mut String, run: &RunDir) {
    if run.failed.is_empty() {
        return;
    }
    let _ = writeln!(md, "## Failed jobs ({})\n", run.failed.len());
    md.push_str("| config | suite | position | reason |\n|---|---|---|---|\n");
    for r in &run.failed {
        let reason = r.failure.replace('|', "\\|");
        let _ = writeln!(
            md,
            "| {} | {} | {} | {reason} |",
            r.config, r.suite, r.position
        );
    }
    md.push('\n');
}

fn ablation(md: &mut String, run: &RunDir, analysis: &Analysis) {
    let base = &analysis.baseline;
    let _ = writeln!(
        md,
        "## Against the baseline `{base}` ({})\n",
        run.label(base)
    );
    md.push_str("Paired by position. Node ratio = variant / baseline; the geometric mean has a 95 % \
        percentile-bootstrap interval (10,000 resamples of positions, fixed seed). Gained / lost: \
        solved by only the variant / only the baseline; p: exact two-sided McNemar test. A censored \
        search's nodes are a lower bound.\n\n");
    md.push_str("| config | values | pairs | geomean ratio [95 % CI] | median ratio | faster | slower | ≥×2 | ≥×10 | ≥×100 | gained | lost | McNemar p |\n");
    md.push_str("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (config, p) in &analysis.paired {
        let _ = writeln!(
            md,
            "| {config} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            run.label(config),
            p.pairs.len(),
            ratio_ci(p),
            opt(p.median_ratio, 3),
            p.faster,
            p.slower,
            p.at_least(2.0),
            p.at_least(10.0),
            p.at_least(100.0),
            p.gained,
            p.lost,
            pvalue(p.mcnemar_p)
        );
    }
    md.push('\n');
}

fn ratio_ci(p: &Paired) -> String {
    estimate(p.geomean_ratio)
}

fn heinz(md: &mut String, run: &RunDir, analysis: &Analysis) {
    if analysis.heinz.is_empty() {
        return;
    }
    md.push_str("## Heinz table: ΔNodes % / ΔSolved against the baseline, by suite and depth\n\n");
    md.push_str(
        "Nodes of the searches up to each depth, summed over the positions both completed; \
        solved = correct final move found and kept by that depth.\n\n",
    );
    let cells = &analysis.heinz[0].1;
    let _ = write!(md, "| config | values |");
    for c in cells {
        let _ = write!(md, " {} d{} |", c.suite, c.depth);
    }
    let _ = writeln!(md, "\n|---|---|{}", "---:|".repeat(cells.len()));
    for (config, row) in &analysis.heinz {
        let _ = write!(md, "| {config} | {} |", run.label(config));
        for c in row {
            let _ = write!(md, " {:+.1} % / {:+} |", c.delta_nodes_pct, c.delta_solved);
        }
        md.push('\n');
    }
    md.push('\n');
}

fn selective(md: &mut String, run: &RunDir, rows: &[SelectiveRow]) {
    if rows.is_empty() {
        return;
    }
    md.push_str("## Selective deepening: the mechanism\n\n");
    md.push_str("Levels inserted over all positions (dynamic: a node with at most `candidate_limit` \
        legal moves; trivial: a single legal move), the most levels inserted on one path (median over \
        positions / maximum), the share of main-search nodes lying below a dynamic level, and the \
        share of main-search nodes with exactly n legal moves.\n\n");
    let _ = write!(md, "| config | values | dynamic levels | trivial levels | deepest extension (median / max) | nodes below a dynamic level |");
    for n in MOVE_COUNTS {
        let _ = write!(md, " {n} move{} |", if n == 1 { "" } else { "s" });
    }
    let _ = writeln!(
        md,
        "\n|---|---|---:|---:|---:|---:|{}",
        "---:|".repeat(MOVE_COUNTS.count())
    );
    for r in rows {
        let _ = write!(
            md,
            "| {} | {} | {:.0} | {:.0} | {:.0} / {:.0} | {:.1} % |",
            r.config,
            run.label(&r.config),
            r.dyn_levels,
            r.triv_levels,
            r.median_max_extension,
            r.max_extension,
            100.0 * r.below_dyn_share
        );
        for share in &r.move_count_shares {
            let _ = write!(md, " {:.2} % |", 100.0 * share);
        }
        md.push('\n');
    }
    md.push('\n');
}

fn minimal_tree(md: &mut String, run: &RunDir, rows: &[MinimalTreeRow]) {
    if rows.is_empty() {
        return;
    }
    md.push_str("## Distance from the minimal tree (Knuth–Moore)\n\n");
    md.push_str("Mean nodes of the depth-d iteration alone (main + QS) over b^⌈d/2⌉ + b^⌊d/2⌋ − 1, \
        with b the suite's mean number of legal moves at the root. The bound assumes a uniform tree \
        without transpositions or quiescence, so it is a yardstick, not a floor. Depths that fewer than \
        half of a configuration's positions completed are left out.\n\n");
    for suite in run.suites() {
        let of_suite: Vec<&MinimalTreeRow> = rows.iter().filter(|r| r.suite == suite).collect();
        let Some(first) = of_suite.first() else {
            continue;
        };
        let mut depths: Vec<i32> = of_suite.iter().map(|r| r.depth).collect();
        depths.sort_unstable();
        depths.dedup();
        let _ = writeln!(md, "`{suite}`, b = {:.2}:\n", first.branching);
        let _ = write!(md, "| config |");
        for d in &depths {
            let _ = write!(md, " d{d} |");
        }
        let _ = writeln!(md, "\n|---|{}", "---:|".repeat(depths.len()));
        for config in run.config_ids() {
            let _ = write!(md, "| {config} |");
            for d in &depths {
                let cell = of_suite
                    .iter()
                    .find(|r| r.config == config && r.depth == *d);
                let _ = write!(
                    md,
                    " {} |",
                    cell.map_or("-".into(), |r| format!("{:.2}", r.ratio()))
                );
            }
            md.push('\n');
        }
        md.push('\n');
    }
}

fn figure_list(md: &mut String, figures: &[String]) {
    md.push_str("## Figures\n\n");
    for f in figures {
        let _ = writeln!(md, "![{f}]({f}.svg) ([PNG]({f}.png))\n");
    }
}

/// The positions listed per step: enough to name a blowup, few enough to read.
const WORST_PER_STEP: usize = 5;

fn steps(md: &mut String, suites: &[String], steps: &[Step]) {
    let mut axes: Vec<&str> = steps.iter().map(|s| s.axis.as_str()).collect();
    axes.dedup();
    for axis in axes {
        let of_axis: Vec<&Step> = steps.iter().filter(|s| s.axis == axis).collect();
        let _ = writeln!(md, "## Steps along `{axis}`\n");
        md.push_str("Each configuration against its neighbour one value up this axis, all else equal, paired by \
            position: geometric-mean node and CPU-time ratios (95 % bootstrap intervals), median node ratio, \
            positions that grow at least ×2, ×10, ×100, solved gained/lost (exact McNemar p), and the \
            ≥×2 / ≥×10 counts suite by suite. Censored searches count with the nodes they spent (a lower bound).\n\n");
        md.push_str("| other axes | step | pairs | geomean node ratio [95 % CI] | geomean CPU-time ratio [95 % CI] | median ratio | ≥×2 | ≥×10 | ≥×100 | censored after | gained | lost | McNemar p | ≥×2 / ≥×10 by suite |\n");
        md.push_str("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for s in &of_axis {
            let p = &s.paired;
            let time = estimate(p.geomean_time_ratio);
            let by_suite = suites_breakdown(suites, p);
            let _ = writeln!(md, "| {} | {} → {} | {} | {} | {time} | {} | {} | {} | {} | {} | {} | {} | {} | {by_suite} |",
                or_all(&s.context), s.from, s.to, p.pairs.len(), ratio_ci(p), opt(p.median_ratio, 3),
                p.at_least(2.0), p.at_least(10.0), p.at_least(100.0),
                p.pairs.iter().filter(|x| x.censored).count(), p.gained, p.lost, pvalue(p.mcnemar_p));
        }
        growth_frequencies(md, suites, &of_axis);
        let worst: Vec<(&Step, &Pair)> = of_axis
            .iter()
            .flat_map(|s| {
                s.paired
                    .pairs
                    .iter()
                    .rev()
                    .take(WORST_PER_STEP)
                    .filter(|x| x.ratio() >= 2.0)
                    .map(move |x| (*s, x))
            })
            .collect();
        if worst.is_empty() {
            md.push_str("\nNo position grows ×2 or more in any step.\n\n");
            continue;
        }
        let _ = writeln!(
            md,
            "\nThe largest growths of each step (up to {WORST_PER_STEP} with ratio ≥ ×2):\n"
        );
        md.push_str("| other axes | step | suite | position | nodes before | nodes after | ratio | CPU ms before | CPU ms after | FEN |\n");
        md.push_str("|---|---|---|---|---:|---:|---:|---:|---:|---|\n");
        {
            for (s, x) in worst {
                let cap = if x.censored { " (censored)" } else { "" };
                let _ = writeln!(md, "| {} | {} → {} | {} | {} | {:.0} | {:.0}{cap} | ×{:.1} | {:.0} | {:.0} | `{}` |",
                    or_all(&s.context), s.from, s.to, x.suite, x.position, x.base_nodes, x.nodes, x.ratio(),
                    x.base_cpu_ms, x.cpu_ms, if x.fen.is_empty() { "-" } else { &x.fen });
            }
        }
        md.push('\n');
    }
}

/// The growth factors whose frequencies a step reports.
const GROWTHS: [f64; 3] = [2.0, 5.0, 10.0];

/// Each step's share of positions growing ×2, ×5, ×10 or more, with 95 % Wilson intervals, over
/// all positions and suite by suite: the frequency of a blowup, which the worst case cannot give.
fn growth_frequencies(md: &mut String, suites: &[String], steps: &[&Step]) {
    md.push_str("\nHow often a position grows, step by step: the share of positions whose nodes grow at least \
        ×2, ×5, ×10 (count, per cent, 95 % Wilson interval), over all positions and suite by suite. A frequency \
        means something only on positions that were not selected for growing.\n\n");
    md.push_str("| other axes | step | suite | pairs | ≥×2 | ≥×5 | ≥×10 |\n|---|---|---|---:|---|---|---|\n");
    for s in steps {
        let all = std::iter::once(None).chain(suites.iter().map(Some));
        for suite in all {
            let of: Vec<&Pair> = s
                .paired
                .pairs
                .iter()
                .filter(|x| suite.is_none_or(|name| &x.suite == name))
                .collect();
            if of.is_empty() {
                continue;
            }
            let cells: Vec<String> = GROWTHS
                .iter()
                .map(|&f| share(of.iter().filter(|x| x.ratio() >= f).count(), of.len()))
                .collect();
            let _ = writeln!(
                md,
                "| {} | {} → {} | {} | {} | {} |",
                or_all(&s.context),
                s.from,
                s.to,
                suite.map_or("**all**", |n| n.as_str()),
                of.len(),
                cells.join(" | ")
            );
        }
    }
}

/// The cost of completing each depth, step by step (from `iterations.csv`).
fn depth_tails(md: &mut String, rows: &[TailRow]) {
    if rows.is_empty() {
        return;
    }
    md.push_str("## Time to complete each depth, step by step\n\n");
    let _ = writeln!(
        md,
        "For a search to a preselected depth (Fischerle's setting) the question is how often one move \
        takes several times as long. Per position: nodes and wall time until the iteration of that depth \
        completed, after the step over before; quantiles over positions (type 7) and the positions above \
        ×{} and ×{}. Times come from `iterations.csv` (each counted as at least 1 ms: shorter times are mostly timer and scheduling noise) and depend on the \
        machine; node ratios are exact. A search after the step cut by the node cap before the depth counts \
        with what it spent (a lower bound; column *cut*); a position whose search before the step was cut \
        has no ratio and is left out (column *dropped*: the tail is then underestimated).\n",
        FACTORS[0], FACTORS[1]
    );
    md.push_str("| other axes | step | depth | pairs | geomean node ratio | node ratio p50 / p90 / p99 / max | time ratio p50 / p90 / p99 / max | time >×5 | time >×10 | nodes >×5 | nodes >×10 | cut | dropped |\n");
    md.push_str("|---|---|---:|---:|---:|---|---|---|---|---|---|---:|---:|\n");
    for r in rows {
        let q = |t: &super::depth_tail::Tail| {
            format!("{:.2} / {:.2} / {:.2} / {:.1}", t.p50, t.p90, t.p99, t.max)
        };
        let pct = |k: usize| format!("{k} ({:.1} %)", 100.0 * k as f64 / r.pairs.max(1) as f64);
        let _ = writeln!(
            md,
            "| {} | {} → {} | {} | {} | {:.3} | {} | {} | {} | {} | {} | {} | {} | {} |",
            or_all(&r.context),
            r.from,
            r.to,
            r.depth,
            r.pairs,
            r.geomean_nodes,
            q(&r.nodes),
            q(&r.time),
            pct(r.time_over[0]),
            pct(r.time_over[1]),
            pct(r.nodes_over[0]),
            pct(r.nodes_over[1]),
            r.censored,
            r.dropped
        );
    }
    md.push('\n');
}

/// `wac.epd 0/0 · bk.epd 1/0`: positions growing ×2 or more / ×10 or more, per suite.
fn suites_breakdown(suites: &[String], p: &Paired) -> String {
    suites
        .iter()
        .map(|s| {
            let count = |f: f64| {
                p.pairs
                    .iter()
                    .filter(|x| &x.suite == s && x.ratio() >= f)
                    .count()
            };
            format!("{s} {}/{}", count(2.0), count(10.0))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

fn or_all(context: &str) -> &str {
    if context.is_empty() {
        "—"
    } else {
        context
    }
}

//! `report.md`: the tables of a report, in the order a reader asks the questions (what ran, how
//! did each configuration do, what is each worth against the baseline, how far from the limit).

use super::data::RunDir;
use super::depth::MinimalTreeRow;
use super::depth_tail::{TailRow, FACTORS};
use super::format::{estimate, opt, pvalue, share};
use super::md_table::{Align, MdTable};
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
    md.push_str(&format!("# Report: {}\n\n", m.name));
    md.push_str(&format!(
        "- command: `{}`\n",
        m.provenance.command.join(" ")
    ));
    md.push_str(&format!(
        "- engine: {}, commit {}, bench signature {}\n",
        m.provenance.engine_version,
        m.provenance.git_commit.as_deref().unwrap_or("unknown"),
        m.provenance.bench_signature
    ));
    md.push_str(&format!(
        "- host: {}, {} worker threads\n",
        m.provenance.host, m.threads
    ));
    md.push_str(&format!("- limits: `{}`\n", m.limits));
    for s in &m.suites {
        md.push_str(&format!(
            "- suite `{}`: {} positions from `{}` (sha256 {})\n",
            s.label,
            s.positions,
            s.source,
            &s.sha256[..12.min(s.sha256.len())]
        ));
    }
    md.push_str(&format!(
        "- baseline: `{baseline}` ({})\n\n",
        run.label(baseline)
    ));
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
    let mut table = MdTable::new().left("config").left("values").columns(
        [
            "solved",
            "censored",
            "failed",
            "total nodes",
            "geomean nodes",
            "median nodes to solution",
            "median time to solution",
            "mean EBF",
            "FHF",
            "QS",
        ],
        Align::Right,
    );
    for r in rows {
        let mut cells = vec![
            r.config_id.clone(),
            r.values.clone(),
            format!("{}/{}", r.solved, r.positions),
        ];
        cells.extend(r.cells());
        table.row(cells);
    }
    md.push_str(&table.render());
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
         the configuration's searches:\n\n",
    );
    let mut table = MdTable::new()
        .left("config")
        .left("engine")
        .right("nodes per second");
    for r in rows {
        let nps = r.total_nodes as f64 / (r.total_time_ms / 1e3).max(1e-9);
        table.row([
            r.config_id.clone(),
            run.engine_of(&r.config_id).unwrap_or("builtin").to_string(),
            format!("{nps:.0}"),
        ]);
    }
    md.push_str(&table.render());
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
    let mut table = MdTable::new()
        .left("config")
        .left("values")
        .columns(["points", "of", "score"], Align::Right);
    for r in rows {
        if let (Some(points), Some(max)) = (r.points, r.max_points) {
            table.row([
                r.config_id.clone(),
                r.values.clone(),
                format!("{points:.0}"),
                format!("{max:.0}"),
                format!("{:.1} %", 100.0 * points / max.max(1.0)),
            ]);
        }
    }
    md.push_str(&table.render());
    md.push('\n');
}

/// Every failed job with its reason.
fn failures(md: &mut String, run: &RunDir) {
    if run.failed.is_empty() {
        return;
    }
    md.push_str(&format!("## Failed jobs ({})\n\n", run.failed.len()));
    let mut table = MdTable::new().columns(["config", "suite", "position", "reason"], Align::Left);
    for r in &run.failed {
        // The reason is the engine's own words; the table escapes a `|` in them.
        table.row([
            r.config.clone(),
            r.suite.clone(),
            r.position.clone(),
            r.failure.clone(),
        ]);
    }
    md.push_str(&table.render());
    md.push('\n');
}

fn ablation(md: &mut String, run: &RunDir, analysis: &Analysis) {
    let base = &analysis.baseline;
    md.push_str(&format!(
        "## Against the baseline `{base}` ({})\n\n",
        run.label(base)
    ));
    md.push_str("Paired by position. Node ratio = variant / baseline; the geometric mean has a 95 % \
        percentile-bootstrap interval (10,000 resamples of positions, fixed seed). Gained / lost: \
        solved by only the variant / only the baseline; p: exact two-sided McNemar test. A censored \
        search's nodes are a lower bound.\n\n");
    let mut table = MdTable::new()
        .left("config")
        .left("values")
        .right("pairs")
        .left("geomean ratio [95 % CI]")
        .columns(
            [
                "median ratio",
                "faster",
                "slower",
                "≥×2",
                "≥×10",
                "≥×100",
                "gained",
                "lost",
                "McNemar p",
            ],
            Align::Right,
        );
    for (config, p) in &analysis.paired {
        table.row([
            config.clone(),
            run.label(config),
            p.pairs.len().to_string(),
            ratio_ci(p),
            opt(p.median_ratio, 3),
            p.faster.to_string(),
            p.slower.to_string(),
            p.at_least(2.0).to_string(),
            p.at_least(10.0).to_string(),
            p.at_least(100.0).to_string(),
            p.gained.to_string(),
            p.lost.to_string(),
            pvalue(p.mcnemar_p),
        ]);
    }
    md.push_str(&table.render());
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
    let mut table = MdTable::new().left("config").left("values").columns(
        analysis.heinz[0]
            .1
            .iter()
            .map(|c| format!("{} d{}", c.suite, c.depth)),
        Align::Right,
    );
    for (config, row) in &analysis.heinz {
        let cells = row
            .iter()
            .map(|c| format!("{:+.1} % / {:+}", c.delta_nodes_pct, c.delta_solved));
        table.row([config.clone(), run.label(config)].into_iter().chain(cells));
    }
    md.push_str(&table.render());
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
    let mut table = MdTable::new()
        .left("config")
        .left("values")
        .columns(
            [
                "dynamic levels",
                "trivial levels",
                "deepest extension (median / max)",
                "nodes below a dynamic level",
            ],
            Align::Right,
        )
        .columns(
            MOVE_COUNTS.map(|n| format!("{n} move{}", if n == 1 { "" } else { "s" })),
            Align::Right,
        );
    for r in rows {
        let counters = [
            r.config.clone(),
            run.label(&r.config),
            format!("{:.0}", r.dyn_levels),
            format!("{:.0}", r.triv_levels),
            format!("{:.0} / {:.0}", r.median_max_extension, r.max_extension),
            format!("{:.1} %", 100.0 * r.below_dyn_share),
        ];
        let shares = r
            .move_count_shares
            .iter()
            .map(|share| format!("{:.2} %", 100.0 * share));
        table.row(counters.into_iter().chain(shares));
    }
    md.push_str(&table.render());
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
        md.push_str(&format!("`{suite}`, b = {:.2}:\n\n", first.branching));
        let mut table = MdTable::new()
            .left("config")
            .columns(depths.iter().map(|d| format!("d{d}")), Align::Right);
        for config in run.config_ids() {
            let ratios: Vec<String> = depths
                .iter()
                .map(|d| {
                    of_suite
                        .iter()
                        .find(|r| r.config == config && r.depth == *d)
                        .map_or("-".into(), |r| format!("{:.2}", r.ratio()))
                })
                .collect();
            table.row(std::iter::once(config).chain(ratios));
        }
        md.push_str(&table.render());
        md.push('\n');
    }
}

fn figure_list(md: &mut String, figures: &[String]) {
    md.push_str("## Figures\n\n");
    for f in figures {
        md.push_str(&format!("{}\n\n", super::figures::markdown(f, f)));
    }
}

/// The positions listed per step: enough to name a blowup, few enough to read.
const WORST_PER_STEP: usize = 5;

fn steps(md: &mut String, suites: &[String], steps: &[Step]) {
    let mut axes: Vec<&str> = steps.iter().map(|s| s.axis.as_str()).collect();
    axes.dedup();
    for axis in axes {
        let of_axis: Vec<&Step> = steps.iter().filter(|s| s.axis == axis).collect();
        md.push_str(&format!("## Steps along `{axis}`\n\n"));
        md.push_str("Each configuration against its neighbour one value up this axis, all else equal, paired by \
            position: geometric-mean node and CPU-time ratios (95 % bootstrap intervals), median node ratio, \
            positions that grow at least ×2, ×10, ×100, solved gained/lost (exact McNemar p), and the \
            ≥×2 / ≥×10 counts suite by suite. Censored searches count with the nodes they spent (a lower bound).\n\n");
        let mut table = MdTable::new()
            .left("other axes")
            .left("step")
            .right("pairs")
            .left("geomean node ratio [95 % CI]")
            .left("geomean CPU-time ratio [95 % CI]")
            .columns(
                [
                    "median ratio",
                    "≥×2",
                    "≥×10",
                    "≥×100",
                    "censored after",
                    "gained",
                    "lost",
                    "McNemar p",
                ],
                Align::Right,
            )
            .left("≥×2 / ≥×10 by suite");
        for s in &of_axis {
            let p = &s.paired;
            table.row([
                or_all(&s.context).to_string(),
                format!("{} → {}", s.from, s.to),
                p.pairs.len().to_string(),
                ratio_ci(p),
                estimate(p.geomean_time_ratio),
                opt(p.median_ratio, 3),
                p.at_least(2.0).to_string(),
                p.at_least(10.0).to_string(),
                p.at_least(100.0).to_string(),
                p.pairs.iter().filter(|x| x.censored).count().to_string(),
                p.gained.to_string(),
                p.lost.to_string(),
                pvalue(p.mcnemar_p),
                suites_breakdown(suites, p),
            ]);
        }
        md.push_str(&table.render());
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
        md.push_str(&format!(
            "\nThe largest growths of each step (up to {WORST_PER_STEP} with ratio ≥ ×2):\n\n"
        ));
        let mut table = MdTable::new()
            .columns(["other axes", "step", "suite", "position"], Align::Left)
            .columns(
                [
                    "nodes before",
                    "nodes after",
                    "ratio",
                    "CPU ms before",
                    "CPU ms after",
                ],
                Align::Right,
            )
            .left("FEN");
        for (s, x) in worst {
            let cap = if x.censored { " (censored)" } else { "" };
            table.row([
                or_all(&s.context).to_string(),
                format!("{} → {}", s.from, s.to),
                x.suite.clone(),
                x.position.clone(),
                format!("{:.0}", x.base_nodes),
                format!("{:.0}{cap}", x.nodes),
                format!("×{:.1}", x.ratio()),
                format!("{:.0}", x.base_cpu_ms),
                format!("{:.0}", x.cpu_ms),
                format!("`{}`", if x.fen.is_empty() { "-" } else { &x.fen }),
            ]);
        }
        md.push_str(&table.render());
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
    let mut table = MdTable::new()
        .columns(["other axes", "step", "suite"], Align::Left)
        .right("pairs")
        .columns(["≥×2", "≥×5", "≥×10"], Align::Left);
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
            let shares = GROWTHS
                .iter()
                .map(|&f| share(of.iter().filter(|x| x.ratio() >= f).count(), of.len()));
            let counts = [
                or_all(&s.context).to_string(),
                format!("{} → {}", s.from, s.to),
                suite.map_or("**all**", |n| n.as_str()).to_string(),
                of.len().to_string(),
            ];
            table.row(counts.into_iter().chain(shares));
        }
    }
    md.push_str(&table.render());
}

/// The cost of completing each depth, step by step (from `iterations.csv`).
fn depth_tails(md: &mut String, rows: &[TailRow]) {
    if rows.is_empty() {
        return;
    }
    md.push_str("## Time to complete each depth, step by step\n\n");
    md.push_str(&format!(
        "For a search to a preselected depth (Fischerle's setting) the question is how often one move \
        takes several times as long. Per position: nodes and wall time until the iteration of that depth \
        completed, after the step over before; quantiles over positions (type 7) and the positions above \
        ×{} and ×{}. Times come from `iterations.csv` (each counted as at least 1 ms: shorter times are mostly timer and scheduling noise) and depend on the \
        machine; node ratios are exact. A search after the step cut by the node cap before the depth counts \
        with what it spent (a lower bound; column *cut*); a position whose search before the step was cut \
        has no ratio and is left out (column *dropped*: the tail is then underestimated).\n\n",
        FACTORS[0], FACTORS[1]
    ));
    let mut table = MdTable::new()
        .left("other axes")
        .left("step")
        .columns(["depth", "pairs", "geomean node ratio"], Align::Right)
        .columns(
            [
                "node ratio p50 / p90 / p99 / max",
                "time ratio p50 / p90 / p99 / max",
                "time >×5",
                "time >×10",
                "nodes >×5",
                "nodes >×10",
            ],
            Align::Left,
        )
        .columns(["cut", "dropped"], Align::Right);
    for r in rows {
        let q = |t: &super::depth_tail::Tail| {
            format!("{:.2} / {:.2} / {:.2} / {:.1}", t.p50, t.p90, t.p99, t.max)
        };
        let pct = |k: usize| format!("{k} ({:.1} %)", 100.0 * k as f64 / r.pairs.max(1) as f64);
        table.row([
            or_all(&r.context).to_string(),
            format!("{} → {}", r.from, r.to),
            r.depth.to_string(),
            r.pairs.to_string(),
            format!("{:.3}", r.geomean_nodes),
            q(&r.nodes),
            q(&r.time),
            pct(r.time_over[0]),
            pct(r.time_over[1]),
            pct(r.nodes_over[0]),
            pct(r.nodes_over[1]),
            r.censored.to_string(),
            r.dropped.to_string(),
        ]);
    }
    md.push_str(&table.render());
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

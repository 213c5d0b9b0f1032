#!/usr/bin/env python3
"""Joins results/heuristics/ into Heinz-style tables (Markdown on stdout), one per baseline:
`fischerle` with one switch on at a time, and `modern` with one switch toggled at a time. Every
figure is the switch's worth — with it against without it — whichever side had it: the node ratio
at depth 6 (from each grid's paired.csv: geometric mean with its 95 % bootstrap interval over all
positions; per suite the plain geometric mean), the CPU-time ratio, the solved positions gained and
lost, and the Elo with its 95 % interval from each match's pairings.csv (fixed nodes; under the
short clock for `modern`).

    scripts/heuristics_table.py results/heuristics > results/heuristics/table.md
    scripts/heuristics_table.py results/heuristics --readme   # table.md and the README's figures
    scripts/heuristics_table.py results/heuristics --check    # fails, with a diff, when either is stale

The README's figures (between its `<!-- strength-note -->` and `<!-- findings -->` markers) are
written by heuristics_readme.py from the same run directories.
"""
import contextlib
import io
import sys
from pathlib import Path

from heuristics_readme import elo_value, nodes
from study_stats import rows


def elo(match):
    """The switch's Elo as the table shows it."""
    value = elo_value(match)
    if value is None or isinstance(value, str):
        return value or "-"
    return f"{value[0]:+.1f} ± {value[1]:.1f}"


def table(root, grids, matches):
    """One baseline's table: a row per switch, sorted by node ratio."""
    names = sorted(p.name for p in (root / grids).iterdir()) if (root / grids).exists() else []
    measured = [(n, nodes(root / grids / n)) for n in names]
    measured = [(n, m) for n, m in measured if m]
    if not measured:
        print(f"(not run: no grids in {root / grids})")
        return
    suites = sorted({s for _, (_, c) in measured for s in c["suites"]})
    elo_heads = [head for head, _ in matches]
    print("| switch | nodes, all positions [95 % CI] | "
          + " | ".join(suites)
          + " | CPU time | solved gained/lost (McNemar p) | "
          + " | ".join(elo_heads) + " |")
    print("|---|---|" + "---:|" * len(suites) + "---:|---|" + "---|" * len(matches))
    for name, (_, c) in sorted(measured, key=lambda m: m[1][0]):
        by_suite = " | ".join(f"{c['suites'].get(s, float('nan')):.3f}" for s in suites)
        elos = " | ".join(elo(root / folder / name) for _, folder in matches)
        print(f"| {name} | {c['ratio']} | {by_suite} | {c['time']} | {c['solved']} | {elos} |")


def main(root):
    root = Path(root)
    print("## Against `fischerle`, one switch on at a time\n")
    print("Node and time ratios at depth 6 (with / without); Elo at 10,000 nodes a move, 200 pairs, "
          "openings of seed 0.\n")
    table(root, "nodes", [("Elo at 10k nodes", "elo")])
    print("\nA dash: not played — the evaluation cache plays the same games at fixed nodes by "
          "construction. `lmr_cut_node` refines LMR, which `fischerle` lacks: `modern` only.")
    print("\n## Against `modern`, one switch toggled at a time\n")
    print("Node and time ratios at depth 6 (with / without); Elo at 10,000 nodes a move (200 pairs) "
          "and at 0.5 s + 5 ms a game (100 pairs), openings of seed 1000.\n")
    table(root, "nodes-modern", [("Elo at 10k nodes", "ablation"), ("Elo at 0.5+0.005", "clock")])
    print("\nPer suite: the plain geometric mean of the node ratio. Solved: the `bm`/`am` rule at "
          "depth 6; gained/lost by the side with the switch.")


def summary_json(root):
    """summary.json (`harness index`'s row): the switch the findings rank first at fixed nodes
    against `fischerle`, the largest under the clock inside `modern`, and the weakest."""
    from heuristics_readme import NAMES, Figures, ranked
    from readme_blocks import summary
    f = Figures(root)
    elo = ranked(f, "elo", [p.name for p in (root / "elo").iterdir()])
    top, worst = elo[0], elo[-1]
    clock = ranked(f, "clock", [p.name for p in (root / "clock").iterdir()])[0]
    e, h = (round(x, 1) for x in f.elo("elo", top))
    pairs = rows(root / "elo" / top / "pairings.csv")[0]["pairs"]
    name = NAMES[top][0].upper() + NAMES[top][1:]
    under = "" if clock == top else f"{NAMES[clock]} "
    lowest = "loses the most" if f.elo("elo", worst)[0] < 0 else "gains the least"
    return summary(
        "What is each search heuristic worth in this engine, against `fischerle` and inside `modern`, at "
        "equal depth, equal nodes and under a clock?",
        f"{name} is worth the most ({f.e('elo', top)} Elo against `fischerle` at 10,000 nodes, "
        f"{under}{f.e('clock', clock)} inside `modern` at 0.5 s + 5 ms), {NAMES[worst]} {lowest} "
        f"({f.e('elo', worst)}), and a switch's worth changes with its company and budget.",
        (f"{NAMES[top]} against `fischerle`, 10,000 nodes, {pairs} pairs", e, round(e - h, 1), round(e + h, 1),
         "Elo"))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0] if args else "results/heuristics")
    if not {"--readme", "--check"} & set(sys.argv[1:]):
        main(root)
        sys.exit(0)
    import heuristics_readme
    from readme_blocks import SUMMARY_JSON, sync
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        main(root)
    sync({root / "table.md": (None, captured.getvalue()),
          root / "README.md": (heuristics_readme.blocks(root), None),
          root / SUMMARY_JSON: (None, summary_json(root))}, "--check" in sys.argv[1:])

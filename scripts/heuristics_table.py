#!/usr/bin/env python3
"""Joins results/heuristics/ into one Heinz-style table (Markdown on stdout): per switch, the node
ratio at depth 6 against `fischerle` (from each grid's paired.csv: geometric mean with its 95 %
bootstrap interval, over all positions; per suite the plain geometric mean), the solved positions
gained and lost, and the Elo at fixed nodes against `fischerle` and, for the switches `modern`
keeps, against `modern` with the switch off (from each match's pairings.csv).

    scripts/heuristics_table.py results/heuristics > results/heuristics/table.md
"""
import csv
import math
import sys
from pathlib import Path


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def per_suite(grid):
    """Plain geometric mean of the node ratio (variant c01 / baseline c00), suite by suite."""
    by = {}
    for r in rows(grid / "runs.csv"):
        by.setdefault((r["suite"], r["position_id"]), {})[r["config_id"]] = float(r["nodes"])
    logs = {}
    for (suite, _), n in by.items():
        if "c00" in n and "c01" in n:
            logs.setdefault(suite, []).append(math.log(max(n["c01"], 1) / max(n["c00"], 1)))
    return {s: math.exp(sum(v) / len(v)) for s, v in logs.items()}


def elo(match, second_on):
    """The switch's Elo from a match's pairings.csv: `second_on` when the second player has it."""
    path = match / "pairings.csv"
    if not path.exists():
        return "-"
    r = rows(path)[0]
    if not r["elo"]:
        return f"{r['wins']}-{r['draws']}-{r['losses']} (no finite Elo)"
    sign = 1 if second_on else -1
    return f"{sign * float(r['elo']):+.1f} ± {float(r['elo95']):.1f}"


def main(root):
    root = Path(root)
    suites = None
    lines = []
    for grid in sorted((root / "nodes").iterdir()):
        name = grid.name
        paired = rows(grid / "paired.csv")[0]
        suite_ratios = per_suite(grid)
        if suites is None:
            suites = sorted(suite_ratios)
        ratio = float(paired["geomean_ratio"])
        ci = f"{ratio:.3f} [{float(paired['ratio_low']):.3f}, {float(paired['ratio_high']):.3f}]"
        time = float(paired["geomean_time_ratio"])
        by_suite = " | ".join(f"{suite_ratios.get(s, float('nan')):.3f}" for s in suites)
        solved = f"+{paired['gained']} −{paired['lost']} (p {float(paired['mcnemar_p']):.2g})"
        vs_fischerle = elo(root / "elo" / name, second_on=True)
        # Ablation matches play modern with the switch (first) against modern without (second).
        vs_modern = elo(root / "ablation" / name, second_on=False)
        lines.append((ratio, f"| {name} | {ci} | {by_suite} | {time:.3f} | {solved} | {vs_fischerle} | {vs_modern} |"))
    print("| switch | nodes at depth 6 vs fischerle, all positions [95 % CI] | "
          + " | ".join(suites)
          + " | CPU time ratio | solved gained/lost (McNemar p) | Elo at 10k nodes, on vs fischerle | Elo at 10k nodes, modern vs modern without it |")
    print("|---|---|" + "---:|" * len(suites) + "---:|---|---|---|")
    for _, line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/heuristics")

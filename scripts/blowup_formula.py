#!/usr/bin/env python3
"""The Knuth–Moore "formula" column of results/dynlimit-blowup/minimal with and without quiescence,
from its iterations.csv(.gz) and runs.csv(.gz). The report divides the mean nodes of the depth-d
iteration alone — main search plus quiescence — by b^⌈d/2⌉ + b^⌊d/2⌋ − 1 (b the suite's mean number
of root moves), a formula that counts no quiescence nodes. This prints that ratio (it should
reproduce the report) beside the same ratio for the main search alone (the iteration's `nodes` less
its `qnodes`) and the quiescence share of the iteration's nodes.

    scripts/blowup_formula.py results/dynlimit-blowup/minimal 6
"""
import json
import math
import sys
from pathlib import Path

from study_stats import rows


def main(run, depth):
    manifest = json.loads((run / "manifest.json").read_text())
    runs = rows(run / "runs.csv")
    configs = sorted({r["config_id"] for r in runs})
    label = {r["config_id"]: r.get("preset", r["config_id"]) for r in runs}
    roots = {}
    for r in runs:
        roots.setdefault(r["suite"], {})[r["position_id"]] = int(r["root_moves"])
    its = [r for r in rows(run / "iterations.csv") if int(r["depth"]) == depth]
    print(f"{run}, depth {depth} ({manifest.get('name', '')})\n")
    print("| config | suite | b | positions | iteration / formula, main + QS (the report's) "
          "| main search alone / formula | QS share of the iteration |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for suite, moves in sorted(roots.items()):
        b = sum(moves.values()) / len(moves)
        formula = b ** math.ceil(depth / 2) + b ** math.floor(depth / 2) - 1
        for c in configs:
            sel = [r for r in its if r["config_id"] == c and r["suite"] == suite]
            total = sum(int(r["nodes"]) for r in sel) / len(sel)
            qs = sum(int(r["qnodes"]) for r in sel) / len(sel)
            print(f"| {label[c]} | {suite} | {b:.2f} | {len(sel)} | {total / formula:.2f} "
                  f"| {(total - qs) / formula:.3f} | {qs / total:.0%} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))

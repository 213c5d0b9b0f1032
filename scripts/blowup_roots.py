#!/usr/bin/env python3
"""A check of the trees' finding on positions not chosen by their growth: every position of the two
unselected populations in results/dynlimit-blowup/steps (depth 6), grouped by its root's number of
legal moves, with the node ratio from candidate limit 3 to 4 (geometric mean, median, share at
× 5 or more). Markdown on stdout. Reads runs.csv or its committed runs.csv.gz.

    scripts/blowup_roots.py results/dynlimit-blowup/steps > results/dynlimit-blowup/why/roots.md
"""
import json
import math
import statistics
import sys
from pathlib import Path

from study_stats import rows


def main(run):
    manifest = json.loads((run / "manifest.json").read_text())
    ids = {c["values"][0]: c["id"] for c in manifest["configs"]}
    by = {}
    for r in rows(run / "runs.csv"):
        if r["suite"].startswith("unselected"):
            by.setdefault(r["position_id"], {})[r["config_id"]] = r
    groups = {"1 to 3": [], "exactly 4": [], "5 or more": []}
    for cfg in by.values():
        if ids["3"] in cfg and ids["4"] in cfg:
            moves = int(cfg[ids["3"]]["root_moves"])
            ratio = int(cfg[ids["4"]]["nodes"]) / int(cfg[ids["3"]]["nodes"])
            key = "exactly 4" if moves == 4 else ("1 to 3" if moves < 4 else "5 or more")
            groups[key].append(ratio)
    print("# Growth from candidate limit 3 to 4 by the root's legal moves (all unselected positions)\n")
    print("| legal moves at the root | positions | geometric mean × | median × | × 5 or more |")
    print("|---|---:|---:|---:|---:|")
    for key, ratios in groups.items():
        mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        big = sum(x >= 5 for x in ratios)
        print(f"| {key} | {len(ratios)} | {mean:.2f} | {statistics.median(ratios):.2f} | {big} ({100 * big / len(ratios):.1f} %) |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

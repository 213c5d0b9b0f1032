#!/usr/bin/env python3
"""What each player of a committed match did per move, from its games.csv(.gz) alone: moves, mean
nodes, mean depth and mean time per move, weighted by moves (each game row gives the per-move means
of both sides). For results/tuning, it shows whether the tuned player reached more depth than the
start under the clock.

    scripts/tuning_clock_depth.py results/tuning/focus/verify-tc0.5+0.005
"""
import json
import sys
from pathlib import Path

from study_stats import rows


def sums(run):
    """{player id: [moves, Σ nodes, Σ depth, Σ time]} over a match's moves, and {id: name}."""
    names = {}
    manifest = json.loads((run / "manifest.json").read_text())
    for p in manifest.get("players", []):
        names[p["id"]] = p["name"]
    out = {}
    for r in rows(run / "games.csv"):
        for side in ("white", "black"):
            n = int(r[f"{side}_moves"])
            s = out.setdefault(r[side], [0, 0.0, 0.0, 0.0])
            s[0] += n
            s[1] += n * float(r[f"{side}_mean_nodes"])
            s[2] += n * float(r[f"{side}_mean_depth"])
            s[3] += n * float(r[f"{side}_mean_time_ms"])
    return out, names


def means(run):
    """{player name: (mean nodes, mean depth, mean time in ms) per move}."""
    totals, names = sums(run)
    return {names.get(p, p): (s[1] / s[0], s[2] / s[0], s[3] / s[0]) for p, s in totals.items()}


def main(run):
    totals, names = sums(run)
    print(f"## {run}\n")
    print("| player | name | moves | mean nodes | mean depth | mean time (ms) |")
    print("|---|---|---:|---:|---:|---:|")
    for p in sorted(totals):
        n, nodes, depth, ms = totals[p]
        print(f"| {p} | {names.get(p, '')} | {n} | {nodes / n:.0f} | {depth / n:.2f} | {ms / n:.2f} |")
    print()


if __name__ == "__main__":
    for d in sys.argv[1:]:
        main(Path(d))

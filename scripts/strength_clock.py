#!/usr/bin/env python3
"""How each engine of a clock match spends its clock (Markdown on stdout), from the match's
moves.csv and games.csv (or their .gz) and its manifest: per game, the share of the time it was
given (base + increment × its moves) that it used; per move, the median time and the share of
moves whose search stopped inside an iteration (the builtin engine reports `iteration_cut`; a UCI
engine does not); the mean depth of the last completed iteration in the same games.

    scripts/strength_clock.py results/strength/clock-use/stc results/strength/clock-use/ltc
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from study_stats import rows


def clock_of(limit):
    """(base ms, increment ms) of `tc=BASE+INC` in seconds."""
    base, inc = limit.removeprefix("tc=").split("+")
    return float(base) * 1000, float(inc) * 1000


def summary(run):
    manifest = json.loads((run / "manifest.json").read_text())
    names = {p["id"]: p["name"] for p in manifest["players"]}
    limits = {p["id"]: p["limit"] for p in manifest["players"]}
    per_game = defaultdict(lambda: defaultdict(list))
    for r in rows(run / "moves.csv"):
        per_game[r["player"]][(r["index"], r["game"])].append(r)
    table = []
    for player, games in sorted(per_game.items()):
        base, inc = clock_of(limits[player])
        used = [sum(float(m["time_ms"]) for m in ms) / (base + inc * len(ms)) for ms in games.values()]
        moves = [m for ms in games.values() for m in ms]
        cut = [m["iteration_cut"] for m in moves if m.get("iteration_cut") not in (None, "")]
        table.append({
            "engine": names[player],
            "limit": limits[player].removeprefix("tc="),
            "games": len(games),
            "moves": len(moves),
            "used": statistics.median(used),
            "used_max": max(used),
            "ms": statistics.median(float(m["time_ms"]) for m in moves),
            "cut": (sum(c == "true" for c in cut) / len(cut)) if cut else None,
            "depth": statistics.mean(int(m["depth"]) for m in moves),
        })
    return table


def main(runs):
    print("| clock | engine | games | moves | clock used per game: median (max) | median time per move | moves with an iteration cut | mean depth |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for run in runs:
        for t in summary(Path(run)):
            cut = "not reported" if t["cut"] is None else f"{100 * t['cut']:.1f} %"
            print(f"| {t['limit']} | {t['engine']} | {t['games']} | {t['moves']:,} | "
                  f"{100 * t['used']:.0f} % ({100 * t['used_max']:.0f} %) | {t['ms']:.0f} ms | {cut} | {t['depth']:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Joins results/cross-engine/ into its tables (Markdown on stdout): for every heuristic both
engines have, ours (toggled inside `modern`) beside Toga II's (toggled inside its defaults) — the
node ratio at equal depth with its interval and the engine's speed, the Elo at a fixed budget and
under one clock — each figure as *with the heuristic against without it*, with the verdict the
protocol defines (results/cross-engine/README.md); then the round robin's joint ratings on the
scale of Stockfish's calibrated `UCI_Elo` players.

    scripts/cross_engine_table.py results/cross-engine > results/cross-engine/table.md
    scripts/cross_engine_table.py results/cross-engine --readme   # table.md and the README's figures
    scripts/cross_engine_table.py results/cross-engine --check    # fails, with a diff, when either is stale

The README's figures (between its `<!-- ablation -->`, `<!-- plain-words -->` and
`<!-- strength -->` markers) are written by cross_engine_readme.py from the same run directories.
"""
import contextlib
import io
import math
import sys
from pathlib import Path

from cross_engine_readme import ANCHOR_PREFIX, ENGINES, HEURISTICS, measured, with_holm
from study_stats import rows

# The significance level of the table's stars and verdicts (after Holm).
ALPHA = 0.05


def show_elo(m, budget):
    value = m[budget]
    if value is None:
        return "not run"
    if isinstance(value, str):
        return value
    star = " *" if m.get(budget + "_p", 1) < ALPHA else ""
    return f"{value[0]:+.1f} ± {value[1]:.1f}{star}"


def direction(node):
    """-1 (fewer nodes), +1 (more) or 0 (interval contains 1) of a node grid's ratio."""
    if not node:
        return None
    low, high = node[1]["interval"]
    return -1 if high < 1 else 1 if low > 1 else 0


def elo_verdict(a, b, pa, pb):
    """The protocol's words for two Elo figures of one heuristic and budget."""
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return "-"
    overlap = a[0] - a[1] <= b[0] + b[1] and b[0] - b[1] <= a[0] + a[1]
    significant = pa < ALPHA and pb < ALPHA
    if significant and (a[0] > 0) == (b[0] > 0):
        return "transfers"
    if overlap:
        return "agree (intervals overlap)"
    return "differ"


def verdicts(table, name):
    ours, toga = table["ours", name], table["toga", name]
    d = (direction(ours["nodes"]), direction(toga["nodes"]))
    if None in d:
        nodes_word = "-"
    elif d[0] == d[1] and d[0] != 0:
        nodes_word = "same direction"
    else:
        nodes_word = "differ"
    return [nodes_word] + [
        elo_verdict(ours[b], toga[b], ours.get(b + "_p", 1), toga.get(b + "_p", 1))
        for b in ("fixed", "clock")
    ]


def ablation_table(root):
    table = measured(root)
    with_holm(table)
    print("## Each shared heuristic, in both engines\n")
    print("With the heuristic against without it, toggled inside each engine as it plays. Nodes: "
          "paired geometric-mean ratio at equal depth over the same 1,437 positions (ours at "
          "depth 6, Toga at depth 8), 95 % bootstrap interval; NPS: the engine's speed with the heuristic on, over "
          "every move of its clock match (ours in-process, Toga as it reports over UCI — node "
          "counts mean different things in the two engines, so compare ratios, not counts). Elo: ours at 10,000 nodes a move, Toga at "
          "depth 6 a move (it ignores `go nodes`), 100 pairs; both at 2 s + 0.02 s a game, 50 "
          "pairs; 95 % intervals from the pentanomial variance. * = significant after Holm "
          "across the table's Elo figures.\n")
    print("| heuristic | engine | nodes [95 % CI] | NPS | Elo, fixed budget | Elo, 2+0.02 |")
    print("|---|---|---|---:|---|---|")
    for name, label in HEURISTICS:
        for engine, engine_label in ENGINES:
            m = table[engine, name]
            ratio = m["nodes"][1]["ratio"] if m["nodes"] else "not run"
            speed = f"{m['nps'] / 1000:.0f}k" if m["nps"] else "-"
            print(f"| {label} | {engine_label} | {ratio} | {speed} | {show_elo(m, 'fixed')} | "
                  f"{show_elo(m, 'clock')} |")
    print("\n## What transfers\n")
    print("Nodes: *same direction* when both intervals lie on the same side of 1. Elo: *transfers* "
          "when both are significant (Holm) with the same sign; *agree* when the intervals "
          "overlap; *differ* when they do not.\n")
    print("| heuristic | nodes | Elo, fixed budget | Elo, 2+0.02 |")
    print("|---|---|---|---|")
    for name, label in HEURISTICS:
        print(f"| {label} | " + " | ".join(verdicts(table, name)) + " |")
    print("\nThe fixed-budget verdicts compare unlike budgets: at a fixed depth (Toga) a pruning "
          "can only cost play — it searches less of the same tree — while at fixed nodes (ours) "
          "it can also buy depth. Only the clock column compares like with like.")


def strength_table(root):
    path = root / "strength" / "ratings.csv"
    if not path.exists():
        print("\n## Strength\n\n(not run)")
        return
    ratings = rows(path)
    anchors = [(float(r["elo"]), int(r["name"][len(ANCHOR_PREFIX):]))
               for r in ratings if r["name"].startswith(ANCHOR_PREFIX)]
    shift = sum(n - e for e, n in anchors) / len(anchors)
    misfit = math.sqrt(sum((e + shift - n) ** 2 for e, n in anchors) / len(anchors))
    print("\n## How strong the measured engine is\n")
    print(f"Joint ratings of the round robin at 2 s + 0.02 s a game, shifted by {shift:+.0f} so "
          "that the three Stockfish `UCI_Elo` anchors have the mean of their nominal ratings "
          f"(root-mean-square misfit of the anchors about their nominal values: {misfit:.0f}). "
          "95 % bootstrap intervals. The scale is the anchors' (CCRL 40/4 by Stockfish's "
          "calibration at 60 s + 0.6 s), at a clock 30 times shorter.\n")
    print("| player | rating [95 % CI] | games | score |")
    print("|---|---|---:|---:|")
    for r in sorted(ratings, key=lambda r: -float(r["elo"])):
        e, lo, hi = (float(r[k]) + shift for k in ("elo", "elo_lo", "elo_hi"))
        score = float(r["points"]) / int(r["games"])
        print(f"| {r['name']} | {e:.0f} [{lo:.0f}, {hi:.0f}] | {r['games']} | {score:.1%} |")
    lopsided = [f"{p['first_name']}–{p['second_name']} ({p['wins']}-{p['draws']}-{p['losses']})"
                for p in rows(root / "strength" / "pairings.csv")
                if int(p["draws"]) == 0 and (int(p["wins"]) == 0 or int(p["losses"]) == 0)]
    print("\nPairings at 0 % or 100 % (W-D-L of the second player): "
          + ("; ".join(lopsided) if lopsided else "none") + ".")


def main(root):
    root = Path(root)
    ablation_table(root)
    strength_table(root)


def summary_json(root):
    """summary.json (`harness index`'s row): null move's worth in both engines under the clock (the
    budget that compares like with like), and the round robin's gap from `modern` to Toga II."""
    from heuristics_readme import minus
    from readme_blocks import summary
    table = measured(root)
    with_holm(table)
    ours, toga = table["ours", "null_move"], table["toga", "null_move"]
    both = ours["clock_p"] < ALPHA and toga["clock_p"] < ALPHA
    e, h = (round(x, 1) for x in toga["clock"])
    pairs = rows(root / "clock" / "toga-null_move" / "pairings.csv")[0]["pairs"]
    ratings = {r["name"]: float(r["elo"]) for r in rows(root / "strength" / "ratings.csv")}
    gap = round(ratings["toga-ii-3.0"] - ratings["modern"], -1)
    return summary(
        "Does a heuristic's worth measured in our engine transfer to another engine, Toga II 3.0, and how strong "
        "is the engine measured?",
        "At 2 s + 0.02 s the verdicts transfer or agree (null move "
        + minus(f"{ours['clock'][0]:+.1f} ± {ours['clock'][1]:.1f} Elo in ours, {e:+.1f} ± {h:.1f} in Toga II")
        + f"{', both significant' if both else ''}), at fixed budgets they do not; `modern` is about "
        f"{gap:,.0f} Elo below Toga II.",
        (f"null move's worth in Toga II, 2 s + 0.02 s, {pairs} pairs", e, round(e - h, 1), round(e + h, 1), "Elo"))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0] if args else "results/cross-engine")
    if not {"--readme", "--check"} & set(sys.argv[1:]):
        main(root)
        sys.exit(0)
    import cross_engine_readme
    from readme_blocks import SUMMARY_JSON, sync
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        main(root)
    sync({root / "table.md": (None, captured.getvalue()),
          root / "README.md": (cross_engine_readme.blocks(root), None),
          root / SUMMARY_JSON: (None, summary_json(root))}, "--check" in sys.argv[1:])

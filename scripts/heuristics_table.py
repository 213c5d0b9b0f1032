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
import csv
import gzip
import math
import sys
from pathlib import Path

# The values that turn a switch off (scripts/heuristics.sh, off_value; Toga II's `Never` in
# scripts/cross-engine.sh).
OFF = ("off", "false", "always", "never")


def rows(path):
    """A CSV's rows; a per-row table of a finished run may be committed gzipped (NAME.gz)."""
    packed = path.with_name(path.name + ".gz")
    if not path.exists() and packed.exists():
        with gzip.open(packed, "rt", newline="") as f:
            return list(csv.DictReader(f))
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def is_off(values):
    """Whether a player or config named like `lmr=off` (its `--set` values) has the switch off."""
    return values.rsplit("=", 1)[-1].lower() in OFF


def per_suite(grid, invert):
    """Plain geometric mean of the node ratio (with / without), suite by suite."""
    by = {}
    for r in rows(grid / "runs.csv"):
        by.setdefault((r["suite"], r["position_id"]), {})[r["config_id"]] = float(r["nodes"])
    logs = {}
    for (suite, _), n in by.items():
        if "c00" in n and "c01" in n:
            log = math.log(max(n["c01"], 1) / max(n["c00"], 1))
            logs.setdefault(suite, []).append(-log if invert else log)
    return {s: math.exp(sum(v) / len(v)) for s, v in logs.items()}


def nodes(grid):
    """(ratio, cells) for one grid: baseline c00 against the variant c01, as with / without."""
    if not (grid / "paired.csv").exists():
        return None
    p = rows(grid / "paired.csv")[0]
    invert = is_off(p["values"])
    flip = (lambda x: 1 / x) if invert else (lambda x: x)
    ratio = flip(float(p["geomean_ratio"]))
    low, high = sorted((flip(float(p["ratio_low"])), flip(float(p["ratio_high"]))))
    time = flip(float(p["geomean_time_ratio"]))
    gained, lost = (p["lost"], p["gained"]) if invert else (p["gained"], p["lost"])
    return ratio, {
        "ratio": f"{ratio:.3f} [{low:.3f}, {high:.3f}]",
        "interval": (low, high),
        "suites": per_suite(grid, invert),
        "time": f"{time:.3f}",
        "solved": f"+{gained} −{lost} (p {float(p['mcnemar_p']):.2g})",
    }


def elo_value(match):
    """(Elo, 95 % half-width) of the switch (with against without) from a match's pairings.csv;
    None when not played, the W-D-L text when the Elo is not finite."""
    path = match / "pairings.csv"
    if not path.exists():
        return None
    r = rows(path)[0]
    if not r["elo"]:
        return f"{r['wins']}-{r['draws']}-{r['losses']} (no finite Elo)"
    sign = -1 if is_off(r["second_name"]) else 1
    return sign * float(r["elo"]) + 0.0, float(r["elo95"])  # + 0.0: no "-0.0"


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


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0] if args else "results/heuristics")
    if not {"--readme", "--check"} & set(sys.argv[1:]):
        main(root)
        sys.exit(0)
    import heuristics_readme
    from readme_blocks import sync
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        main(root)
    sync({root / "table.md": (None, captured.getvalue()),
          root / "README.md": (heuristics_readme.blocks(root), None)}, "--check" in sys.argv[1:])

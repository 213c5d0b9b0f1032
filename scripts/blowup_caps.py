#!/usr/bin/env python3
"""How the node cap of results/dynlimit-blowup/steps (20 M nodes, depth 6) bears on part 1's tail
shares, from its runs.csv(.gz) alone. Per candidate limit: the searches the cap cut (`censored`).
Per step: the shares of positions whose nodes grow ≥ ×2, ×5, ×10 as the report counts them (a cut
search counts with the nodes it spent, so a pair whose search after the step was cut has a ratio
that is only a lower bound), how many pairs had the search after the step cut (and of those, how
many also before), and the share each threshold would have if every pair cut after the step grew
past it (the largest the share can be).

    scripts/blowup_caps.py results/dynlimit-blowup/steps
"""
import sys
from collections import Counter
from pathlib import Path

from study_stats import rows

KEY = "selective.candidate_limit"
THRESHOLDS = (2, 5, 10)


def main(run):
    data = rows(run / "runs.csv")
    cut = Counter(r[KEY] for r in data if r["censored"] == "true")
    limits = sorted({r[KEY] for r in data}, key=int)
    print("Searches cut by the node cap, per limit: "
          + ", ".join(f"{v}: {cut[v]}" for v in limits) + "\n")
    by = {}
    for r in data:
        by.setdefault(r["position_id"], {})[r[KEY]] = r
    print("| step | pairs | " + " | ".join(f"≥ ×{t} as reported" for t in THRESHOLDS)
          + " | cut after the step (also before) | " + " | ".join(f"≥ ×{t} at most" for t in THRESHOLDS) + " |")
    print("|---|---:|" + "---:|" * (2 * len(THRESHOLDS) + 1))
    for a, b in zip(limits, limits[1:]):
        pairs = [(p[a], p[b]) for p in by.values() if a in p and b in p]
        n = len(pairs)
        ratio = [int(y["nodes"]) / int(x["nodes"]) for x, y in pairs]
        after = [y["censored"] == "true" for _, y in pairs]
        both = sum(x["censored"] == "true" and y["censored"] == "true" for x, y in pairs)
        reported = [sum(q >= t for q in ratio) for t in THRESHOLDS]
        most = [sum(q >= t or c for q, c in zip(ratio, after)) for t in THRESHOLDS]
        print(f"| {a} → {b} | {n} | " + " | ".join(f"{k} ({100 * k / n:.1f} %)" for k in reported)
              + f" | {sum(after)} ({both}) | " + " | ".join(f"{k} ({100 * k / n:.1f} %)" for k in most) + " |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

#!/usr/bin/env python3
"""Is a tuned parameter's drift larger than the tune's own noise? For each tune directory of
results/tuning (its manifest.json and tune.csv), per parameter: the drift (final − start) / C_END as
`report.md` gives it, the noise of that drift, z = drift / noise, the chance of |drift| > 1 C_END
from noise alone, the two-sided p-value and Holm's correction across the tune's parameters (α = 0.05).
`harness tune`'s report computes the same (play/src/tune/drift.rs); this script is the independent
implementation harness/tests/tune_cli.rs compares it with on every committed tune.

The noise estimate. SPSA moves θ by R_k·c_k·(W − L)_k·Δ_k each iteration (play/src/tune/spsa.rs),
Δ_k = ±1 at random. If the parameter did not matter, W − L would not depend on Δ_k and the steps
would be independent with mean 0, so the drift's standard deviation is

    noise = sqrt(Σ_k (R_k·c_k)² · mean_k((W − L)_k²)) / C_END,

R_k·c_k from the columns `r:` and `c:` of tune.csv, (W − L)_k from its column `result` (its mean
square over the tune's iterations: the variance of W − L, a little over it if some parameter does
matter, so the estimate errs toward more noise). The clip at the range's ends is ignored, except
that a parameter starting at a bound (qsearch.see_prune at 0) can only drift one way: a walk clipped
at 0 ends like the walk's maximum, P(max > x) = 2·P(walk > x) (reflection principle), which is the
two-sided p-value below.

    scripts/tuning_drift.py results/tuning/modern results/tuning/focus results/tuning/toga
"""
import csv
import json
import math
import sys
from pathlib import Path

from study_stats import holm

ALPHA = 0.05


def two_sided(z):
    return math.erfc(abs(z) / math.sqrt(2))




def drifts(d):
    """(iterations, mean (W − L)², [(key, start, final, drift, noise, z, chance, p, Holm p)]) of
    one tune directory."""
    params = json.loads((d / "manifest.json").read_text())["plan"]["params"]
    rows = list(csv.DictReader(open(d / "tune.csv", newline="")))
    mean_sq = sum(float(r["result"]) ** 2 for r in rows) / len(rows) if rows else 0.0
    out = []
    for p in params:
        key = p["key"]
        steps = sum((float(r[f"r:{key}"]) * float(r[f"c:{key}"])) ** 2 for r in rows)
        noise = math.sqrt(steps * mean_sq) / p["c_end"]
        final = float(rows[-1][f"theta:{key}"]) if rows else p["start"]
        drift = (final - p["start"]) / p["c_end"]
        # No noise means no step was taken (no iteration, or every W − L was 0): no drift either,
        # as play/src/tune/drift.rs has it.
        z = drift / noise if noise > 0 else 0.0
        chance = two_sided(1 / noise) if noise > 0 else 0.0
        out.append((key, p["start"], final, drift, noise, z, chance, two_sided(z)))
    adjusted = holm([o[7] for o in out])
    return len(rows), mean_sq, [o + (h,) for o, h in zip(out, adjusted)]


def main(dirs):
    for d in map(Path, dirs):
        iterations, mean_sq, out = drifts(d)
        print(f"## {d} ({iterations} iterations, mean (W − L)² = {mean_sq:.2f})\n")
        print("| parameter | drift (C_END) | noise (C_END) | z | P(abs drift > 1) by chance | p | Holm p | beyond noise? |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for key, _, _, drift, noise, z, chance, p, h in out:
            verdict = "yes" if h < ALPHA else "no"
            chance = f"{chance:.0%}" if chance >= 0.01 else "< 1%"
            print(f"| `{key}` | {drift:+.2f} | {noise:.2f} | {z:+.2f} | {chance} | {p:.3f} | {h:.3f} | {verdict} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])

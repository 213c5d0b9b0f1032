#!/usr/bin/env python3
"""Recomputes, from a run directory's committed tables alone and without the harness's code, two
statistics of its design and ladder reports, and compares them with what the reports say:

1. a ladder's one family for Holm's correction (`DIR/ladder.json`): each effect's trend (the
   weighted least-squares slope of Elo on log2 budget, weights 1/se^2, p from z = slope / se),
   then Holm (study_stats.holm) across every effect's p of every rung (ladder.csv's `p`) and every
   trend; against ladder.csv's `p_holm` and the report's `p (Holm, ladder)` column;
2. a design's best combination chosen on half A and estimated on half B (each design directory:
   the ladder's rungs or DIR itself): every game of an opening in one half, half A the openings
   whose id's FNV-1a hash is even; the
   model rating = sum of beta times level products fitted by Bradley-Terry with Davidson's draws
   (Newton's method, numpy) to each half; the combination of the full 2^k with the highest rating
   on half A, its rating on half B over the average of all 2^k, and the in-sample best's in-sample
   rating; against the report's two figures (to the 0.1 Elo it prints).

Exit status 1 on any mismatch.

    scripts/design_checks.py results/factorial/design results/strength/design
"""
import csv
import gzip
import itertools
import json
import math
import re
import sys
from pathlib import Path

import numpy as np

from study_stats import holm, report_tables

ELO = 400 / math.log(10)



def opening_half(opening):
    """True for half A: the FNV-1a hash of the opening's id is even."""
    h = 0xcbf29ce484222325
    for b in opening.encode():
        h = ((h ^ b) * 0x100000001b3) % (1 << 64)
    return h % 2 == 0

def trends(rows):
    """(effect, slope, se, p) per effect, in first-appearance order."""
    names = list(dict.fromkeys(r["effect"] for r in rows))
    out = []
    for n in names:
        pts = [(float(r["log2_budget"]), float(r["elo"]), float(r["se"])) for r in rows if r["effect"] == n]
        w = np.array([1 / s**2 for _, _, s in pts])
        x, y = np.array([p[0] for p in pts]), np.array([p[1] for p in pts])
        mx, my = (w * x).sum() / w.sum(), (w * y).sum() / w.sum()
        sxx = (w * (x - mx) ** 2).sum()
        slope, se = (w * (x - mx) * (y - my)).sum() / sxx, math.sqrt(1 / sxx)
        out.append((n, slope, se, math.erfc(abs(slope / se) / math.sqrt(2))))
    return out


def report_column(d, header):
    """The cells of the column `header` of the first table of d's report (its report.json) that has
    it, by row label (without the report's ` **` mark of a significant effect)."""
    for table in report_tables(d):
        if header in table["columns"]:
            col = table["columns"].index(header)
            return {row[0].replace(" **", ""): row[col] for row in table["rows"]}
    return {}


def split_half_shown(d):
    """What d's report says of its best combination (*The best combination*, as data in its
    `best.json`): the one chosen on half A with its Elo estimated on half B, the in-sample one with
    its Elo, each as the report shows it."""
    best = json.loads((d / "best.json").read_text())
    split, inside = best["split_half"], best["in_sample"]
    return split["combination"], f"{split['elo']:+.1f}", inside["combination"], inside["shown"]


def pvalue(p):
    """As the harness prints a p (Rust's exponent has no leading zero: 2.5e-4)."""
    if p < 1e-16:
        return "< 1e-16"
    return re.sub(r"e-0*", "e-", f"{p:.1e}") if p < 0.001 else f"{p:.3f}"


def check_ladder(d):
    rows = list(csv.DictReader(open(d / "ladder.csv", newline="")))
    t = trends(rows)
    tested = [r for r in rows if r["p"] != ""]
    adjusted = holm([float(r["p"]) for r in tested] + [x[3] for x in t])
    bad = 0
    for r, a in zip(tested, adjusted):
        if not math.isclose(float(r["p_holm"]), a, rel_tol=1e-9, abs_tol=1e-15):
            print(f"  {r['effect']} at {r['rung']}: ladder.csv p_holm {r['p_holm']}, recomputed {a}")
            bad += 1
    shown = report_column(d, "p (Holm, ladder)")
    for (name, _, _, _), a in zip(t, adjusted[len(tested):]):
        if shown.get(name) != pvalue(a):
            print(f"  trend {name}: report {shown.get(name)}, recomputed {pvalue(a)}")
            bad += 1
    print(f"{d}: one family of {len(adjusted)} ({len(tested)} effects, {len(t)} trends): "
          f"{'agrees' if not bad else f'{bad} mismatches'}; marked real: "
          f"{sum(a < 0.05 for a in adjusted)}")
    return bad


def fit(x, games):
    """Effects in Elo (2 beta) of model matrix x fitted to games (i, j, score of i)."""
    i, j, s = (np.array([g[k] for g in games]) for k in range(3))
    a = (x[i.astype(int)] - x[j.astype(int)]) / 2
    win, loss, draw = (s == 1.0) * 1.0, (s == 0.0) * 1.0, (s == 0.5) * 1.0
    p = x.shape[1]
    theta = np.zeros(p + 1)
    rate = min(max(draw.mean(), 1e-6), 1 - 1e-6)
    theta[-1] = math.log(2 * rate / (1 - rate))

    def ll_g_h(th):
        u, nu = a @ th[:p], math.exp(th[-1])
        ep, em = np.exp(u), np.exp(-u)
        den = ep + em + nu
        ll = np.sum((win - loss) * u + draw * th[-1] - np.log(den))
        du, dn = win - loss - (ep - em) / den, draw - nu / den
        huu = -((ep + em) * den - (ep - em) ** 2) / den**2
        h = np.zeros((p + 1, p + 1))
        h[:p, :p] = (a * huu[:, None]).T @ a
        h[:p, -1] = h[-1, :p] = a.T @ ((ep - em) * nu / den**2)
        h[-1, -1] = np.sum(-(nu * den - nu**2) / den**2)
        return ll, np.concatenate([a.T @ du, [dn.sum()]]), h

    ll, g, h = ll_g_h(theta)
    for _ in range(100):
        step = np.linalg.solve(h, -g)
        t = 1.0
        while True:
            trial = theta + t * step
            l2, g2, h2 = ll_g_h(trial)
            if l2 >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        theta, ll, g, h = trial, l2, g2, h2
        if np.max(np.abs(t * step)) < 1e-12:
            break
    return 2 * theta[:p] * ELO


def check_design(d):
    m = json.loads((d / "manifest.json").read_text())
    f = m["factorial"]
    names = [x["name"] for x in f["factors"]]
    k = len(names)
    terms = [(i,) for i in range(k)] + list(itertools.combinations(range(k), 2))
    row = lambda lv: [np.prod([lv[i] for i in t]) for t in terms]
    point_name = lambda lv: "".join(("+" if l > 0 else "-") + n for n, l in zip(names, lv))
    by_name = {point_name(p): p for p in f["points"]}
    ids = {p["id"]: n for n, p in enumerate(m["players"])}
    x = np.array([row(by_name[p["name"]]) for p in m["players"]], dtype=float)
    plain = d / "games.csv"
    rows = list(csv.DictReader(open(plain, newline="") if plain.exists()
                               else gzip.open(d / "games.csv.gz", "rt", newline="")))
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    halves = {True: [], False: []}
    for r in rows:
        g = (ids[r["white"]], ids[r["black"]], score[r["result"]])
        halves[opening_half(r["opening"])].append(g)
    combos = list(itertools.product([-1, 1], repeat=k))
    theta = lambda e, lv: sum(ei / 2 * np.prod([lv[i] for i in t]) for ei, t in zip(e, terms))
    best = max(combos, key=lambda lv: theta(fit(x, halves[True]), lv))
    held_out = theta(fit(x, halves[False]), best)
    everything = fit(x, halves[True] + halves[False])
    inside = max(combos, key=lambda lv: theta(everything, lv))
    got = (point_name(best), f"{held_out:+.1f}", point_name(inside), f"{theta(everything, inside):+.1f}")
    shown = split_half_shown(d)
    ok = got == shown
    print(f"{d}: split-half {got[0]} {got[1]}, in-sample {got[2]} {got[3]} "
          f"({len(halves[True]) // 2} + {len(halves[False]) // 2} pairs): "
          f"{'agrees' if ok else f'report says {shown}'}")
    return 0 if ok else 1


def main(dirs):
    bad = 0
    for d in map(Path, dirs):
        if (d / "ladder.json").exists():
            bad += check_ladder(d)
            rungs = json.loads((d / "ladder.json").read_text())["rungs"]
            for r in rungs:
                bad += check_design(d / r.replace("=", "-"))
        else:
            bad += check_design(d)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1:])

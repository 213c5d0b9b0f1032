#!/usr/bin/env python3
"""Three checks of results/factorial from its committed tables alone:

1. Holm's correction across all 63 effects of the three rungs (21 each) instead of per rung: the
   raw p of every effect from design/nodes-*/effects.csv, adjusted once across the 63; every effect
   that passes either correction is listed with both adjusted p;
2. the openings: how many distinct openings each rung's games.csv and verify/games.csv played, and
   how many of the verification's openings the design also played;
3. whether the model's best combination (best.txt) is one of the design's 32 points (the
   manifest's `factorial.points`).

    scripts/factorial_checks.py results/factorial
"""
import csv
import gzip
import json
import sys
from pathlib import Path

from study_stats import holm

ALPHA = 0.05




def openings(run):
    with gzip.open(run / "games.csv.gz", "rt", newline="") as f:
        return {r["opening"] for r in csv.DictReader(f)}


def main(root):
    rungs = sorted((root / "design").glob("nodes-*"), key=lambda d: int(d.name.split("-")[1]))
    effects = []
    for rung in rungs:
        for r in csv.DictReader(open(rung / "effects.csv", newline="")):
            effects.append((rung.name, r["effect"], float(r["elo"]), float(r["p"]), float(r["p_holm"])))
    across = holm([e[3] for e in effects])
    print(f"1. {len(effects)} effects in {len(rungs)} rungs; passing Holm (p < {ALPHA}) per rung or across all:\n")
    print("| rung | effect | Elo | p | Holm p, per rung (21) | Holm p, across all (63) |")
    print("|---|---|---:|---:|---:|---:|")
    for (rung, name, elo, p, per_rung), all_ in zip(effects, across):
        if per_rung < ALPHA or all_ < ALPHA:
            print(f"| {rung} | {name} | {elo:+.1f} | {p:.2g} | {per_rung:.2g} | {all_:.2g} |")
    print(f"\npassing per rung: {sum(e[4] < ALPHA for e in effects)}; "
          f"passing across all {len(effects)}: {sum(a < ALPHA for a in across)}\n")

    book = json.loads((rungs[0] / "manifest.json").read_text())["book"]
    design = set()
    print(f"2. the book: {book['source']}, {book['openings']} openings, order {book['order']}")
    for rung in rungs:
        o = openings(rung)
        design |= o
        print(f"   {rung.name}: {len(o)} distinct openings")
    v = openings(root / "verify")
    print(f"   verify: {len(v)} distinct openings, {len(v & design)} of them also played in the design\n")

    factorial = json.loads((rungs[0] / "manifest.json").read_text())["factorial"]
    keys = [f["key"] for f in factorial["factors"]]
    best = {}
    for line in (root / "best.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            k, val = line.split("=", 1)
            best[k.strip()] = 1 if val.strip() == "on" else -1
    point = [best[k] for k in keys]
    played = point in factorial["points"]
    print(f"3. best.txt as a point ({', '.join(f'{k} {s:+d}' for k, s in zip(keys, point))}): "
          f"{'one' if played else 'not one'} of the design's {len(factorial['points'])} points "
          f"(generators {factorial['generators']})")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

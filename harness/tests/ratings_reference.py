"""An independent fit of the joint ratings for tests/ratings_cli.rs (standard library only).

Reads a match's games.csv and the anchor's id; prints `id elo` per player and `nu value`.
Davidson's model written from the paper's form, P(i beats j) = pi_i / (pi_i + pi_j + nu sqrt(pi_i
pi_j)), and maximised by cyclic one-coordinate Newton steps with numerical derivatives — not the
harness's joint Newton step on analytic features — until no coordinate moves by 1e-8.
"""
import csv
import math
import sys

games = list(csv.DictReader(open(sys.argv[1], newline="")))
anchor = sys.argv[2]
ids = sorted({g["white"] for g in games} | {g["black"] for g in games})
# Per ordered pair (white, black): counts of 1-0, 0-1, draws.
tally = {}
for g in games:
    key = (g["white"], g["black"])
    t = tally.setdefault(key, [0, 0, 0])
    t[{"1-0": 0, "0-1": 1, "1/2-1/2": 2}[g["result"]]] += 1

free = [p for p in ids if p != anchor] + ["nu"]
x = {p: 0.0 for p in free}
x["nu"] = math.log(0.5)


def loglik(x):
    total = 0.0
    for (a, b), (wa, wb, d) in tally.items():
        pa = math.exp(x.get(a, 0.0))
        pb = math.exp(x.get(b, 0.0))
        nu = math.exp(x["nu"])
        den = pa + pb + nu * math.sqrt(pa * pb)
        total += wa * math.log(pa / den) + wb * math.log(pb / den)
        total += d * math.log(nu * math.sqrt(pa * pb) / den)
    return total


h = 1e-4
for sweep in range(5000):
    moved = 0.0
    for p in free:
        base = x[p]
        f0 = loglik(x)
        x[p] = base + h
        fp = loglik(x)
        x[p] = base - h
        fm = loglik(x)
        d1 = (fp - fm) / (2 * h)
        d2 = (fp - 2 * f0 + fm) / (h * h)
        step = -d1 / d2 if d2 < 0 else 0.1 * d1
        x[p] = base + step
        moved = max(moved, abs(step))
    if moved < 1e-8:
        break

print(anchor, 0.0)
for p in ids:
    if p != anchor:
        print(p, x[p] * 400 / math.log(10))
print("nu", math.exp(x["nu"]))

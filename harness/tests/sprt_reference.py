"""An independent reference for `harness sprt`: the generalized SPRT of fishtest's LLRcalc
(expectation statistic for logistic Elo, t-value statistic for normalized Elo) and its Elo
estimates, written from the published formulas with the standard library only (bisection instead
of scipy's brentq). Takes lines `MODEL ELO0 ELO1 c1,c2,...` as its argument and prints
`LLR ELO NELO` for each."""

import math
import sys

NELO_PER_T = 800 / math.log(10)


def stats(pdf):
    s = sum(p * a for a, p in pdf)
    return s, sum(p * (a - s) ** 2 for a, p in pdf)


def secular(pdf):
    v = min(a for a, _ in pdf)
    w = max(a for a, _ in pdf)
    lo, hi = -1 / w + 1e-9, -1 / v - 1e-9
    f = lambda x: sum(p * a / (1 + x * a) for a, p in pdf)
    for _ in range(300):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_expected(pdf, s):
    x = secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def mle_t_value(pdf, ref, t):
    n = len(pdf)
    mle = [(a, 1 / n) for a, _ in pdf]
    for _ in range(10):
        prev = mle
        mu, var = stats(mle)
        sigma = var ** 0.5
        shifted = [(a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = secular(shifted)
        mle = [(pdf[i][0], pdf[i][1] / (1 + x * shifted[i][0])) for i in range(n)]
        if max(abs(prev[i][1] - mle[i][1]) for i in range(n)) < 1e-9:
            break
    return mle


def to_pdf(counts):
    cells = [c if c > 0 else 1e-3 for c in counts]
    n = sum(cells)
    return n, [(i / (len(cells) - 1), c / n) for i, c in enumerate(cells)]


def llr(model, elo0, elo1, counts):
    n, pdf = to_pdf(counts)
    if model == "logistic":
        score = lambda e: 1 / (1 + 10 ** (-e / 400))
        h0, h1 = mle_expected(pdf, score(elo0)), mle_expected(pdf, score(elo1))
    else:
        scale = 2 ** 0.5 if len(counts) == 5 else 1
        h0, h1 = (mle_t_value(pdf, 0.5, e / NELO_PER_T * scale) for e in (elo0, elo1))
    return n * sum(p * (math.log(q1[1]) - math.log(q0[1])) for (_, p), q0, q1 in zip(pdf, h0, h1))


def estimate(counts):
    n = sum(counts)
    pdf = [(i / (len(counts) - 1), c / n) for i, c in enumerate(counts)]
    mu, var = stats(pdf)
    per_game = 2 if len(counts) == 5 else 1
    return -400 * math.log10(1 / mu - 1), (mu - 0.5) / (per_game * var) ** 0.5 * NELO_PER_T


for line in sys.argv[1].splitlines():
    model, elo0, elo1, counts = line.split()
    counts = [int(c) for c in counts.split(",")]
    e, ne = estimate(counts)
    print(f"{llr(model, float(elo0), float(elo1), counts):.9f} {e:.9f} {ne:.9f}")

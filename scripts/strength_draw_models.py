#!/usr/bin/env python3
"""How much the round robin of results/cross-engine/strength says about the gap between Toga II and
`modern`, from its games.csv(.gz) alone:

1. the joint ratings under two draw models, by maximum likelihood, `modern` = 0:
   Bradley–Terry with Davidson's draws (what the harness's `ratings.csv` reports; reproduced here
   as a check) and Bradley–Terry with a draw counted as half a win for each side (the model of a
   plain score);
2. how far Toga II's rating moves when any single game is left out (both models; refits whose
   maximum lies at infinity, because leaving the game out gives a player 0 % or 100 %, are counted
   and left out of the range);
3. the openings: how many distinct ones the 28 pairings played.

    scripts/strength_draw_models.py results/cross-engine/strength
"""
import csv
import gzip
import json
import math
import sys
from pathlib import Path

import numpy as np

ELO = 400 / math.log(10)
ANCHOR, FOCUS = "modern", "toga-ii-3.0"


def games(run):
    plain = run / "games.csv"
    f = open(plain, newline="") if plain.exists() else gzip.open(run / "games.csv.gz", "rt", newline="")
    return list(csv.DictReader(f))


def tallies(rows, ids):
    """Per game: (white index, black index, score of white)."""
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    return np.array([(ids[r["white"]], ids[r["black"]], score[r["result"]]) for r in rows])


def fit(t, players, anchor, davidson):
    """θ (nats, anchor 0) by Newton's method; None if the maximum lies at infinity."""
    i, j, s = t[:, 0].astype(int), t[:, 1].astype(int), t[:, 2]
    free = [p for p in range(players) if p != anchor]
    dim = len(free) + (1 if davidson else 0)
    col = {p: k for k, p in enumerate(free)}
    # Design: u = (θ_i − θ_j) / 2 for Davidson's form, d = θ_i − θ_j for the plain one.
    a = np.zeros((len(t), dim))
    index = np.full(players, -1)
    index[free] = [col[p] for p in free]
    games = np.arange(len(t))
    white, black = index[i], index[j]
    a[games[white >= 0], white[white >= 0]] += 1
    a[games[black >= 0], black[black >= 0]] -= 1
    draw = (s == 0.5).astype(float)
    win, loss = (s == 1.0).astype(float), (s == 0.0).astype(float)
    x = np.zeros(dim)
    if davidson:
        rate = min(max(draw.mean(), 1e-6), 1 - 1e-6)
        x[-1] = math.log(2 * rate / (1 - rate))

    def ll_grad_hess(x):
        th = a[:, : len(free)] @ x[: len(free)]
        if not davidson:
            p = 1 / (1 + np.exp(-th))
            ll = np.sum(s * np.log(p) + (1 - s) * np.log(1 - p))
            g = a.T @ (s - p)
            h = -(a * (p * (1 - p))[:, None]).T @ a
            return ll, g, h
        u, nu = th / 2, math.exp(x[-1])
        ep, em = np.exp(u), np.exp(-u)
        d = ep + em + nu
        ll = np.sum(win * u - loss * u + draw * x[-1] - np.log(d))
        du = win - loss - (ep - em) / d
        dn = draw - nu / d
        huu = -((ep + em) * d - (ep - em) ** 2) / d**2
        hun = (ep - em) * nu / d**2
        hnn = -(nu * d - nu**2) / d**2
        at = a[:, : len(free)] / 2
        g = np.concatenate([at.T @ du, [dn.sum()]])
        h = np.zeros((dim, dim))
        h[:-1, :-1] = (at * huu[:, None]).T @ at
        h[:-1, -1] = h[-1, :-1] = at.T @ hun
        h[-1, -1] = hnn.sum()
        return ll, g, h

    ll, g, h = ll_grad_hess(x)
    for _ in range(200):
        try:
            step = np.linalg.solve(h, -g)
        except np.linalg.LinAlgError:
            return None
        t_ = 1.0
        while True:
            trial = x + t_ * step
            l2, g2, h2 = ll_grad_hess(trial)
            if l2 >= ll - 1e-12 or t_ < 1e-6:
                break
            t_ /= 2
        moved = np.max(np.abs(t_ * step))
        x, ll, g, h = trial, l2, g2, h2
        if np.max(np.abs(x[: len(free)])) > 30:
            return None
        if moved < 1e-10:
            theta = np.zeros(players)
            theta[free] = x[: len(free)]
            return theta
    return None


def figures(run):
    """The script's figures: {"games", "openings", "pairings", "names" (id → name), "fits"
    (model → {name: Elo}), "left_out" (model → (least, most, the game whose omission gives the
    most, [the games whose omission leaves no finite maximum]), each game (white, black, result,
    opening)}."""
    rows = games(run)
    manifest = json.loads((run / "manifest.json").read_text())
    names = {p["id"]: p["name"] for p in manifest["players"]}
    order = sorted(names)
    ids = {p: k for k, p in enumerate(order)}
    t = tallies(rows, ids)
    n = len(order)
    anchor = order.index(next(p for p in order if names[p] == ANCHOR))
    focus = order.index(next(p for p in order if names[p] == FOCUS))
    out = {"games": len(rows), "openings": sorted({r["opening"] for r in rows}),
           "pairings": len({r["pairing"] for r in rows}), "fits": {}, "left_out": {}}
    for label, dav in (("Davidson's draws", True), ("draws as half a win", False)):
        theta = fit(t, n, anchor, dav)
        out["fits"][label] = {names[order[p]]: theta[p] * ELO for p in range(n)}
        values, unbounded = [], []
        for g in range(len(t)):
            theta = fit(np.delete(t, g, axis=0), n, anchor, dav)
            if theta is None:
                r = rows[g]
                unbounded.append((names[r["white"]], names[r["black"]], r["result"], r["opening"]))
            else:
                values.append((theta[focus] * ELO, g))
        top, g = max(values)
        r = rows[g]
        game = (names[r["white"]], names[r["black"]], r["result"], r["opening"])
        out["left_out"][label] = (min(values)[0], top, game, unbounded)
    return out


def main(run):
    f = figures(run)
    players = len(next(iter(f["fits"].values())))
    print(f"{f['games']} games, {players} players; distinct openings: "
          f"{len(f['openings'])} ({', '.join(f['openings'])}), each played by {f['pairings']} pairings\n")
    fits = f["fits"]
    print("| player | " + " | ".join(f"Elo, {k}" for k in fits) + " |")
    print("|---|" + "---:|" * len(fits))
    for name in sorted(fits["Davidson's draws"], key=lambda q: -fits["Davidson's draws"][q]):
        print(f"| {name} | " + " | ".join(f"{m[name]:+.1f}" for m in fits.values()) + " |")
    print(f"\n{FOCUS} against {ANCHOR}, each game left out in turn ({f['games']} refits per model):\n")
    print("| model | all games | least | most | the game whose omission gives the most | refits without a finite maximum (the game left out) |")
    print("|---|---:|---:|---:|---|---:|")
    for label, (least, top, game, unbounded) in f["left_out"].items():
        shown = [f"{w}–{b} {result}" for w, b, result, _ in unbounded]
        print(f"| {label} | {fits[label][FOCUS]:+.1f} | {least:+.1f} | {top:+.1f} | {game[0]}–{game[1]} {game[2]} ({game[3]}) "
              f"| {len(unbounded)}: {'; '.join(shown) or '—'} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

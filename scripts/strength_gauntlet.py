#!/usr/bin/env python3
"""The gauntlet of results/strength (Markdown on stdout): the games of several matches that share a
book joined into one rating list, under two draw models side by side — Bradley–Terry with
Davidson's draws (what `harness match` reports) and Bradley–Terry with a draw counted as half a win
(the model of a plain score) — anchored at one player, each with a 95 % percentile interval from a
bootstrap that resamples *openings*: every game any match played from one opening is one cluster,
drawn whole, because the same opening across pairings is not an independent observation.

    scripts/strength_gauntlet.py --anchor strong results/strength/gauntlet-*
"""
import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from strength_draw_models import fit, games

ELO = 400 / math.log(10)
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
MODELS = (("Davidson's draws", True), ("draws as half a win", False))


def joined(runs):
    """(names in order of appearance, games as (white, black, score, opening)) of every run."""
    names, rows = [], []
    for run in runs:
        manifest = json.loads((run / "manifest.json").read_text())
        local = {p["id"]: p["name"] for p in manifest["players"]}
        for name in local.values():
            if name not in names:
                names.append(name)
        for r in games(run):
            if r["result"] in SCORE:  # an unfinished game ("*") has no score
                rows.append((local[r["white"]], local[r["black"]], SCORE[r["result"]], r["opening"]))
    return names, rows


def ratings(rows, names, anchor, davidson):
    ids = {n: k for k, n in enumerate(names)}
    t = np.array([(ids[w], ids[b], s) for w, b, s, _ in rows])
    theta = fit(t, len(names), ids[anchor], davidson)
    return None if theta is None else theta * ELO


def unrated(rows):
    """Players who won every game or lost every game they played: their rating has no finite
    maximum-likelihood value, so they are named, not rated, and their games left out of the fit."""
    out = {}
    while True:  # until nothing changes: without one such player another may win all that is left
        scores = defaultdict(list)
        for w, b, s, _ in rows:
            if w not in out and b not in out:
                scores[w].append(s)
                scores[b].append(1 - s)
        found = {p: ("won every game" if all(x == 1 for x in v) else "lost every game")
                 for p, v in scores.items() if all(x == 1 for x in v) or all(x == 0 for x in v)}
        if not found:
            return out
        out.update(found)


class Fit:
    """The joint ratings of the games of RUNS: per draw model the point estimates and the
    bootstrap's resampled ratings, the players left out of the fit and why, each player's games and
    score. Figures are read anchored at any rated player: the models depend only on rating
    differences, so moving the anchor subtracts its rating from every fit, resamples included."""

    def __init__(self, runs, anchor, resamples=1000, seed=0):
        names, rows = joined(runs)
        self.anchor, self.resamples, self.seed, self.runs = anchor, resamples, seed, len(runs)
        self.out_of_fit = unrated(rows)
        self.all_games = len(rows)
        self.score, self.played = defaultdict(float), defaultdict(int)
        for w, b, s, _ in rows:
            self.score[w] += s
            self.score[b] += 1 - s
            self.played[w] += 1
            self.played[b] += 1
        rows = [r for r in rows if r[0] not in self.out_of_fit and r[1] not in self.out_of_fit]
        self.names = [n for n in names if n not in self.out_of_fit]
        self.fitted_games = len(rows)
        self.point, self.samples = {}, {}
        for label, dav in MODELS:
            self.point[label] = ratings(rows, self.names, anchor, dav)
            if self.point[label] is None:
                raise SystemExit(f"{label}: the likelihood of all games has no finite maximum "
                                 "(a player at 0 % or 100 %); no rating list")
        self._bootstrap(rows)

    def _bootstrap(self, rows):
        """Resamples openings as clusters; a resample whose likelihood has no finite maximum is
        left out (counted in `failed`)."""
        by_opening = defaultdict(list)
        for row in rows:
            by_opening[row[3]].append(row)
        openings = sorted(by_opening)
        self.openings = len(openings)
        rng = np.random.default_rng(self.seed)
        draws = [rng.integers(0, len(openings), len(openings)) for _ in range(self.resamples)]
        self.failed = {}
        for label, dav in MODELS:
            samples = []
            for d in draws:
                resample = [r for k in d for r in by_opening[openings[k]]]
                theta = ratings(resample, self.names, self.anchor, dav)
                if theta is not None:
                    samples.append(theta)
            self.samples[label] = np.array(samples)
            self.failed[label] = self.resamples - len(samples)

    def rated(self, model, anchor=None):
        """(point, lo, hi) arrays over `names` under MODEL with ANCHOR (default: the fit's) at 0."""
        k = self.names.index(anchor or self.anchor)
        point = self.point[model] - self.point[model][k]
        samples = self.samples[model] - self.samples[model][:, [k]]
        return point, np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)

    def figures(self, model=MODELS[0][0], anchor=None):
        """{name: (Elo, lo, hi)} under MODEL; ±inf (and nan bounds) for a player not rated."""
        point, lo, hi = self.rated(model, anchor)
        out = {n: (point[k], lo[k], hi[k]) for k, n in enumerate(self.names)}
        for p, why in self.out_of_fit.items():
            out[p] = (math.inf if why == "won every game" else -math.inf, math.nan, math.nan)
        return out

    def csv_rows(self, clock, anchor=None):
        """One row per player and draw model, anchored at ANCHOR, for gauntlet.csv (CSV_COLUMNS)."""
        rows = []
        for model, _ in MODELS:
            for name, (e, lo, hi) in self.figures(model, anchor).items():
                rated = math.isfinite(e)
                cells = [clock, anchor or self.anchor, model, name, self.played[name],
                         f"{self.score[name] / self.played[name]:.4f}",
                         *((one_decimal(x) if rated else "") for x in (e, lo, hi)),
                         "" if rated else self.out_of_fit[name]]
                rows.append(dict(zip(CSV_COLUMNS, cells)))
        return rows


def one_decimal(x):
    """X to one decimal, without a negative zero (a player tied with the anchor in a resample
    differs from it by a rounding error of either sign)."""
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text


# gauntlet.csv's columns (score: a share of the points, 0 to 1; Elo against the anchor's 0).
CSV_COLUMNS = ["clock", "anchor", "model", "player", "games", "score", "elo", "elo_lo", "elo_hi",
               "not_rated"]


def table(runs, anchor, resamples=1000, seed=0):
    """The rating table's Markdown lines, and the Fit (its figures() for the text)."""
    f = Fit(runs, anchor, resamples, seed)
    left_out = f.all_games - f.fitted_games
    lines = [f"{f.all_games} games from {f.runs} matches ({left_out} of them with a player not "
             f"rated by the data, left out of the fit), {f.openings} openings in the fit (clusters); "
             f"{resamples} resamples of the openings, seed {seed}; ratings in Elo, `{anchor}` = 0.", ""]
    lines += ["| player | games | score | " + " | ".join(f"Elo, {m} (95 %)" for m, _ in MODELS) + " |",
              "|---|---:|---:|" + "---|" * len(MODELS)]
    cells = {m: f.rated(m) for m, _ in MODELS}
    first = MODELS[0][0]
    for k in sorted(range(len(f.names)), key=lambda q: -cells[first][0][q]):
        name = f.names[k]
        row = [f"{cells[m][0][k]:+.0f} [{cells[m][1][k]:+.0f}, {cells[m][2][k]:+.0f}]" for m, _ in MODELS]
        lines.append(f"| {name} | {f.played[name]} | {100 * f.score[name] / f.played[name]:.1f} % | "
                     + " | ".join(row) + " |")
    for p, why in f.out_of_fit.items():
        lines.append(f"| {p} | {f.played[p]} | {100 * f.score[p] / f.played[p]:.1f} % | not rated: {why} "
                     "(no finite rating fits; its games are left out of the fit) | — |")
    lines += ["", "Resamples whose likelihood had no finite maximum (a player at 0 % or 100 % in them), "
              "left out of the intervals: " + ", ".join(f"{m}: {f.failed[m]}" for m, _ in MODELS) + "."]
    return lines, f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchor", required=True)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("runs", nargs="+", type=Path)
    a = ap.parse_args()
    print("\n".join(table(a.runs, a.anchor, a.resamples, a.seed)[0]))


if __name__ == "__main__":
    main()

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


def table(runs, anchor, resamples=1000, seed=0):
    """The rating table's Markdown lines, and {name: (Davidson Elo, lo, hi)} for the text."""
    names, rows = joined(runs)
    out_of_fit = unrated(rows)
    all_rows = rows
    rows = [r for r in rows if r[0] not in out_of_fit and r[1] not in out_of_fit]
    names = [n for n in names if n not in out_of_fit]
    by_opening = defaultdict(list)
    for row in rows:
        by_opening[row[3]].append(row)
    openings = sorted(by_opening)
    rng = np.random.default_rng(seed)
    draws = [rng.integers(0, len(openings), len(openings)) for _ in range(resamples)]
    left_out = len(all_rows) - len(rows)
    lines = [f"{len(all_rows)} games from {len(runs)} matches ({left_out} of them with a player not "
             f"rated by the data, left out of the fit), {len(openings)} openings in the fit (clusters); "
             f"{resamples} resamples of the openings, seed {seed}; ratings in Elo, `{anchor}` = 0.", ""]
    point, lo, hi, failed = {}, {}, {}, {}
    for label, dav in MODELS:
        point[label] = ratings(rows, names, anchor, dav)
        if point[label] is None:
            raise SystemExit(f"{label}: the likelihood of all games has no finite maximum "
                             "(a player at 0 % or 100 %); no rating list")
        samples = []
        for d in draws:
            theta = ratings([r for k in d for r in by_opening[openings[k]]], names, anchor, dav)
            if theta is not None:
                samples.append(theta)
        samples = np.array(samples)
        failed[label] = resamples - len(samples)
        lo[label] = np.percentile(samples, 2.5, axis=0)
        hi[label] = np.percentile(samples, 97.5, axis=0)
    score, played = defaultdict(float), defaultdict(int)
    for w, b, s, _ in all_rows:
        score[w] += s
        score[b] += 1 - s
        played[w] += 1
        played[b] += 1
    lines += ["| player | games | score | " + " | ".join(f"Elo, {m} (95 %)" for m, _ in MODELS) + " |",
              "|---|---:|---:|" + "---|" * len(MODELS)]
    first = MODELS[0][0]
    for k in sorted(range(len(names)), key=lambda q: -point[first][q]):
        cells = [f"{point[m][k]:+.0f} [{lo[m][k]:+.0f}, {hi[m][k]:+.0f}]" for m, _ in MODELS]
        lines.append(f"| {names[k]} | {played[names[k]]} | {100 * score[names[k]] / played[names[k]]:.1f} % | "
                     + " | ".join(cells) + " |")
    for p, why in out_of_fit.items():
        lines.append(f"| {p} | {played[p]} | {100 * score[p] / played[p]:.1f} % | not rated: {why} "
                     "(no finite rating fits; its games are left out of the fit) | — |")
    lines += ["", "Resamples whose likelihood had no finite maximum (a player at 0 % or 100 % in them), "
              "left out of the intervals: " + ", ".join(f"{m}: {failed[m]}" for m, _ in MODELS) + "."]
    figures = {names[k]: (point[first][k], lo[first][k], hi[first][k]) for k in range(len(names))}
    for p, why in out_of_fit.items():
        figures[p] = (math.inf if why == "won every game" else -math.inf, math.nan, math.nan)
    return lines, figures


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

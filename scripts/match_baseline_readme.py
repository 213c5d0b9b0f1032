#!/usr/bin/env python3
"""Writes (--readme) or checks (--check) results/match-baseline/README.md's figures from its two
matches: the strength note on top (results/strength/gauntlet.csv), each match's line (pairings.csv:
W/D/L, Elo and nElo with their 95 % half-widths, LOS, the SPRT's LLR against the bounds its
manifest names), the pentanomial counts, and the median depth of each player's moves (moves.csv).

    scripts/match_baseline_readme.py results/match-baseline --readme
    scripts/match_baseline_readme.py results/match-baseline --check   # fails, with a diff, when stale
"""
import csv
import gzip
import json
import math
import statistics
import sys
from pathlib import Path

from heuristics_readme import strength_note, wrap
from readme_blocks import SUMMARY_JSON, sync
from study_stats import minus, once_per_opening, pentanomial_elo, rows

# Directory, players as the table shows them, and the conclusion's words by outcome.
MATCHES = [("fischerle-vs-plain", "`plain` → `fischerle`"), ("see", "`fischerle` see off → see on")]


def bounds(alpha, beta):
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def line(root, name, players):
    r = rows(root / name / "pairings.csv")[0]
    m = json.loads((root / name / "manifest.json").read_text())
    s = m["sprt"]
    low, high = bounds(s["alpha"], s["beta"])
    llr, pairs = float(r["llr"]), int(r["pairs"])
    decision = "**H1**" if llr >= high else "**H0**" if llr <= low else None
    elo0 = minus(f"{s['elo0']:g}")
    sprt = (f"nElo [{elo0}, {s['elo1']:g}]: LLR {llr:.2f}" + (" " if decision else ", ")
            + (f"→ {decision} after {pairs:,} pairs" if decision else f"undecided at the {m['pairs']:,}-pair limit"))
    # More pairs than the book's openings at fixed nodes replay the same games: the figures
    # count each opening once (the SPRT, as played, counted the replays too).
    counts, replays, wdl = once_per_opening(root / name, r["pairing"])
    if replays:
        r = {**r, **{k: str(v) for k, v in pentanomial_elo(counts).items()},
             "wins": wdl[0], "draws": wdl[1], "losses": wdl[2], "pairs": sum(counts)}
        sprt += (f" (counting the {replays:,} replayed pairs as new evidence; on each opening once, "
                 f"`harness sprt --pentanomial {','.join(map(str, counts))}`)")
    e, h = float(r["elo"]), float(r["elo95"])
    significant = e - h > 0 or e + h < 0
    cell = minus(f"{e:+.1f} ± {h:.1f}")
    nelo = minus(f"{float(r['nelo']):+.1f}")
    if name == "fischerle-vs-plain":
        conclusion = ("the Fischerle preset is far stronger than textbook alpha-beta at equal nodes" if e - h > 0
                      else "no significant difference at equal nodes")
    else:
        conclusion = (f"SEE in place of Fischerle's attack counting is worth between {minus(f'{e - h:+.0f}')} and "
                      f"{minus(f'{e + h:+.0f}')} Elo at 5,000 nodes: "
                      + ("a significant difference" if significant else "no significant difference")
                      + f"; the interval (±{h:.1f}) is {'inside' if h <= 15 else 'outside'} the ±15 asked for")
    shown = f"{sum(counts):,} of {pairs:,}" if replays else f"{pairs:,}"
    return (f"| `{name}/` | {players} | {shown} | {int(r['wins']):,} / {int(r['draws']):,} / {int(r['losses']):,} | "
            f"{f'**{cell}**' if significant else cell} | {nelo} ± "
            f"{float(r['nelo95']):.1f} | {float(r['los']) * 100:.1f} % | {sprt} | {conclusion} |"), r


def median_depth(run, player):
    with gzip.open(run / "moves.csv.gz", "rt", newline="") as f:
        return statistics.median(int(m["depth"]) for m in csv.DictReader(f) if m["player"] == player)


def blocks(root):
    table = ["| match | players (p00 → p01) | pairs | W / D / L of p01 | Elo [95 %] | nElo [95 %] | LOS | SPRT | "
             "conclusion |", "|---|---|---:|---|---|---|---:|---|---|"]
    penta = []
    for name, players in MATCHES:
        text, r = line(root, name, players)
        table.append(text)
        penta.append(", ".join(r[k] for k in ("ll", "ld", "dd_wl", "wd", "ww")))
    run = root / "fischerle-vs-plain"
    depth = {p: median_depth(run, p) for p in ("p00", "p01")}
    return {
        "strength-note": wrap([strength_note(root)]),
        "matches": "\n".join(table) + "\n\n" + wrap([
            f"Pentanomial counts (LL, LD, DD+WL, WD, WW) of p01, as played (the SEE line counts its replays): fischerle vs plain {penta[0]}; SEE {penta[1]}. "
            "Recompute any line with `harness sprt --pentanomial …`.", "",
            "At equal *nodes* SEE pays nothing for its cost per node; at equal time it would (a fixed-node match "
            f"cannot show that: rerun with `--limit tc=…` for it). Fischerle at 5,000 nodes reaches depth "
            f"{depth['p01']:.0f} in the median move (plain {depth['p00']:.0f}); a few moves of both did not finish "
            "depth 1 within 5,000 nodes and played the first legal move (depth 0 in `moves.csv`)."]),
    }


def summary_json(root):
    """summary.json (`harness index`'s row): `fischerle` against `plain` (the figure) and SEE against
    Fischerle's attack counting, each with its SPRT's decision."""
    from readme_blocks import summary
    (_, plain), (_, see) = (line(root, name, players) for name, players in MATCHES)
    def decided(name, r):
        s = json.loads((root / name / "manifest.json").read_text())["sprt"]
        low, high = bounds(s["alpha"], s["beta"])
        return "H1" if float(r["llr"]) >= high else "H0" if float(r["llr"]) <= low else "undecided"
    e, h = round(float(plain["elo"]), 1), round(float(plain["elo95"]), 1)
    see_e, see_h = float(see["elo"]), float(see["elo95"])
    return summary(
        "What are two heuristics worth in play at 5,000 nodes a move: Fischerle's preset over textbook alpha-beta "
        "(`plain`), and SEE in place of Fischerle's attack counting?",
        minus(f"`fischerle` is {'far stronger than' if e - h > 0 else 'not shown to differ from'} `plain` "
              f"({e:+.1f} ± {h:.1f} Elo, SPRT {decided('fischerle-vs-plain', plain)} after {plain['pairs']} pairs); "
              "SEE in place of its attack counting makes "
              f"{'a significant' if see_e - see_h > 0 or see_e + see_h < 0 else 'no significant'} difference "
              f"({see_e:+.1f} ± {see_h:.1f} over {int(see['pairs']):,} pairs, each opening once)."),
        (f"`fischerle` over `plain`, 5,000 nodes, {plain['pairs']} pairs", e, round(e - h, 1), round(e + h, 1),
         "Elo"))


if __name__ == "__main__":
    out = Path(sys.argv[1])
    sync({out / "README.md": (blocks(out), None), out / SUMMARY_JSON: (None, summary_json(out))},
         "--check" in sys.argv[2:])

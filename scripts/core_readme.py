#!/usr/bin/env python3
"""Writes (--readme) or checks (--check) results/strength/core/README.md's results from its
matches' pairings.csv (the harness writes them): per pairing the games' W/D/L for the second player
against the first, its score, and pentanomial Elo with its 95 % half-width. A run not yet played
is listed as such.

    scripts/core_readme.py results/strength/core --readme
    scripts/core_readme.py results/strength/core --check   # fails, with a diff, when stale
"""
import csv
import gzip
import json
import math
import statistics
import sys
from pathlib import Path

from readme_blocks import SUMMARY_JSON, sync
from study_stats import holm, once_per_opening, p_from_interval, pentanomial_elo, signed

# Each run of the protocol: its directory and what it measures.
RUNS = [
    ("screen-10k", "fixed nodes, 10,000 a move, the project's book from opening 0"),
    ("gauge-20k", "fixed nodes, 20,000 a move, round robin with Glaurung 2.2, book from opening 1000"),
    ("clock-2s", "2 s + 0.02 s, openings 301–400 of the gauntlet book"),
    ("clock-2s-b", "2 s + 0.02 s, openings 101–200 of the gauntlet book"),
    ("gauntlet-2s-glaurung", "2 s + 0.02 s, openings 1–100 of the gauntlet book (`gated`'s gauntlet's)"),
    ("clock-10s", "10 s + 0.1 s, SPRT [0, 50] nElo, openings 951–1000 of the labelled study's gate book"),
    # For comparison, on the same openings: `gated`'s own gauntlet pairing with Glaurung.
    ("../gauntlet-gated", "the strength study's gauntlet of `gated`, same clock and openings (its Glaurung and Toga II pairings)"),
    # Seventh amendment: the move picker inside `fitted`, then (if not worse) its preset's gauntlet.
    ("picker-10k", "fixed nodes, 10,000 a move, openings 1–500 of the labelled study's gate book"),
    ("picker-40k", "fixed nodes, 40,000 a move, openings 501–750 of the labelled study's gate book"),
    ("picker-clock-2s", "2 s + 0.02 s, openings 301–500 of the cross-engine study's book"),
    ("gauntlet-2s-picked", "2 s + 0.02 s, openings 1–100 of the gauntlet book (`strong`'s and `fitted`'s gauntlets')"),
    ("../../eval/labelled/gauntlet-2s-glaurung", "the labelled-evaluation study's gauntlet of `fitted` (named `strong-fit` there), same clock and openings"),
    # Eighth amendment: the bundle of the four parts that passed `parts2-10k/`, then its gauntlets.
    ("honed-10k", "fixed nodes, 10,000 a move, openings 501–1000 of the labelled study's gate book"),
    ("honed-40k", "fixed nodes, 40,000 a move, openings 1–250 of the project's book"),
    ("honed-clock-2s", "2 s + 0.02 s, openings 1–200 of the cross-engine study's book"),
    ("gauge-honed-20k", "fixed nodes, 20,000 a move, round robin with Glaurung 2.2, book from opening 1000"),
    ("gauntlet-2s-honed", "2 s + 0.02 s, openings 1–100 of the gauntlet book (`strong`'s, `fitted`'s and `picked`'s gauntlets')"),
    ("gauntlet-2s-honed-toga", "2 s + 0.02 s, openings 1–100 of the gauntlet book"),
    ("gauntlet-2s-honed-ethereal", "2 s + 0.02 s, openings 1–100 of the gauntlet book"),
    # Ninth amendment: the bundle `swift` of the parts that passed `parts3-10k/`, the clock first.
    ("swift-clock-2s", "2 s + 0.02 s, openings 201–300 of the cross-engine study's book"),
    ("swift-clock-2s-b", "2 s + 0.02 s, openings 201–300 of the gauntlet book"),
    ("gauntlet-2s-swift", "2 s + 0.02 s, openings 1–100 of the gauntlet book (the earlier presets' gauntlets')"),
    ("swift-10k", "fixed nodes, 10,000 a move, openings 501–1000 of the labelled study's gate book"),
    # Tenth amendment: both gauntlets against Glaurung replicated on a book no run had played.
    ("gauntlet-2s-swift-b", "2 s + 0.02 s, the 100 openings of `replication-openings.epd`"),
    ("gauntlet-2s-honed-b", "2 s + 0.02 s, the 100 openings of `replication-openings.epd`"),
    ("gauntlet-2s-swift-toga", "2 s + 0.02 s, openings 1–100 of the gauntlet book (`honed`'s Toga II gauntlet's)"),
    ("gauntlet-2s-swift-ethereal", "2 s + 0.02 s, openings 1–100 of the gauntlet book (`honed`'s Ethereal 12 gauntlet's)"),
]

# The per-part screens: run directory, the preset each variant is played against, and what a
# variant does to it.
SCREENS = [
    ("parts-10k", "strong", "part undone"),
    ("parts2-10k", "picked", "part on"),
    ("parts3-10k", "honed", "part on"),
]

# Clock runs on disjoint openings between the same two players, also reported together.
POOLED = [["clock-2s", "clock-2s-b"], ["swift-clock-2s", "swift-clock-2s-b"],
          ["gauntlet-2s-swift", "gauntlet-2s-swift-b"], ["gauntlet-2s-honed", "gauntlet-2s-honed-b"]]

# The gauntlet target: this score or more against Glaurung 2.2 at 2 s + 0.02 s.
TARGET = 0.35

# Which pairings of a run the table shows (all where not named).
ONLY = {"../gauntlet-gated": ("glaurung-2.2", "toga-ii-3.0")}


def lines(root):
    out = ["| run | what | pairing (second vs first) | W/D/L | score | Elo (95 %) |",
           "|---|---|---|---|---|---|"]
    for name, what in RUNS:
        path = root / name / "pairings.csv"
        if not path.exists():
            out.append(f"| `{name}/` | {what} | not yet played | | | |")
            continue
        with path.open() as f:
            for r in csv.DictReader(f):
                if name in ONLY and not {r["first_name"], r["second_name"]} & set(ONLY[name]):
                    continue
                first, second = r["first_name"] or r["first"], r["second_name"] or r["second"]
                wdl = f"{r['wins']}/{r['draws']}/{r['losses']}"
                score = f"{100 * float(r['score']):.1f} %"
                elo = f"{signed(float(r['elo']))} ± {float(r['elo95']):.1f}"
                out.append(f"| `{name}/` | {what} | `{second}` vs `{first}` ({r['pairs']} pairs) "
                           f"| {wdl} | {score} | {elo} |")
    return "\n".join(out)


PENTANOMIAL = ["ll", "ld", "dd_wl", "wd", "ww"]


def pooled(root, runs):
    """The sentence of `runs` taken together (`pooled_elo`), or None when one is not yet played."""
    figures = pooled_elo(root, runs)
    if figures is None:
        return None
    n, wdl, mean, elo, low, high = figures
    with (root / runs[0] / "pairings.csv").open() as f:
        r = next(csv.DictReader(f))
    return (f"`{' + '.join(runs)}` together ({n} pairs, openings disjoint): W/D/L "
            f"{wdl[0]}/{wdl[1]}/{wdl[2]}, score {100 * mean:.1f} %, Elo {signed(elo)} "
            f"± {(high - low) / 2:.1f} [{signed(low)}, {signed(high)}] for `{r['second_name']}` over "
            f"`{r['first_name']}` at 2 s + 0.02 s.")


def clock_runs(root):
    """The sentences of POOLED, one per pair of runs, and the gauntlet target's verdict."""
    said = [pooled(root, runs) or f"`{' + '.join(runs)}` together: not yet played." for runs in POOLED]
    return "\n\n".join(said + [target(root)])


SWIFT_GAUNTLETS = ["gauntlet-2s-swift", "gauntlet-2s-swift-b"]


def swift_score(root, runs):
    """`swift`'s score against Glaurung 2.2 over `runs` with its 95 % interval → (pairs, score,
    low, high), or None when one is not yet played. pooled_elo's rows are Glaurung's: its Elo
    interval is `swift`'s score interval read backwards."""
    figures = pooled_elo(root, runs)
    if figures is None:
        return None
    n, _, mean, _, low, high = figures
    to_score = lambda e: 1 - 1 / (1 + 10 ** (-e / 400))  # noqa: E731
    return n, 1 - mean, to_score(high), to_score(low)


def target(root):
    """The tenth amendment's verdict: `swift`'s score against Glaurung 2.2 over its two gauntlets,
    the replication alone (the first gauntlet's result is what prompted it), and the Davidson
    Elo the issue also names."""
    pooled, replication = swift_score(root, SWIFT_GAUNTLETS), swift_score(root, SWIFT_GAUNTLETS[1:])
    if pooled is None:
        return "The ≥ 35 % target over `swift`'s two gauntlets: not yet played."
    n, score, low, _ = pooled
    said = lambda lo: "lies wholly above" if lo >= TARGET else "reaches below"  # noqa: E731
    # The joint fit of the strength study's gauntlets, openings resampled as clusters.
    from strength_gauntlet import MODELS, Fit
    davidson, lo, hi = Fit([root / r for r in SWIFT_GAUNTLETS], "glaurung-2.2").figures(MODELS[0][0])["swift"]
    return (f"The ≥ 35 % target over `swift`'s two gauntlets ({n} pairs): `swift` scored "
            f"{100 * score:.1f} % [{100 * low:.1f} %, {100 * pooled[3]:.1f} %] — "
            f"{'met' if score >= TARGET else 'not met'} (the point estimate; the interval "
            f"{said(low)} 35 %). The replication alone (`gauntlet-2s-swift-b/`, the run no result "
            f"chose): {100 * replication[1]:.1f} % [{100 * replication[2]:.1f} %, "
            f"{100 * replication[3]:.1f} %], its interval {said(replication[2])} 35 %. In Davidson "
            f"Elo (`scripts/strength_gauntlet.py`'s fit, Glaurung 2.2 = 0, 95 % bootstrap over "
            f"openings): {signed(davidson)} [{signed(lo)}, {signed(hi)}] against the issue's −110.")


def pooled_elo(root, runs):
    """The pentanomial Elo of `runs` (one pairing each, the same players) taken together: the pair
    score's mean and variance over the five outcomes, the interval the Elo of mean ± 1.96 standard
    errors (the harness's formula, so one run alone gives its pairings.csv figures) → (pairs, W/D/L,
    score, Elo, low, high), or None when one is not yet played."""
    counts, wdl = [0] * 5, [0, 0, 0]
    for name in runs:
        path = root / name / "pairings.csv"
        if not path.exists():
            return None
        with path.open() as f:
            r = next(csv.DictReader(f))
        counts = [c + int(r[k]) for c, k in zip(counts, PENTANOMIAL)]
        wdl = [a + int(r[k]) for a, k in zip(wdl, ("wins", "draws", "losses"))]
    n = sum(counts)
    x = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * v for c, v in zip(counts, x)) / n
    se = math.sqrt(sum(c * (v - mean) ** 2 for c, v in zip(counts, x)) / n / n)
    elo = lambda p: -400 * math.log10(1 / p - 1)
    return n, wdl, mean, elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se)


def sprt(root):
    """The sixth amendment's SPRT at 10 s + 0.1 s: its LLR against Wald's bounds (α = β = 0.05) and
    its decision, from clock-10s/pairings.csv."""
    path = root / "clock-10s" / "pairings.csv"
    if not path.exists():
        return "SPRT at 10 s + 0.1 s (`clock-10s/`): not yet played."
    with path.open() as f:
        r = next(csv.DictReader(f))
    bound = math.log((1 - 0.05) / 0.05)
    llr = float(r["llr"])
    decision = ("H1 accepted (the gain holds at the longer clock)" if llr >= bound else
                "H0 accepted (no gain of 50 nElo at the longer clock)" if llr <= -bound else
                "undecided when the 50 openings ran out")
    return (f"SPRT at 10 s + 0.1 s (`clock-10s/`, [0, 50] nElo, α = β = 0.05): LLR {llr:.2f} against "
            f"±{bound:.2f} after {r['pairs']} pairs — {decision}; `{r['second_name']}` over "
            f"`{r['first_name']}` {signed(float(r['elo']))} ± {float(r['elo95']):.1f} Elo.")


def parts(root, run, base, change):
    """A per-part screen: each variant of `base` (a part undone or switched on), Elo of the variant
    against `base`, p from its interval (normal approximation) and Holm-adjusted across the
    screen's pairings."""
    path = root / run / "pairings.csv"
    if not path.exists():
        return f"Per-part screen (`{run}/`): not yet played."
    with path.open() as f:
        rows = list(csv.DictReader(f))
    # `parts-10k` played 500 pairs on a book of 432 openings: at fixed nodes the last 68 of each
    # pairing replay its first 68 exactly, so each opening is counted once.
    replays = 0
    for i, r in enumerate(rows):
        counts, replayed, wdl = once_per_opening(root / run, r["pairing"])
        replays = replayed
        rows[i] = {**r, **pentanomial_elo(counts), "pairs": sum(counts),
                   "wins": wdl[0], "draws": wdl[1], "losses": wdl[2]}
    ps = [p_from_interval(float(r["nelo"]), float(r["nelo95"])) for r in rows]
    out = [f"Per-part screen (`{run}/`, 10,000 nodes a move; each variant against `{base}`; p from "
           f"normalized Elo, Holm-adjusted across the {len(rows)} parts"
           + (f"; each opening once: {replays} of each pairing's pairs replayed an opening of the "
              "432-opening book, the same two games, and are left out" if replays else "") + "):", "",
           f"| {change} | pairs | W/D/L | Elo (95 %) | nElo (95 %) | p (Holm) |", "|---|---|---|---|---|---|"]
    for r, p in zip(rows, holm(ps)):
        out.append(f"| `{r['second_name']}` | {r['pairs']} | {r['wins']}/{r['draws']}/{r['losses']} "
                   f"| {signed(float(r['elo']))} ± {float(r['elo95']):.1f} "
                   f"| {signed(float(r['nelo']))} ± {float(r['nelo95']):.1f} | {p:.3g} |")
    return "\n".join(out)


def collapse(root):
    """How many of the collapse suite's positions each player avoids (the grid's summary.csv)."""
    path = root / "collapse-200ms" / "summary.csv"
    if not path.exists():
        return "Collapse suite: not yet searched."
    with path.open() as f:
        rows = list(csv.DictReader(f))
    parts = [f"`{r['values'].removeprefix('player=')}` {r['solved']}/{r['positions']}" for r in rows]
    return ("Collapse suite (`collapse-200ms/`: 200 ms a position, one thread each; a collapse avoided "
            "when the `am` move is not played): " + ", ".join(parts) + ".")


def nps(root):
    """Median nodes per second of each player in nps.csv (one run of scripts/core_nps.sh)."""
    path = root / "nps.csv"
    if not path.exists():
        return "Speed: not yet measured (`scripts/core_nps.sh`)."
    by = {}
    with path.open() as f:
        for r in csv.DictReader(f):
            by.setdefault(r["player"], []).append(int(r["nps"]))
    rounds = len(next(iter(by.values())))
    parts = [f"`{p}` {statistics.median(v) / 1e6:.2f} M" for p, v in by.items()]
    ratio = lambda a, b: statistics.median(by[a]) / statistics.median(by[b])
    honed = (f", `honed` at {ratio('honed', 'picked'):.2f}× `picked`'s and {ratio('honed', 'ethereal-12'):.2f}× "
             "Ethereal 12's" if "honed" in by else "")
    swift = (f", `honed` with the evaluation cache at {ratio('honed+eval_cache=on', 'honed'):.2f}× `honed`'s, "
             f"`swift` at {ratio('swift', 'honed'):.2f}× `honed`'s and {ratio('swift', 'ethereal-12'):.2f}× "
             "Ethereal 12's" if "swift" in by else "")
    return (f"Speed (`scripts/core_nps.sh`: {rounds} interleaved rounds on one core, median nodes per "
            f"second; ours `harness bench --depth 9`, Ethereal its own `bench`): " + ", ".join(parts)
            + f"; `strong` searches at {ratio('strong', 'gated'):.2f}× `gated`'s speed{honed}{swift}.")


def prefetch(root):
    """The QS prefetch's speed: the median wall-time ratio of prefetch.txt (farm-bench --vs)."""
    path = root / "prefetch.txt"
    if not path.exists():
        return "The QS's TT prefetch: not yet timed."
    row = next(line.split() for line in path.read_text().splitlines() if line.startswith("A/B wall"))
    return (f"The QS's TT prefetch (`prefetch.txt`, `honed` at depth 12, 9 interleaved runs on one core): "
            f"the build with it takes {float(row[3]):.3f}× the time of the build without (median; "
            f"{float(row[2]):.3f} to {float(row[4]):.3f}), the same nodes.")


# Clock runs whose per-move table the README summarises: who searched how much.
EFFORT = ["honed-clock-2s", "gauntlet-2s-picked", "gauntlet-2s-honed", "swift-clock-2s",
          "gauntlet-2s-swift"]


def effort(root):
    """Per clock run of EFFORT, each player's median nodes, time and depth a move and its nodes per
    second over the run (each engine counting its own nodes), from the run's moves.csv.gz."""
    out = []
    for run in EFFORT:
        path = root / run / "moves.csv.gz"
        if not path.exists():
            continue
        with (root / run / "manifest.json").open() as f:
            names = {p["id"]: p["name"] for p in json.load(f)["players"]}
        by = {}
        with gzip.open(path, "rt") as f:
            for r in csv.DictReader(f):
                if r["nodes"] and r["time_ms"]:
                    by.setdefault(r["player"], []).append(
                        (int(r["nodes"]), float(r["time_ms"]), int(r["depth"] or 0)))
        parts = []
        for player, moves in by.items():
            nps = sum(m[0] for m in moves) / sum(m[1] for m in moves) * 1000
            parts.append(f"`{names.get(player, player)}` {statistics.median(m[0] for m in moves):,.0f} nodes, "
                         f"{statistics.median(m[1] for m in moves):.1f} ms, depth "
                         f"{statistics.median(m[2] for m in moves):.0f}, {nps / 1e6:.2f} M nodes/s")
        out.append(f"`{run}/`: " + "; ".join(parts))
    if not out:
        return "Search effort under the clock: no clock run of the eighth amendment played yet."
    return ("Search effort under the clock (median a move, and nodes per second over the run; each "
            "engine counts its own nodes; two games at a time): " + " — ".join(out) + ".")


def summary_json(root):
    """summary.json (`harness index`'s row): `strong` over `gated` at fixed nodes and, pooled over both
    clock runs, at 2 s + 0.02 s (the figure, against the +150 target), and the score against Glaurung
    2.2 of the latest preset whose gauntlet was played (`swift`, `honed`, else `strong`)."""
    from readme_blocks import summary
    with (root / "screen-10k" / "pairings.csv").open() as f:
        screen = next(csv.DictReader(f))
    preset, glaurung = gauntlet_score(root)
    n, _, _, elo, low, high = pooled_elo(root, ["clock-2s", "clock-2s-b"])
    elo, low, high = (round(x, 1) for x in (elo, low, high))
    wins = low > 0 and float(screen["elo"]) - float(screen["elo95"]) > 0
    return summary(
        "Does the modern search core built as a whole (`strong`) play stronger than `gated`, per node and under a "
        "clock?",
        f"{'Yes' if wins else 'Not shown'}: `strong` scores {signed(float(screen['elo']))} ± "
        f"{float(screen['elo95']):.1f} Elo at "
        f"10,000 nodes and {signed(elo)} [{signed(low)}, {signed(high)}] at 2 s + 0.02 s ({n} pairs; the +150 target "
        f"{'holds' if low >= 150 else 'does not hold at its lower end'}); against Glaurung 2.2 `{preset}` scores "
        f"{100 * glaurung:.1f} %, {'meeting' if glaurung >= 0.35 else 'under'} the 35 % target.",
        (f"`strong` over `gated`, 2 s + 0.02 s, {n} pairs", elo, low, high, "Elo"))


def gauntlet_score(root):
    """(preset, its score) against Glaurung 2.2 at 2 s + 0.02 s: the latest preset's gauntlets
    played (`swift`'s two together where both are, `honed`, else `strong`; the rows are
    Glaurung's)."""
    for preset, runs in (("swift", SWIFT_GAUNTLETS),
                         ("honed", ["gauntlet-2s-honed"]), ("strong", ["gauntlet-2s-glaurung"])):
        played = [r for r in runs if (root / r / "pairings.csv").exists()]
        if played:
            return preset, 1 - pooled_elo(root, played)[2]
    raise SystemExit(f"{root}: no gauntlet against Glaurung 2.2 played")


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("--readme", "--check"):
        raise SystemExit(__doc__)
    root = Path(sys.argv[1])
    sync({root / "README.md": ({"core-results": lines(root) + "\n\n" + clock_runs(root) + "\n\n" + sprt(root) + "\n\n" + "\n\n".join(parts(root, *s) for s in SCREENS) + "\n\n" + collapse(root) + "\n\n" + effort(root) + "\n\n" + nps(root) + "\n\n" + prefetch(root)}, None),
          root / SUMMARY_JSON: (None, summary_json(root))},
         check=sys.argv[2] == "--check")


if __name__ == "__main__":
    main()

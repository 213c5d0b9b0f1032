#!/usr/bin/env python3
"""Joins results/strength/ into its tables (Markdown on stdout): how the engine spends its clock
(clock-use/), the design that chose which search switches to gate (design/effects.csv), the gates'
changelog (gates/*: Elo and nElo with 95 % intervals from the pentanomial variance, the SPRT's LLR
and decision, the commit each ran on), the longer-clock check, the gauntlet's ratings (both draw
models, openings resampled as clusters), and each shared switch's worth inside `gated` beside
`modern` (Holm across the whole table).

    scripts/strength_table.py results/strength > results/strength/table.md
    scripts/strength_table.py results/strength --readme   # also rewrites the findings and gauntlet.csv
    scripts/strength_table.py results/strength --check    # fails, with a diff, when table.md, gauntlet.csv or a findings block is stale
    scripts/strength_table.py --accepted DIR              # exit 0 iff DIR's SPRT accepted H1

With --readme, the text between the README's `<!-- findings -->` markers is rewritten from the same
data, so no number there is typed by hand, and so is gauntlet.csv (every gauntlet's ratings, both
draw models). Every other study's strength note is read from gauntlet.csv by its own script: after
a new gauntlet, rerun those with --readme too (scripts/strength.sh table does).
"""
import csv
import json
import math
import sys
from pathlib import Path

from readme_blocks import SUMMARY_JSON, sync

import strength_clock
from study_stats import holm, p_from_interval

# The network built into `nnue` when its column was played (the runs' commits; their manifests
# predate `builtin_net`).
NNUE_COLUMN_NET = "net2-256"

# The gates in the order scripts/strength.sh plays them: directory, what the change is.
GATES = [
    ("eval", "the evaluation `texel` fitted (`results/eval/fit-all/eval.toml`, every term on)"),
    ("reverse-futility", "reverse futility pruning, margin 85 × level up to level 6"),
    ("time", "the time manager's adjustments: best-move stability, score drop, node share, "
             "the interrupted iteration's move"),
    ("continuation-history", "continuation history (2 moves)"),
    ("qs-delta", "QS delta pruning, margin 200"),
    ("eval-mobility", "the classic terms and mobility, fitted by `texel` (`fit-mobility/eval.toml`)"),
    # Round 3.
    ("history-ordering", "every quiet move sorted by history, with the malus and gravity update "
                         "(`history.sort_all`, `history.malus`)"),
    ("see-prune", "SEE pruning in the main search, 80 cp × level (quiet), 18 cp × level² "
                  "(capture), to level 8"),
    ("null-move", "the null move off PV nodes, reduction + 1, + 1 per 200 cp above beta (≤ 3)"),
    # Round 4.
    ("eval-again", "the every-term fit (`results/eval/fit-all/eval.toml`) again, over the new base"),
    ("eval-lean", "the every-term fit without `passed.path`, `rook_files`, `bishop_pair`, `threats` "
                  "(`eval-lean.toml`)"),
    ("no-singular", "singular extension off"),
    ("history-keep", "the history table kept from move to move (`history.keep`)"),
    # Round 5.
    ("spsa-focus", "the five values of the focused SPSA tune inside `modern` "
                   "(`results/tuning/focus/tuned.toml`; the gate's `manifest.json` has them)"),
]
# How many of GATES (rounds 1 and 2) decide `gated`; the later rounds' accepted changes would make
# a new preset.
GATES_OF_GATED = 6
# The switches whose worth is compared (directory name under worth*/ and results/heuristics/).
SHARED = ["null_move", "futility", "lmr", "late_move_pruning", "singular", "see_prune",
          "reverse_futility", "aspiration"]
# How a factorial design names each as a factor.
FACTOR = {"see_prune": "qsearch.see_prune=off/0"}


def pairing(run):
    """The one row of a two-player match's pairings.csv (None when it has not finished)."""
    path = run / "pairings.csv"
    if not path.exists():
        return None
    with open(path, newline="") as f:
        return next(csv.DictReader(f))


def decision(run):
    """`H1`, `H0` or `undecided`, from the LLR and Wald's bounds of the manifest's SPRT."""
    sprt = json.loads((run / "manifest.json").read_text())["sprt"]
    upper = math.log((1 - sprt["beta"]) / sprt["alpha"])
    lower = math.log(sprt["beta"] / (1 - sprt["alpha"]))
    llr = float(pairing(run)["llr"])
    return "H1" if llr >= upper else "H0" if llr <= lower else "undecided"


def elo(row, sign=1.0):
    return f"{sign * float(row['elo']):+.1f} ± {float(row['elo95']):.1f}"


def clock_use(out):
    runs = [out / "clock-use" / b for b in ("stc", "ltc")]
    if not all((r / "manifest.json").exists() for r in runs):
        return ["## Clock use", "", "not run"]
    lines = ["## Clock use: `modern` against Toga II 3.0", ""]
    lines.append("| clock | engine | games | moves | clock used per game: median (max) | median time per move | moves with an iteration cut | mean depth |")
    lines.append("|---|---|---:|---:|---|---:|---:|---:|")
    for run in runs:
        for t in strength_clock.summary(run):
            cut = "not reported" if t["cut"] is None else f"{100 * t['cut']:.1f} %"
            lines.append(f"| {t['limit']} | {t['engine']} | {t['games']} | {t['moves']:,} | "
                         f"{100 * t['used']:.0f} % ({100 * t['used_max']:.0f} %) | {t['ms']:.0f} ms | {cut} | {t['depth']:.2f} |")
    return lines


# Each design's factors (as the effects name them, then the key and values) and the effects gated.
DESIGNS = [
    ("design", "first round, over `modern` with the fitted evaluation",
     {"reverse_futility": "`reverse_futility` (85 × level to 6) off/on", "max_level": "`late_move_pruning.max_level` 3/6",
      "see": "`see` false/true", "check_extension": "`check_extension` false/true", "iir": "`iir` off/on",
      "continuation_history": "`continuation_history` off/on"}, {"reverse_futility"}),
    ("design2", "second round, over `modern` with reverse futility pruning",
     {"candidate_limit": "`selective.candidate_limit` 3/0", "max_level": "`late_move_pruning.max_level` 3/6",
      "continuation_history": "`continuation_history` off/on", "delta": "`qsearch.delta` off/200",
      "cut_more": "`lmr.cut_more` false/true", "window": "`aspiration.window` 50/20"},
     {"continuation_history", "delta"}),
]


def design(out):
    lines = ["## The designs: which search switches to gate", "",
             "Main effects of each 2^(6−1) design at 10,000 nodes a move (32 points, round robin, "
             "each pair its own opening of the selection book): Elo of the second value against the "
             "first, 95 % bootstrap interval, p and Holm's p across all 21 effects of the design (the "
             "interactions are in each design's `report.md`)."]
    for name, what, factors, gated in DESIGNS:
        path = out / name / "effects.csv"
        if not path.exists():
            lines += ["", f"`{name}/`: not run"]
            continue
        with open(path, newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["order"] == "1"]
        lines += ["", f"`{name}/` — {what}:", "",
                  "| factor | Elo [95 %] | p | Holm p | gated |", "|---|---|---:|---:|---|"]
        for r in rows:
            lines.append(f"| {factors.get(r['effect'], r['effect'])} | {float(r['elo']):+.1f} "
                         f"[{float(r['elo_lo']):+.1f}, {float(r['elo_hi']):+.1f}] | {float(r['p']):.2g} | "
                         f"{float(r['p_holm']):.2g} | {'yes' if r['effect'] in gated else 'no'} |")
    return lines


def gates(out):
    lines = ["## The changelog", "",
             "Each change played by the configuration so far with it against without it at 1 s + "
             "0.01 s (fishtest's adjudication), SPRT on normalized Elo [0, 25], α = β = 0.05, at most "
             "120 pairs; accepted only when the SPRT accepts H1.", "",
             "| change | Elo (95 %) | nElo (95 %) | games | LLR (bounds) | decision | commit |",
             "|---|---|---|---:|---|---|---|"]
    for name, what in GATES:
        run = out / "gates" / name
        row = pairing(run)
        if row is None:
            lines.append(f"| {what} | not run | | | | | |")
            continue
        m = json.loads((run / "manifest.json").read_text())
        bound = math.log((1 - m["sprt"]["beta"]) / m["sprt"]["alpha"])
        verdict = {"H1": "accepted", "H0": "rejected (H0)", "undecided": "rejected (undecided)"}[decision(run)]
        lines.append(f"| {what} | {elo(row)} | {float(row['nelo']):+.1f} ± {float(row['nelo95']):.1f} | "
                     f"{2 * int(row['pairs'])} | {float(row['llr']):.2f} (±{bound:.2f}) | {verdict} | "
                     f"{m['git_commit'][:7]} |")
    return lines


def accepted(out):
    return [name for name, _ in GATES
            if pairing(out / "gates" / name) is not None and decision(out / "gates" / name) == "H1"]


def worth_row(run, sign=1.0):
    row = pairing(run)
    if row is None:
        return None
    return sign * float(row["elo"]), float(row["elo95"]), 2 * int(row["pairs"])


def modern_worth(heuristics, part, name):
    """`modern`'s figure from results/heuristics (with against without), or this study's own."""
    run = heuristics / part / name
    row = pairing(run)
    if row is None:
        return None
    # results/heuristics plays modern as it is first: a switch modern has is `on` first.
    first_on = row["first_name"].endswith("=on") or row["first_name"].endswith("=0")
    return worth_row(run, -1.0 if first_on else 1.0)


# The worth table's third strength (#54): `fitted`'s runs at 10,000 nodes, and the replay of its
# significant cells; the differences the table takes (stronger − weaker, at a budget).
FITTED_RUNS = "worth-fitted"
CONFIRM_RUNS = "worth-fitted-confirm"
DIFFERENCES = [("fitted", "gated", "10k"), ("gated", "modern", "10k"), ("gated", "modern", "clock")]
BUDGETS = {"10k": "10,000 nodes", "clock": "0.5 s + 5 ms"}


def worth_cells(out, heuristics):
    """Every cell of the worth table: (preset, budget, switch) → (Elo, half-width, games) or None."""
    cells = {}
    for budget, own, theirs in (("10k", "worth", "ablation"), ("clock", "worth-clock", "clock")):
        for name in SHARED:
            cells[("gated", budget, name)] = worth_row(out / own / name)
            mine = out / f"{own}-modern" / name
            cells[("modern", budget, name)] = (worth_row(mine) if (mine / "pairings.csv").exists()
                                               else modern_worth(heuristics, theirs, name))
    for name in SHARED:
        cells[("fitted", "10k", name)] = worth_row(out / FITTED_RUNS / name)
    return cells


def holm_cells(cells):
    """Holm's adjusted p of every cell that was played, as one family."""
    tested = [(k, v) for k, v in cells.items() if v is not None]
    return dict(zip([k for k, _ in tested], holm([p_from_interval(v[0], v[1]) for _, v in tested])))


def significant_in_fitted(adjusted):
    """The switches whose worth inside `fitted` is significant after Holm (`adjusted`: holm_cells)."""
    return [name for name in SHARED if adjusted.get(("fitted", "10k", name), 1.0) < 0.05]


def fitted_significant(out):
    """The switches whose worth inside `fitted` is significant after Holm across the whole table."""
    return significant_in_fitted(holm_cells(worth_cells(out, out.parent / "heuristics")))


def confirmation(out, cells, adjusted):
    """The replay of the `fitted` column's significant cells on the gate book's openings."""
    selected = significant_in_fitted(adjusted)
    replays = {n: worth_row(out / CONFIRM_RUNS / n) for n in selected}
    played = {n: v for n, v in replays.items() if v is not None}
    if not selected:
        return ["", "No cell of the `fitted` column is significant after Holm: nothing to replay."], {}, {}
    replay_holm = dict(zip(played, holm([p_from_interval(v[0], v[1]) for v in played.values()])))
    pairs = "/".join(sorted({f"{v[2] // 2:,}" for v in played.values()})) or "500"
    lines = ["", f"Replay of the `fitted` column's significant cells (`{CONFIRM_RUNS}/`: {pairs} pairs at "
             f"10,000 nodes on openings 1–{pairs} of the labelled-evaluation study's gate book, which no "
             "worth cell played; Holm across the replays). A cell is confirmed when its replay "
             "excludes zero on the same side.", "",
             "| switch | selected (`fitted`, 10k nodes) | replay | Holm p | confirmed |",
             "|---|---|---|---|---|"]
    verdicts = {}
    for name in selected:
        v, r = cells[("fitted", "10k", name)], replays[name]
        if r is None:
            lines.append(f"| `{name}` | {v[0]:+.1f} ± {v[1]:.1f} ({v[2]}) | not yet played | | |")
            continue
        p = replay_holm[name]
        verdicts[name] = p < 0.05 and (r[0] > 0) == (v[0] > 0)
        lines.append(f"| `{name}` | {v[0]:+.1f} ± {v[1]:.1f} ({v[2]}) | {r[0]:+.1f} ± {r[1]:.1f} ({r[2]}) "
                     f"| {p:.2g} | {'yes' if verdicts[name] else 'no'} |")
    return lines, verdicts, played


def worth(out, heuristics, summary=None):
    cells = worth_cells(out, heuristics)
    if not any(k[0] == "gated" and v is not None for k, v in cells.items()):
        return ["## Worth against strength", "", "not run"]
    adjusted = holm_cells(cells)

    def cell(key):
        v = cells.get(key)
        if v is None:
            return "not run"
        p = adjusted[key]
        mark = "**" if p < 0.05 else ""
        return f"{mark}{v[0]:+.1f} ± {v[1]:.1f}{mark} ({v[2]}, Holm p {p:.2g})"

    differences = {}
    for strong, weak, budget in DIFFERENCES:
        for name in SHARED:
            a, b = cells.get((strong, budget, name)), cells.get((weak, budget, name))
            if a is not None and b is not None:
                differences[(strong, weak, budget, name)] = (a[0] - b[0], math.hypot(a[1], b[1]))
    diff_holm = dict(zip(differences, holm([p_from_interval(*d) for d in differences.values()])))

    def diff(strong, weak, budget, name):
        d = differences.get((strong, weak, budget, name))
        if d is None:
            return "—"
        p = diff_holm[(strong, weak, budget, name)]
        mark = "**" if p < 0.05 else ""
        return f"{mark}{d[0]:+.1f} ± {d[1]:.1f}{mark} (Holm p {p:.2g})"

    lines = ["## Worth against strength", "",
             "Each switch's worth — with it against without it, Elo ± 95 % half-width (games, Holm "
             "p across every figure of the table) — inside `fitted` (the strongest preset: the "
             "modern core with the labelled evaluation; 10,000 nodes only), `gated` and `modern` "
             "(`modern`'s from results/heuristics parts 5, 8, 9 where it has them), at 10,000 nodes a "
             "move and at 0.5 s + 5 ms; bold where significant after the correction. `singular` is "
             "off in `fitted`: its cell there is `singular=on` against `fitted`. A difference "
             "(stronger − weaker) is the change of worth with strength (half-widths added in "
             "quadrature as for independent matches; the columns share their first openings, so "
             "they are positively correlated and this interval is conservative), with Holm's p "
             "across the differences of the table.", "",
             "| switch | fitted, 10k nodes | gated, 10k nodes | modern, 10k nodes | fitted − gated, 10k | gated − modern, 10k | gated, 0.5+0.005 | modern, 0.5+0.005 | gated − modern, 0.5+0.005 |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name in SHARED:
        lines.append(f"| `{name}` | {cell(('fitted', '10k', name))} | {cell(('gated', '10k', name))} | "
                     f"{cell(('modern', '10k', name))} | {diff('fitted', 'gated', '10k', name)} | "
                     f"{diff('gated', 'modern', '10k', name)} | {cell(('gated', 'clock', name))} | "
                     f"{cell(('modern', 'clock', name))} | {diff('gated', 'modern', 'clock', name)} |")
    replay, verdicts, replays = confirmation(out, cells, adjusted) if any(
        k[0] == "fitted" and v is not None for k, v in cells.items()) else ([], {}, {})
    lines += replay
    if summary is not None:
        summary["differences"] = {k: (differences[k], diff_holm[k]) for k in differences}
        summary["cells"] = {k: (v, adjusted.get(k)) for k, v in cells.items() if v is not None}
        summary["selected"] = significant_in_fitted(adjusted)
        summary["confirmed"] = verdicts
        summary["replays"] = replays
    return lines


# The NNUE column (#65): each shared switch inside `nnue`, and the reference singular extension,
# at 10,000 nodes; its own table and Holm families, so the worth table's stay as they were.
NNUE_RUNS = "worth-nnue"
NNUE_CONFIRM_RUNS = "worth-nnue-confirm"
NNUE_ROWS = SHARED + ["singular_reference"]


def nnue_cells(out):
    """switch → (Elo, half-width, games) inside `nnue`, or None where not played."""
    return {name: worth_row(out / NNUE_RUNS / name) for name in NNUE_ROWS}


def nnue_significant(out):
    """The NNUE column's switches significant after its Holm: the cells its replay plays."""
    adjusted = holm_cells(nnue_cells(out))
    return [name for name in NNUE_ROWS if adjusted.get(name, 1.0) < 0.05]


def nnue_worth(out, fitted, summary):
    """The NNUE column: each switch inside `nnue` beside `fitted`'s (`fitted`: worth_cells), the
    difference, and the replay of its significant cells."""
    cells = nnue_cells(out)
    head = ["## Worth inside an NNUE engine", ""]
    if all(v is None for v in cells.values()):
        return head + ["not run"]
    adjusted = holm_cells(cells)
    diffs = {}
    for name in SHARED:
        a, b = cells[name], fitted.get(("fitted", "10k", name))
        if a is not None and b is not None:
            diffs[name] = (a[0] - b[0], math.hypot(a[1], b[1]))
    diff_holm = dict(zip(diffs, holm([p_from_interval(*d) for d in diffs.values()])))
    replays = holm_cells({n: worth_row(out / NNUE_CONFIRM_RUNS / n) for n in nnue_significant(out)})
    replayed = {n: worth_row(out / NNUE_CONFIRM_RUNS / n) for n in replays}

    def figure(v, p):
        mark = "**" if p < 0.05 else ""
        return f"{mark}{v[0]:+.1f} ± {v[1]:.1f}{mark}"

    def replay(name):
        if adjusted.get(name, 1.0) >= 0.05:
            return "—", "—"
        r = replayed.get(name)
        if r is None:
            return "not yet played", ""
        held = replays[name] < 0.05 and (r[0] > 0) == (cells[name][0] > 0)
        return f"{r[0]:+.1f} ± {r[1]:.1f} ({r[2]}, Holm p {replays[name]:.2g})", "yes" if held else "no"

    lines = head + [
        "Each switch toggled inside `nnue` (`swift` evaluating with the network built in when "
        f"the column was played, `{NNUE_COLUMN_NET}` of `results/nnue/`), with against without, 400 pairs at 10,000 nodes on the worth table's "
        "book and start (Elo ± 95 % half-width, games, Holm p across this column; bold where "
        "significant); `singular` is `singular=on` against `nnue`, `singular_reference` the "
        "reference engines' form (`results/fidelity/`). Beside it `fitted`'s cell from the table "
        "above, and the difference nnue − fitted (Holm across the differences). A significant cell "
        "is replayed on the gate book's openings 501–1,000 (Holm across the replays) and confirmed "
        "when the replay excludes zero on the same side.", "",
        "| switch | nnue, 10k nodes | fitted, 10k nodes | nnue − fitted | replay | confirmed |",
        "|---|---|---|---|---|---|"]
    for name in NNUE_ROWS:
        v, f = cells[name], fitted.get(("fitted", "10k", name))
        mine = "not run" if v is None else f"{figure(v, adjusted[name])} ({v[2]}, Holm p {adjusted[name]:.2g})"
        theirs = "—" if f is None else f"{f[0]:+.1f} ± {f[1]:.1f} ({f[2]})"
        d = diffs.get(name)
        diff = "—" if d is None else f"{figure(d, diff_holm[name])} (Holm p {diff_holm[name]:.2g})"
        lines.append(f"| `{name}` | {mine} | {theirs} | {diff} | " + " | ".join(replay(name)) + " |")
    summary["nnue"] = {"cells": {n: (v, adjusted.get(n)) for n, v in cells.items() if v is not None},
                       "differences": {n: (d, diff_holm[n]) for n, d in diffs.items()}}
    return lines


# What reference engines report for each switch (sources quoted in the file), and the fidelity
# study's forms for the switches the worth table does not toggle (each measured inside `swift`
# against off at 10,000 nodes): switch → (fidelity family, this engine's form).
LITERATURE_CSV = "literature.csv"
FIDELITY_ROWS = {"check_extension": ("check", "check-plain"), "see_ordering": ("see", "see-picker")}
FIDELITY_FAMILY = {"singular": "singular", **{k: v[0] for k, v in FIDELITY_ROWS.items()}}


def literature_figure(row):
    """`[Engine](source) +W ± H (removed)`: the worth of having the switch as the row reports it."""
    how = {"removal": "removed", "addition": "added"}.get(row["measured_as"], "annotated")
    worth = float(row["worth"])
    # A code annotation gives a rounded figure (`~22 Elo`): shown as the source writes it.
    figure = f"≈ {worth:+.0f}" if how == "annotated" else f"{worth:+.1f}"
    half = f" ± {float(row['half_width']):.1f}" if row["half_width"] else ""
    return f"[{row['engine']}]({row['source']}) {figure}{half} ({how})"


def literature(out, summary):
    """Each switch beside what the reference engines report, and a reason for each disagreement."""
    import fidelity_readme
    head = ["## Beside the literature", ""]
    path = out / LITERATURE_CSV
    if not path.exists() or "cells" not in summary:
        return head + ["not run"]
    reported = {}
    for row in csv.DictReader(open(path, newline="")):
        reported.setdefault(row["switch"], []).append(row)
    found = fidelity_readme.cells(out.parent / "fidelity")
    fidelity = {(c[1], c[2]): (c[7], c[8], 2 * c[3]) for c in found}
    reasons = fidelity_readme.family_reasons(found)
    lines = head + [
        f"What reference engines report for each switch (`{LITERATURE_CSV}`: the engine, its figure "
        "turned into the worth of having the switch — a removal's loss with its sign changed — with "
        "its ± where the source gives one, the test's conditions, and the source's words quoted), "
        "beside this engine's cell: `fitted` at 10,000 nodes from the worth table, and for the two "
        "switches it does not toggle `swift`'s own form against off at 10,000 nodes "
        "(`results/fidelity/`). A cell **disagrees** when its whole 95 % interval lies below the "
        "smallest reported figure. The budgets differ: this engine's cells are at 10,000 nodes a move, "
        "the reported figures under clocks (8 s to 60 s a game), so a verdict here does not say the "
        "two would differ at equal budget. Each disagreement's reason, by rule from the data here: for a "
        "switch the fidelity study measures, the study's rule (reference form against this engine's "
        "at two budgets, in its README); for the others *interaction* where the table above finds "
        "the switch's worth significantly different between presets (a bold difference), else "
        "not resolved here (no reference form or deeper budget measured).", "",
        "| switch | this engine, 10k nodes | reported | verdict |", "|---|---|---|---|"]
    notes = []
    for name in SHARED + list(FIDELITY_ROWS):
        if name in FIDELITY_ROWS:
            v = fidelity.get((FIDELITY_ROWS[name][1], "10k"))
            where = "swift's form"
        else:
            cell = summary["cells"].get(("fitted", "10k", name))
            v = cell[0] if cell else None
            where = "fitted"
        rows = reported.get(name, [])
        smallest = min((float(r["worth"]) for r in rows), default=None)
        if v is None or smallest is None:
            verdict = "not run" if v is None else "—"
        elif v[0] + v[1] < smallest:
            verdict = "**disagrees**"
            notes.append(f"- `{name}`: {disagreement(name, summary, reasons)}.")
        elif v[0] - v[1] > 0:
            verdict = "agrees"
        else:
            verdict = "within its interval, not significant"
        mine = "not run" if v is None else f"{v[0]:+.1f} ± {v[1]:.1f} ({v[2]}, {where})"
        lines.append(f"| `{name}` | {mine} | " + "; ".join(literature_figure(r) for r in rows)
                     + f" | {verdict} |")
    summary["disagreements"] = [n[3:n.index("`", 3)] for n in notes]
    return lines + ([""] + notes if notes else [])


def disagreement(name, summary, reasons):
    """Why `name` disagrees, by the rule the literature section states."""
    if name in FIDELITY_FAMILY:
        return reasons[FIDELITY_FAMILY[name]]
    shown = [f"{s} − {w} at {b}: {d[0]:+.1f} ± {d[1]:.1f}"
             for (s, w, b, n), (d, p) in summary.get("differences", {}).items() if n == name and p < 0.05]
    d = summary.get("nnue", {}).get("differences", {}).get(name)
    if d is not None and d[1] < 0.05:
        shown.append(f"nnue − fitted at 10k: {d[0][0]:+.1f} ± {d[0][1]:.1f}")
    if shown:
        return "**interaction** — its worth differs between presets (" + "; ".join(shown) + ")"
    return "not resolved here: no reference form or deeper budget is measured for it"


# The gauntlets' ratings, read by every study's strength note (scripts/heuristics_readme.py).
GAUNTLET_CSV = "gauntlet.csv"
# The gauntlets: clock, the glob of their runs, the run of `gated`'s own (its depth table).
GAUNTLETS = [("2 s + 0.02 s", "gauntlet-*", "gauntlet-gated"),
             ("10 s + 0.1 s", "ltc-gauntlet-*", "ltc-gauntlet-gated")]
# The strength note's clock, as the protocol's amendments fix it: the studies' notes stay at the clock
# all three presets played first (they play 10 s + 0.1 s too since the third amendment).
NOTE_CLOCK = GAUNTLETS[0][0]


def gauntlet(out, clock, pattern):
    """The gauntlet's section at CLOCK, `gated`'s figures, and its ratings for gauntlet.csv:
    anchored at `gated`, and at `modern` where `modern` played (the other studies' strength note)."""
    runs = sorted(p for p in out.glob(pattern) if (p / "pairings.csv").exists())
    if not runs:
        return [f"## The gauntlet at {clock}", "", "not run"], {}, []
    from strength_gauntlet import table
    lines, fit = table(runs, "gated")
    rows = fit.csv_rows(clock)
    if "modern" in fit.names:
        rows += fit.csv_rows(clock, "modern")
    return [f"## The gauntlet at {clock}", ""] + lines, fit.figures(), rows


def csv_text(rows):
    import io
    from strength_gauntlet import CSV_COLUMNS
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def gauntlet_depth(out, run_name):
    """Per opponent of `gated`'s gauntlet in RUN_NAME: games, and each side's mean over games of its
    mean depth and mean nodes per move (as each engine reports them)."""
    import gzip
    run = out / run_name
    if not (run / "pairings.csv").exists():  # not finished
        return []
    path = next((p for p in (run / "games.csv", run / "games.csv.gz") if p.exists()), None)
    if path is None:
        return []
    opener = gzip.open if path.suffix == ".gz" else open
    manifest = json.loads((run / "manifest.json").read_text())
    label = {f"p{i:02}": p["name"] for i, p in enumerate(manifest["players"])}
    sums = {}
    with opener(path, "rt", newline="") as f:
        for r in csv.DictReader(f):
            ours = "white" if r["white"] == "p00" else "black"
            theirs = "black" if ours == "white" else "white"
            other = r["black"] if ours == "white" else r["white"]
            acc = sums.setdefault(label[other], [0, 0.0, 0.0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += float(r[f"{ours}_mean_depth"])
            acc[2] += float(r[f"{theirs}_mean_depth"])
            acc[3] += float(r[f"{ours}_mean_nodes"])
            acc[4] += float(r[f"{theirs}_mean_nodes"])
    return [(name, a[0], a[1] / a[0], a[2] / a[0], a[3] / a[0], a[4] / a[0]) for name, a in sums.items()]


def depth_section(out, clock, run_name):
    rows = gauntlet_depth(out, run_name)
    if not rows:
        return [f"## Depth in the gauntlet at {clock}", "", "not run"]
    lines = [f"## Depth in the gauntlet at {clock}", "",
             f"`gated`'s gauntlet at {clock} (`games.csv`): per opponent, the mean over games of "
             "each engine's mean depth and mean nodes per move, as each engine reports them (one "
             "engine's depth is not another's: their extensions and reductions differ).", "",
             "| opponent | games | `gated` depth | opponent depth | `gated` nodes per move | opponent nodes per move |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, n, d0, d1, n0, n1 in rows:
        lines.append(f"| {name} | {n} | {d0:.1f} | {d1:.1f} | {n0:,.0f} | {n1:,.0f} |")
    return lines


def ltc(out):
    run = out / "ltc"
    row = pairing(run)
    if row is None:
        return ["## At 10 s + 0.1 s", "", "not run"]
    return ["## At 10 s + 0.1 s", "",
            f"`gated` against `modern`, {2 * int(row['pairs'])} games on the gauntlet's book: "
            f"{elo(row)} Elo (95 %)."]


def speed(out):
    path = out / "speed.csv"
    if not path.exists():
        return ["## Speed", "", "not run"], {}
    import statistics
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    by = {}
    for r in rows:
        if r["nps"]:
            by.setdefault(r["preset"], {})[r["round"]] = float(r["nps"])
    if "modern" not in by:
        return ["## Speed", "", "speed.csv has no `modern` rounds"], {}
    lines = ["## Speed", "",
             f"`harness bench --preset P --depth 8`, {len(by['modern'])} interleaved rounds: NPS median, and "
             "the median over rounds of the ratio to `modern`'s NPS of the same round (the presets "
             "search different trees, so NPS is their cost per node, not their time to a depth).", "",
             "| preset | NPS (median) | × modern |", "|---|---:|---:|"]
    medians = {}
    for preset, rounds in by.items():
        ratio = statistics.median(rounds[k] / by["modern"][k] for k in rounds)
        medians[preset] = (statistics.median(rounds.values()), ratio)
        lines.append(f"| `{preset}` | {medians[preset][0]:,.0f} | {ratio:.3f} |")
    return lines, medians


def main(out, readme, check):
    heuristics = out.parent / "heuristics"
    g_sections, figures, ratings = [], {}, []
    for clock, pattern, run_name in GAUNTLETS:
        lines, figures[clock], rows = gauntlet(out, clock, pattern)
        ratings += rows
        g_sections += [lines, depth_section(out, clock, run_name)]
    s_lines, medians = speed(out)
    summary = {}
    sections = [clock_use(out), design(out), gates(out), ltc(out), *g_sections,
                worth(out, heuristics, summary),
                nnue_worth(out, worth_cells(out, heuristics), summary), literature(out, summary),
                s_lines]
    text = "\n\n".join("\n".join(s) for s in sections) + "\n"
    readmes = {out / "README.md": ({"findings": findings(out, figures, summary)}, None),
               out.parent.parent / "README.md": ({"strength": front_page(out, figures, medians)}, None),
               out / SUMMARY_JSON: (None, summary_json(out, figures, summary))}
    if check:
        sync({out / "table.md": (None, text), out / GAUNTLET_CSV: (None, csv_text(ratings)), **readmes},
             check=True)
        return
    print(text, end="")
    if readme:
        sync({out / GAUNTLET_CSV: (None, csv_text(ratings)), **readmes}, check=False)


def findings(out, figures, summary):
    """The README's findings: each gate's figure and verdict, the longer clock, the gauntlet, and
    the worth table's significant differences."""
    played = [name for name, _ in GATES if pairing(out / "gates" / name) is not None]
    kept = accepted(out)
    lines = ["", f"- Gates played: {len(played)}; accepted: {len(kept)}"
                 f"{' (' + ', '.join(f'`{k}`' for k in kept) + ')' if kept else ''}."]
    for name, what in GATES:
        run = out / "gates" / name
        row = pairing(run)
        if row is None:
            continue
        verdict = {"H1": "**accepted**", "H0": "rejected (H0)", "undecided": "rejected (undecided)"}[decision(run)]
        lines.append(f"- Gate `{name}` ({what}): {elo(row)} Elo, {2 * int(row['pairs'])} games, "
                     f"LLR {float(row['llr']):.2f} — {verdict}.")
    row = pairing(out / "ltc")
    if row is not None:
        lines.append(f"- `gated` against `modern` at 10 s + 0.1 s: {elo(row)} Elo "
                     f"({2 * int(row['pairs'])} games).")
    for clock, _, run_name in GAUNTLETS:
        for name, (e, lo, hi) in sorted(figures[clock].items(), key=lambda kv: -kv[1][0]):
            if name == "gated":
                continue
            if math.isinf(e):
                lines.append(f"- `{name}` at {clock}: {'won' if e > 0 else 'lost'} every game it played "
                             "in the gauntlet — above (below) every player it met, not rated by the data.")
            else:
                lines.append(f"- `{name}` against `gated` at {clock}: {e:+.0f} Elo [{lo:+.0f}, {hi:+.0f}] "
                             "(Davidson's draws, openings resampled as clusters).")
        for name, n, d0, d1, n0, n1 in gauntlet_depth(out, run_name):
            lines.append(f"- Against {name} at {clock}, `gated` reached a mean depth of {d0:.1f} per move "
                         f"to its {d1:.1f}, with {n0:,.0f} nodes a move to its {n1:,.0f} ({n} games).")
    diffs = summary.get("differences", {})
    if diffs:
        tested = len(diffs)
        held = [f"`{name}`, {strong} − {weak} at {BUDGETS[b]}: {d:+.1f} ± {h:.1f} (Holm p {p:.2g})"
                for (strong, weak, b, name), ((d, h), p) in diffs.items() if p < 0.05]
        lines.append(f"- Worth inside a stronger preset minus worth inside a weaker one, {tested} "
                     f"switch × budget × pair differences tested: significant after Holm — "
                     f"{'; '.join(held) or 'none'}.")
        biggest = max(diffs.items(), key=lambda kv: abs(kv[1][0][0]))
        (strong, weak, b, name), ((d, h), p) = biggest
        lines.append(f"- The largest difference: `{name}`, {strong} − {weak} at {BUDGETS[b]}, "
                     f"{d:+.1f} ± {h:.1f} Elo (Holm p {p:.2g}).")
    cells = summary.get("cells", {})
    if any(k[0] == "fitted" for k in cells):
        confirmed, replays = summary.get("confirmed", {}), summary.get("replays", {})

        def verdict(n):
            if n not in confirmed:
                return "its replay on the gate book's openings not yet played"
            r = replays[n]
            return (f"replayed on the gate book's openings {r[0]:+.1f} ± {r[1]:.1f} in {r[2] // 2:,} pairs, "
                    f"{'confirmed' if confirmed[n] else 'not confirmed'}")
        shown = [f"`{n}` {v[0]:+.1f} ± {v[1]:.1f} ({verdict(n)})"
                 for n in summary.get("selected", []) for v in [cells[("fitted", "10k", n)][0]]]
        missing = sum(1 for n in SHARED if ("fitted", "10k", n) not in cells)
        lines.append(f"- Inside `fitted` at 10,000 nodes, significant after Holm: {'; '.join(shown) or 'none'}"
                     + (f" ({missing} of its cells not yet played)" if missing else "") + ".")
    nnue = summary.get("nnue", {})
    if nnue.get("cells"):
        significant = [f"`{n}` {v[0]:+.1f} ± {v[1]:.1f}" for n, (v, p) in nnue["cells"].items() if p < 0.05]
        moved = [f"`{n}` {d[0]:+.1f} ± {d[1]:.1f}" for n, (d, p) in nnue["differences"].items() if p < 0.05]
        lines.append(f"- Inside `nnue` at 10,000 nodes ({len(nnue['cells'])} of {len(NNUE_ROWS)} switches "
                     f"played), significant after Holm: {'; '.join(significant) or 'none'}; worth inside "
                     f"`nnue` minus inside `fitted`, significant after Holm: {'; '.join(moved) or 'none'}.")
    if "disagreements" in summary:
        names = summary["disagreements"]
        lines.append(f"- Beside the literature (`{LITERATURE_CSV}`): {len(names)} switches below every "
                     f"reported figure{': ' + ', '.join(f'`{n}`' for n in names) if names else ''}.")
    lines += [""]
    return "\n".join(lines)


def largest_two(out):
    """The factors of the two switches with the largest worth inside `gated` at 10,000 nodes."""
    worths = [(worth_row(out / "worth" / n) or (-math.inf,))[0] for n in SHARED]
    two = sorted(range(len(SHARED)), key=lambda k: -worths[k])[:2]
    return ",".join(FACTOR.get(SHARED[k], SHARED[k]) for k in two)


def front_page(out, figures, medians):
    """The README's `gated` line, between its `<!-- strength -->` markers."""
    kept = [what for name, what in GATES[:GATES_OF_GATED] if name in accepted(out)]
    clocks = [f"at {clock}: " + "; ".join(
        (f"{name} won every game" if math.isinf(e) else f"{name} {e:+.0f} [{lo:+.0f}, {hi:+.0f}]")
        for name, (e, lo, hi) in sorted(figures[clock].items(), key=lambda kv: kv[1][0])
        if name not in ("gated", "modern", "fischerle"))
        for clock, _, _ in GAUNTLETS if figures[clock]]
    against = " — ".join(clocks)
    nps = ""
    if "gated" in medians and "modern" in medians:
        nps = (f" Its NPS: {medians['gated'][0]:,.0f} against `modern`'s {medians['modern'][0]:,.0f} "
               f"(× {medians['gated'][1]:.3f}, `harness bench --depth 8`, [speed](results/strength/table.md#speed)).")
    line = (f"`gated` = `modern` + {'; '.join(kept) or 'nothing'} — the changes that passed their SPRT gates in "
            f"[results/strength](results/strength/README.md). Rated against it (Elo, 95 %, "
            f"Davidson's draws, openings resampled as clusters) {against or 'not run'}.{nps}")
    return line


def summary_json(out, figures, summary):
    """summary.json (`harness index`'s row): the gates accepted, and `gated` at the note's clock against
    `modern` and against Glaurung 2.2 (the figure: the issue's target is at or above Glaurung), both
    from the gauntlet's joint fit, and the worth table's significant differences."""
    from readme_blocks import summary as summary_text
    played = [name for name, _ in GATES if pairing(out / "gates" / name) is not None]
    kept = accepted(out)
    # Each figure is the player's against `gated`: turned round, `gated`'s against the player.
    turned = {name: tuple(round(-x) + 0.0 for x in (e, hi, lo)) for name, (e, lo, hi) in figures[NOTE_CLOCK].items()
              if name in ("modern", "glaurung-2.2")}
    cell = lambda v: f"{v[0]:+.0f} [{v[1]:+.0f}, {v[2]:+.0f}]".replace("-", "−")  # noqa: E731
    glaurung = turned["glaurung-2.2"]
    with open(out / GAUNTLETS[0][2] / "pairings.csv", newline="") as f:
        pairs = next(r["pairs"] for r in csv.DictReader(f) if "glaurung-2.2" in (r["first_name"], r["second_name"]))
    held = [k for k, (_, p) in summary.get("differences", {}).items() if p < 0.05]
    return summary_text(
        "How strong can this engine be made with the project's own tools, every step gated, against Glaurung 2.2, "
        "Toga II 3.0 and Ethereal 12, and does a heuristic's worth change with strength?",
        f"{len(kept)} of {len(played)} gated changes passed ({', '.join(f'`{k}`' for k in kept) or 'none'}); "
        f"`gated` rates {cell(turned['modern'])} Elo over `modern` but {cell(glaurung)} against Glaurung 2.2 at "
        f"{NOTE_CLOCK}, so the target of matching it {'holds' if glaurung[0] >= 0 else 'does not hold'}; "
        + ("no switch's worth differs" if not held else f"{len(held)} switch worths differ")
        + " significantly between two strengths.",
        (f"`gated` against Glaurung 2.2, {NOTE_CLOCK}, {pairs} pairs", *glaurung, "Elo"))


if __name__ == "__main__":
    if sys.argv[1] == "--accepted":
        sys.exit(0 if decision(Path(sys.argv[2])) == "H1" else 1)
    if sys.argv[1] == "--fitted-significant":
        print("\n".join(fitted_significant(Path(sys.argv[2]))))
        sys.exit(0)
    if sys.argv[1] == "--nnue-significant":
        print("\n".join(nnue_significant(Path(sys.argv[2]))))
        sys.exit(0)
    if sys.argv[1] == "--largest-two":
        print(largest_two(Path(sys.argv[2])))
        sys.exit(0)
    main(Path(sys.argv[1]), "--readme" in sys.argv[2:], "--check" in sys.argv[2:])

#!/usr/bin/env python3
"""Joins results/eval/ into its tables (Markdown on stdout): the fits (from each fit's
manifest.json), the fitted evaluations against `modern` (each match's pairings.csv), each term's
worth removed from the fitted evaluation and added to `modern`'s (Elo with its 95 % interval from
the pentanomial variance, two-sided p from it, Holm-corrected across each budget's family of
tests), the nodes at equal depth on WAC (the grid's paired.csv) and the speed cost (cost.csv, also
written alone as cost.md).

    scripts/eval_table.py results/eval > results/eval/table.md
    scripts/eval_table.py results/eval --readme   # also rewrites the README's findings
    scripts/eval_table.py results/eval --check    # fails, with a diff, when table.md or the findings are stale

With --readme, the findings between the README's `<!-- findings -->` markers and the strength note
(`<!-- strength-note -->`, from results/strength/gauntlet.csv) are rewritten from the data, so no
number there is typed by hand.
"""
import csv
import json
import math
import sys
from pathlib import Path

from heuristics_readme import strength_note_models
from readme_blocks import SUMMARY_JSON, sync
from study_stats import holm, md_table, p_from_interval, rows

TERMS = ["passed.path", "mobility", "king_safety", "bishop_pair", "rook_files", "outposts",
         "threats", "tempo", "pawns"]


def pairings(run):
    """Rows of a finished match's pairings.csv, keyed by the second player's name."""
    path = run / "pairings.csv"
    if not path.exists():
        return None
    with open(path, newline="") as f:
        return {r["second_name"]: r for r in csv.DictReader(f)}


def p_value(row):
    """Two-sided p of Elo = 0 from the Elo and its 95 % half-width (normal approximation)."""
    elo, half = float(row["elo"]), float(row["elo95"])
    if not math.isfinite(elo) or not math.isfinite(half) or half <= 0:
        return 1.0
    return p_from_interval(elo, half)




def elo_cell(row, sign=1.0, p=None):
    if row is None:
        return "not run"
    elo, half = sign * float(row["elo"]), float(row["elo95"])
    games = int(row["pairs"]) * 2
    text = f"{elo:+.1f} ± {half:.1f} Elo ({games} games"
    if p is not None:
        text += ", Holm p < 0.001" if p < 0.001 else f", Holm p {p:.3f}"
    return text + ")"


def fits(out):
    lines = ["## The fits", "",
             "| fit | positions (fit / held out) | K | held-out loss: start → kept (epoch) | train loss: start → kept |",
             "|---|---:|---:|---|---|"]
    for name in ["fit-all", "fit-classic"]:
        path = out / name / "manifest.json"
        if not path.exists():
            lines.append(f"| {name} | not run | | | |")
            continue
        m = json.loads(path.read_text())["fitted"]
        start = m["losses"][0]
        lines.append(
            f"| `{name}` | {m['train_positions']:,} / {m['validation_positions']:,} | {m['k']:.4f} | "
            f"{start[2]:.6f} → {m['rounded'][1]:.6f} ({m['kept_epoch']}) | {start[1]:.6f} → {m['rounded'][0]:.6f} |")
    return lines


def tuned(out):
    lines = ["## The fitted evaluations against `modern`", "",
             "| match | budget | Elo of the first (95 %) |", "|---|---|---|"]
    for run, who, budget in [("tuned", "texel-all", "10,000 nodes"), ("tuned-clock", "texel-all", "2 s + 0.02 s"),
                             ("classic", "texel-classic", "10,000 nodes")]:
        rows = pairings(out / run)
        row = None if rows is None else rows.get(who)
        lines.append(f"| `{who}` against `modern` | {budget} | {elo_cell(row)} |")
    return lines


def terms(out):
    columns = [("remove", "remove-clock"), ("add", "add-clock")]
    cells = {}
    for nodes_run, clock_run in columns:
        for run in (nodes_run, clock_run):
            rows = pairings(out / run)
            if rows is None:
                continue
            for term in TERMS:
                name = f"no-{term}" if run.startswith("remove") else f"with-{term}"
                if name in rows:
                    # Removal: the term's worth is the full evaluation against the one without it.
                    sign = -1.0 if run.startswith("remove") else 1.0
                    cells[(run, term)] = (rows[name], sign)
    lines = ["## Each term's worth", "",
             "Removed from the fitted evaluation (`texel-all` against it without the term, no refit) and added "
             "to `modern`'s untuned evaluation at its hand-set weights (with against without). Holm across "
             "the tests of each budget (fixed nodes: remove and add together; the clock: the same).", "",
             "| term | removed, 10,000 nodes | removed, 0.5 s + 5 ms | added, 10,000 nodes | added, 0.5 s + 5 ms |",
             "|---|---|---|---|---|"]
    adjusted = {}
    for budget in (["remove", "add"], ["remove-clock", "add-clock"]):
        keys = [(run, t) for run in budget for t in TERMS if (run, t) in cells]
        for key, p in zip(keys, holm([p_value(cells[k][0]) for k in keys])):
            adjusted[key] = p
    for term in TERMS:
        row = [f"`{term}`"]
        for run in ["remove", "remove-clock", "add", "add-clock"]:
            if (run, term) in cells:
                r, sign = cells[(run, term)]
                row.append(elo_cell(r, sign, adjusted[(run, term)]))
            else:
                row.append("—" if run.startswith("add") and term == "pawns" else "not run")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def nodes(out):
    path = out / "nodes" / "paired.csv"
    lines = ["## Nodes at equal depth (WAC, depth 8)", ""]
    if not path.exists():
        return lines + ["not run"]
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            lines.append(
                f"`{r['values']}` against `modern`: geometric-mean node ratio {float(r['geomean_ratio']):.3f} "
                f"[{float(r['ratio_low']):.3f}, {float(r['ratio_high']):.3f}] over {r['pairs']} positions; "
                f"solved {r['gained']} gained, {r['lost']} lost (McNemar p {float(r['mcnemar_p']):.3f}).")
    return lines


def headline(out):
    """The README's findings, as sentences made from the data."""
    lines = []
    rows = {run: pairings(out / run) for run in ["tuned", "tuned-clock", "classic"]}
    def cell(run, who):
        r = rows[run]
        return elo_cell(None if r is None else r.get(who))
    lines.append(f"- **The fitted evaluation** (every term, `fit-all`) against `modern`: {cell('tuned', 'texel-all')} "
                 f"at 10,000 nodes a move; {cell('tuned-clock', 'texel-all')} at 2 s + 0.02 s.")
    lines.append(f"- **Fitting `modern`'s own terms alone** (`fit-classic`): {cell('classic', 'texel-classic')} at "
                 "10,000 nodes: fitting the old terms alone gained nothing here.")
    for budget, runs in [("10,000 nodes", ["remove", "add"]), ("0.5 s + 5 ms", ["remove-clock", "add-clock"])]:
        found, tested = [], 0
        cells = {}
        for run in runs:
            r = pairings(out / run)
            if r is None:
                continue
            for term in TERMS:
                name = f"no-{term}" if run.startswith("remove") else f"with-{term}"
                if name in r:
                    cells[(run, term)] = r[name]
        keys = list(cells)
        if not keys:
            lines.append(f"- **Each term at {budget}**: not run.")
            continue
        adjusted = holm([p_value(cells[k]) for k in keys])
        unadjusted = []
        for (run, term), p in zip(keys, adjusted):
            sign = -1.0 if run.startswith("remove") else 1.0
            how = "worth in the fit (removed)" if run.startswith("remove") else "worth added to `modern`"
            if p < 0.05:
                found.append(f"`{term}` {how} {elo_cell(cells[(run, term)], sign, p)}")
            elif p_value(cells[(run, term)]) < 0.05:
                unadjusted.append(f"`{term}` {how} {elo_cell(cells[(run, term)], sign, p)}")
        text = "; ".join(found) if found else "none"
        line = f"- **Each term at {budget}** ({len(keys)} tests, 100 pairs each, Holm across them): significant — {text}."
        if unadjusted:
            line += " Not significant after the correction, though their own intervals exclude 0: " + "; ".join(unadjusted) + "."
        lines.append(line)
    path = out / "nodes" / "paired.csv"
    if path.exists():
        with open(path, newline="") as f:
            r = next(csv.DictReader(f))
        lines.append(f"- **Nodes at equal depth** (WAC, depth 8): the fit against `modern`, geometric-mean node ratio "
                     f"{float(r['geomean_ratio']):.3f} [{float(r['ratio_low']):.3f}, {float(r['ratio_high']):.3f}]; CPU-time "
                     f"ratio {float(r['geomean_time_ratio']):.2f} [{float(r['time_low']):.2f}, {float(r['time_high']):.2f}].")
    return lines


def tables(out):
    """table.md: the study's tables, as `main` prints them."""
    sections = [fits(out), tuned(out), terms(out), nodes(out)]
    text = "# results/eval: the tables\n\n"
    text += "Written by `scripts/eval_table.py results/eval` from the run directories.\n\n"
    for s in sections:
        text += "\n".join(s) + "\n\n"
    if (out / COST_CSV).exists():
        text += "## Speed\n\n" + cost_section(out) + "\n"
    return text


COST_CSV = "cost.csv"


def cost_section(out):
    """What each evaluation term costs, from cost.csv (scripts/eval-cost.sh writes it)."""
    costs = rows(out / COST_CSV)
    names = {"classic": "classic (every preset)", "all": "every term on"}
    body = [[names.get(c["term"], f"classic + `{c['term']}`"), f"{float(c['nps_median']):,.0f}",
             c["ratio_median"]] for c in costs]
    return (f"`scripts/eval-cost.sh`: `harness bench --preset modern --depth 7` with `--set eval.TERM=on`, "
            f"{costs[0]['rounds']} interleaved rounds; NPS median, and the median of the per-round ratio to "
            "the classic evaluation's NPS. A term changes the evaluation, so it changes the tree too, and NPS "
            "depends on the tree (its share of quiescence nodes, of cutoffs): read small differences, and a "
            "term that looks faster than none (`tempo`), as noise of the tree and of a short run (about "
            "0.3 s a bench), not as the term's cost.\n\n"
            + md_table(["evaluation", "NPS (median)", "× classic"], body, right=(1, 2)) + "\n")


def blocks(out):
    return {"strength-note": strength_note_models(out), "findings": "\n".join(headline(out))}


def summary_json(out):
    """summary.json (`harness index`'s row): the fitted evaluation against `modern` at 10,000 nodes (the
    figure) and under the clock, and the term whose removal from the fit costs the most there."""
    from heuristics_readme import minus
    from readme_blocks import summary
    nodes_, clock = pairings(out / "tuned")["texel-all"], pairings(out / "tuned-clock")["texel-all"]
    removed = pairings(out / "remove")
    term = max(TERMS, key=lambda t: -float(removed[f"no-{t}"]["elo"]))
    cost = removed[f"no-{term}"]
    e, h = round(float(nodes_["elo"]), 1), round(float(nodes_["elo95"]), 1)
    shown = float(clock["elo"]) - float(clock["elo95"]) > 0
    return summary(
        "What does an evaluation fitted to game results (Texel, every term) gain over `modern`'s, and which terms "
        "carry it?",
        minus(f"At 10,000 nodes a move the fit {'beats' if e - h > 0 else 'is not shown to beat'} `modern`'s "
              f"evaluation ({e:+.1f} ± {h:.1f} Elo), `{term}` "
              f"carrying the most (removing it costs {-float(cost['elo']):.1f} ± {float(cost['elo95']):.1f}); at "
              f"2 s + 0.02 s its gain ({float(clock['elo']):+.1f} ± {float(clock['elo95']):.1f}) is "
              f"{'shown' if shown else 'not shown'}."),
        (f"fitted evaluation over `modern`'s, 10,000 nodes, {nodes_['pairs']} pairs", e, round(e - h, 1),
         round(e + h, 1), "Elo"))


def main():
    out = Path(sys.argv[1])
    # cost.md, the speed table alone, is linked from other studies.
    cost = {out / "cost.md": (None, "# What each evaluation term costs\n\n" + cost_section(out))}
    if "--check" in sys.argv[2:]:
        sync({out / "table.md": (None, tables(out)),
              out / "README.md": (blocks(out), None),
              out / SUMMARY_JSON: (None, summary_json(out)), **cost}, check=True)
        return
    if "--readme" in sys.argv[2:]:
        sync({out / "README.md": (blocks(out), None), out / SUMMARY_JSON: (None, summary_json(out)),
              **cost}, check=False)
    print(tables(out), end="")


if __name__ == "__main__":
    main()

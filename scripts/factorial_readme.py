#!/usr/bin/env python3
"""Writes (--readme) or checks (--check) results/factorial/README.md's figures from the run
directories: the strength note on top (results/strength/gauntlet.csv), the protocol's question (its
figures are results/heuristics' one-at-a-time Elo) and the results — the main
effects and their trends per doubling of the budget (weighted least squares on log₂ budget, weights
1/se², as the design's report computes them; recomputed here from design/ladder.csv), the
interactions, the one-at-a-time comparison (the model's e_X + Σⱼ e_Xj at 16,000 nodes against
results/heuristics' ablation at 10,000), the correction across all 63 effects, the openings and the
best combination's verification. The words are fixed here; the figures come from the data.

    scripts/factorial_readme.py results/factorial --readme
    scripts/factorial_readme.py results/factorial --check   # fails, with a diff, when stale
"""
import csv
import json
import math
import re
import sys
from pathlib import Path

from factorial_checks import openings
from heuristics_readme import elo_value, strength_note_models, wrap
from readme_blocks import SUMMARY_JSON, sync
from study_stats import Z95, holm, minus, p_from_interval, rows

MAIN = ["futility", "late_move_pruning", "lmr", "see_prune", "aspiration", "singular"]
SHORT = {"futility": "futility", "late_move_pruning": "LMP", "lmr": "LMR", "see_prune": "SEE pruning",
         "aspiration": "aspiration", "singular": "singular"}
ABLATION = {"see_prune": "see_prune"}


def effects(root):
    """{rung budget: {effect: row}} from design/nodes-*/effects.csv."""
    out = {}
    for rung in sorted((root / "design").glob("nodes-*"), key=lambda d: int(d.name.split("-")[1])):
        out[int(rung.name.split("-")[1])] = {r["effect"]: r for r in rows(rung / "effects.csv")}
    return out


def raw_trends(root):
    """{effect: (Elo per doubling, 95 % half-width, unadjusted p)}: the weighted least-squares slope
    of Elo on log2 of the budget (weights 1/se²) from design/ladder.csv."""
    by = {}
    for r in rows(root / "design" / "ladder.csv"):
        by.setdefault(r["effect"], []).append(r)
    out = {}
    for name, rs in by.items():
        x = [float(r["log2_budget"]) for r in rs]
        y = [float(r["elo"]) for r in rs]
        w = [1 / float(r["se"]) ** 2 for r in rs]
        xm = sum(a * b for a, b in zip(w, x)) / sum(w)
        ym = sum(a * b for a, b in zip(w, y)) / sum(w)
        sxx = sum(a * (b - xm) ** 2 for a, b in zip(w, x))
        slope = sum(a * (b - xm) * (c - ym) for a, b, c in zip(w, x, y)) / sxx
        half = Z95 * math.sqrt(1 / sxx)
        out[name] = (slope, half, p_from_interval(slope, half))
    return out


def trends(root):
    """{effect: (Elo per doubling, 95 % half-width, Holm p across the trends)}."""
    raw = raw_trends(root)
    adjusted = holm([p for _, _, p in raw.values()])
    return {n: (s, h, p) for (n, (s, h, _)), p in zip(raw.items(), adjusted)}


def ladder_family(root):
    """The ladder report's one Holm family, recomputed: every effect of every rung (raw p from
    ladder.csv) and every trend → ({(budget, effect)} marked, {trend} marked, family size)."""
    lad = rows(root / "design" / "ladder.csv")
    raw = {(int(r["rung"].split("=")[1]), r["effect"]): float(r["p"]) for r in lad}
    trend_p = {n: p for n, (_, _, p) in raw_trends(root).items()}
    keys = list(raw) + [("trend", n) for n in trend_p]
    adjusted = holm(list(raw.values()) + list(trend_p.values()))
    marked = {k for k, p in zip(keys, adjusted) if p < 0.05}
    return ({k for k in marked if k[0] != "trend"}, {k[1] for k in marked if k[0] == "trend"}, len(keys))


def split_half_shown(run):
    """A rung's best combination chosen on half the pairs and estimated on the other half (its
    `best.json`, the data of its report's *The best combination*): the combination, its Elo with
    the bootstrap interval as the report shows it, and its settings."""
    best = json.loads((run / "best.json").read_text())["split_half"]
    if "combination" not in best:
        raise SystemExit(f"no split-half best combination in {run / 'best.json'}")
    return best["combination"], best["shown"], set(best["settings"].split(","))


def split_half_text(root, top):
    """What the top rung's report says of its best combination chosen on half the pairs and
    estimated on the other half (its *The best combination* section), as a sentence."""
    combo, figure, chosen = split_half_shown(root / "design" / f"nodes-{top}")
    lo = float(re.search(r"\[([^,]*),", figure).group(1).replace("−", "-"))
    best_txt = {line.strip() for line in (root / "best.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")}
    same = chosen == best_txt
    held = "above" if lo > 0 else "not shown above"
    return (" Picking the largest of 64 noisy predictions inflates the pick (the winner's curse); the rung's "
            f"report (`design/nodes-{top}/report.md`, *The best combination*) chooses "
            + ("the same combination" if same else f"`{combo}`")
            + f" on half of the design's openings, and the other half alone rates it {minus(figure)} — "
            f"{held} the average of all 64 combinations, a different reference from the verification's `modern`, "
            "so the two figures are not comparable. The verified combination lies outside the played points, where the "
            "prediction rests on the model alone (interactions of three or more factors assumed 0); the "
            "verification, not the model, says what it is worth.")


def ci(r, bold=False):
    cell = minus(f"{float(r['elo']):+.1f} [{float(r['elo_lo']):+.1f}, {float(r['elo_hi']):+.1f}]")
    return f"**{cell}**" if bold else cell


def p_short(p):
    text = f"{p:.2g}"
    return text.replace("e-0", "e-")


def label(name):
    """A main effect as the prose names it."""
    return {"late_move_pruning": "late move pruning", "lmr": "LMR"}.get(name, SHORT[name])


def interaction_name(name):
    return " × ".join(SHORT[n] for n in name.split("×"))


def comparison(root, eff):
    """{switch: (table Elo, half, predicted, half, verdict)} at the top rung."""
    top = eff[max(eff)]
    out = {}
    for n in MAIN:
        inter = [e for k, e in top.items() if "×" in k and n in k.split("×")]
        c = float(top[n]["elo"]) + sum(float(e["elo"]) for e in inter)
        h = Z95 * math.sqrt(float(top[n]["se"]) ** 2 + sum(float(e["se"]) ** 2 for e in inter))
        t, th = elo_value(root.parent / "heuristics" / "ablation" / n)
        same = (c > 0) == (t > 0)
        gap = max(t - th - (c + h), c - h - (t + th))
        if gap <= 0:
            verdict = "yes" if same else "sign differs (intervals overlap)"
        else:
            verdict = (f"**no**: opposite signs, the intervals miss each other by {gap:.1f} Elo" if not same
                       else f"**no**: the intervals miss each other by {gap:.1f} Elo")
        out[n] = (t, th, c, h, verdict)
    return out


def results(root):
    """The Results section's figures, from *In plain words* to the best combination."""
    eff = effects(root)
    rungs = sorted(eff)
    top = rungs[-1]
    tr = trends(root)
    flat = [(b, k, r) for b in rungs for k, r in eff[b].items()]
    across = dict(zip([(b, k) for b, k, _ in flat], holm([float(r["p"]) for _, _, r in flat])))
    per_rung = {(b, k) for b, k, r in flat if float(r["p_holm"]) < 0.05}
    all_n = {(b, k) for (b, k), p in across.items() if p < 0.05}
    real_trends = [n for n, (_, _, p) in tr.items() if p < 0.05]
    lad_marked, lad_trends, family_n = ladder_family(root)
    inter_real = sorted(bk for bk in per_rung if "×" in bk[1])
    lmr = [float(eff[b]["lmr"]["elo"]) for b in rungs]
    lmp = [eff[b]["late_move_pruning"] for b in rungs]
    fut, fl = float(eff[top]["futility"]["elo"]), eff[top]["futility×lmr"]
    slope, half, _ = tr["lmr"]
    design = json.loads((root / "design" / f"nodes-{rungs[0]}" / "manifest.json").read_text())
    verify = json.loads((root / "verify" / "manifest.json").read_text())
    book, offset = design["book"]["openings"], design["seed"]
    played = [openings(root / "design" / f"nodes-{b}") for b in rungs]
    seen = set().union(*played)
    v_open = openings(root / "verify")
    pairs = design["pairs"] * len(design["pairings"])
    n_effects = len(eff[top])
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    nodes = lambda b: f"{b:,}"  # noqa: E731
    fl_elo = float(fl["elo"])

    text = [
        f"**In plain words: much of it.** LMR's worth is a function of the budget: {lmr[0]:+.1f} Elo at "
        f"{nodes(rungs[0])} nodes a move, {lmr[1]:+.1f} at {nodes(rungs[1])}, {lmr[2]:+.1f} at {nodes(rungs[2])} — "
        f"**{minus(f'{slope:+.1f}')} ± {half:.1f} Elo per doubling**, "
        + ("the one trend that survives the correction." if real_trends == ["lmr"] else
           f"one of the trends that survive the correction ({', '.join(real_trends)}).")
        + f" Late move pruning is the switch that matters at small budgets ({float(lmp[0]['elo']):+.0f} at "
        f"{nodes(rungs[0])}, {float(lmp[1]['elo']):+.0f} at {nodes(rungs[1])}, and {float(lmp[2]['elo']):+.0f}"
        + (" with an interval reaching below 0" if float(lmp[2]["elo_lo"]) < 0 else "")
        + f" at {nodes(rungs[2])}). And at {nodes(top)} nodes futility's worth is a matter of company: with LMR on "
        f"it is worth e + e×lmr = {minus(f'{fut + fl_elo:+.0f}')} Elo, with LMR off {minus(f'{fut - fl_elo:+.0f}')} "
        f"(futility × LMR **{ci(fl)}**, Holm p {float(fl['p_holm']):.1g} within its rung), "
        + (f"the one interaction of {n_effects} that survives the correction at any rung — as large as most main "
           "effects." if inter_real == [(top, "futility×lmr")] else
           f"one of {len(inter_real)} interactions that survive the correction.")
        + " The model's \"best combination\", a point the design never played, "
        + ("did not survive its verification." if float(rows(root / "verify" / "pairings.csv")[0]["llr"]) < 2.944
           else "survived its verification."),
        "",
        f"**The correction's family.** As the protocol says, Holm's correction runs over each rung's "
        f"{n_effects} effects, not over the {len(flat)} tested across the {words[len(rungs)]} rungs, and so do the "
        "rungs' reports (they name that family); the ladder's report (`design/report.md`) corrects every effect of "
        f"every rung and the {len(tr)} trends as one family of {family_n}, and "
        + ("marks the same effects and trends" if (lad_marked, lad_trends) == (per_rung, set(real_trends)) else
           f"marks {len(lad_marked)} effects (per rung: {len(per_rung)}) and {len(lad_trends)} trends "
           f"(among the trends alone: {len(real_trends)})")
        + " (recomputed here from `design/ladder.csv`). Corrected across all "
        f"{len(flat)} instead (`scripts/factorial_checks.py`, from the raw p of `design/nodes-*/effects.csv`), "
        + (f"the same {words.get(len(all_n), len(all_n))} pass and no other: " if all_n == per_rung else
           f"{len(all_n)} pass (per rung: {len(per_rung)}): ")
        + "; ".join(f"{interaction_name(k) if '×' in k else label(k)} at {nodes(b)} (Holm p "
                    f"{p_short(across[b, k])})" for b, k in sorted(all_n, key=lambda bk: (bk[0], "×" in bk[1])))
        + f". The {len(tr)} trends are corrected among themselves.",
        "",
        f"**The openings repeat.** The book has {book} openings and is cycled, so the design's offset "
        f"{offset:,} starts at its opening {offset % book + 1} and every rung played "
        + ("all" if all(len(o) == book for o in played) else "not all")
        + f" {book} of them (`scripts/factorial_checks.py`): the offset is new, the openings are not, and \"every "
        f"pair on its own opening\" holds only within a cycle. The verification's offset {verify['seed']:,} replays the "
        f"design's openings the same way: {'all' if v_open <= seen else len(v_open & seen)} "
        f"{'' if v_open <= seen else 'of the '}{len(v_open)} of its openings were played in the design, so it is not "
        "a test on openings the model never saw.",
        "",
        f"Games: {len(rungs)} rungs × {pairs} pairs × 2 = {len(rungs) * pairs * 2:,} games (`design/`), every rung a "
        "complete match with its joint ratings (`design/nodes-*/report.md`, `ratings.csv`) and effects "
        "(`effects.csv`); the ladder in `design/report.md` and `design/ladder.svg`. All comparisons here are at "
        "equal nodes; the design has no clock rung (see the protocol), so a switch's cost per node (the singular "
        "extension's, for one) is not in these numbers — the one-at-a-time table's clock column is.",
        "",
        f"**Main effects** (Elo, 2β: mean rating with the switch on minus off, over the design; bold where the "
        f"Holm-adjusted p < 0.05 among that rung's {n_effects} effects — across all {len(flat)} the bold ones are "
        + ("the same" if {bk for bk in all_n if "×" not in bk[1]} == {bk for bk in per_rung if "×" not in bk[1]}
           else "not the same") + "):",
    ]
    table = ["| switch | " + " | ".join(f"{nodes(b)} nodes" for b in rungs) + " | per doubling (Holm p among the "
             f"{len(tr)} trends) |",
             "|---|" + "---|" * len(rungs) + "---|"]
    for n in MAIN:
        s, h, p = tr[n]
        trend = minus(f"{s:+.1f} ± {h:.1f}") + f" ({p_short(p) if p < 1 else 1})"
        table.append(f"| {n} | " + " | ".join(ci(eff[b][n], (b, n) in per_rung) for b in rungs)
                     + f" | {f'**{trend}**' if p < 0.05 else trend} |")
    near = [(b, n) for b in rungs for n in MAIN if (b, n) not in per_rung
            and (float(eff[b][n]["elo_lo"]) > 0 or float(eff[b][n]["elo_hi"]) < 0)]
    uncorrected = {b: [k for k, r in eff[b].items() if "×" in k and (b, k) not in per_rung
                       and (float(r["elo_lo"]) > 0 or float(r["elo_hi"]) < 0)] for b in rungs}
    cmp = comparison(root, eff)

    def elo_of(b, k):
        return minus(f"{float(eff[b][k]['elo']):+.1f}")

    halves = [c[3] for c in cmp.values()]
    after = [
        "(" + " and ".join(f"{label(n)} at {nodes(b)}" for b, n in near)[0].upper()
        + f"{' and '.join(f'{label(n)} at {nodes(b)}' for b, n in near)[1:]} "
        f"have intervals {'above' if all(float(eff[b][n]['elo']) > 0 for b, n in near) else 'excluding'} 0 but do "
        f"not survive Holm's correction across the {n_effects} effects of their rung.)" if near else "",
        "",
        f"**Interactions**: only {', '.join(f'{interaction_name(k)} at {nodes(b)} nodes' for b, k in inter_real)} "
        "survives the correction. Others whose uncorrected interval excludes 0 — "
        + "; ".join(f"at {nodes(b)} " + ", ".join(f"{interaction_name(k)} {elo_of(b, k)}" for k in ks)
                    for b, ks in uncorrected.items() if ks)
        + " — are not shown to be real, and not shown to be absent. "
        "`design/nodes-16000/interaction-futility-lmr.svg` draws the surviving one. "
        + ("No interaction's trend across budgets survives the correction." if not [n for n in real_trends if "×" in n]
           else f"Interaction trends that survive: {', '.join(n for n in real_trends if '×' in n)}."),
        "",
        "**Against the one-at-a-time table** (`compare.md`; the model's prediction of the table's contrast — "
        "`modern` with against without the switch, all others on — is e_X + Σⱼ e_Xj, its interval ±1.96 √Σse², "
        f"about ±{round(sum(halves) / len(halves), -1):.0f} Elo at {nodes(top)} nodes; the table was measured at "
        "10,000 nodes):",
    ]
    table2 = ["| switch | table, 10,000 nodes | predicted, " + nodes(top) + " nodes | holds? |", "|---|---|---|---|"]
    for n, (t, th, c, h, verdict) in cmp.items():
        table2.append(f"| {n} | {minus(f'{t:+.1f} ± {th:.1f}')} | {minus(f'{c:+.1f} ± {h:.1f}')} | {verdict} |")
    return wrap(text) + "\n\n" + "\n".join(table) + "\n\n" + wrap(after) + "\n\n" + "\n".join(table2), cmp


def best(root, cmp):
    """The conclusions drawn from the comparison, and the best combination."""
    yes = [n for n, c in cmp.items() if c[4] == "yes"]
    overlap = [n for n, c in cmp.items() if c[4].startswith("sign differs")]
    no = [n for n, c in cmp.items() if c[4].startswith("**no**")]
    words = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    lines = open(root / "best.txt").read().splitlines()
    predicted = float(lines[0].rsplit(":", 1)[1])
    off = [k for k, v in (l.split("=", 1) for l in lines[1:] if l) if v == "off"]
    v = rows(root / "verify" / "pairings.csv")[0]
    llr, elo = float(v["llr"]), float(v["elo"])  # the second player, `best`, against `modern`
    decision = "accepted H1" if llr >= 2.944 else "accepted H0" if llr <= -2.944 else "undecided"
    names = {"late_move_pruning": "late move pruning", "qsearch.see_prune": "SEE pruning",
             "singular": "the singular extension", "futility": "futility", "lmr": "LMR",
             "aspiration": "aspiration"}
    off_text = ", ".join(names[k] for k in off[:-1]) + " and " + names[off[-1]] if len(off) > 1 else names[off[0]]
    return wrap([
        f"So {words[len(yes)]} single-switch conclusions hold ({', '.join(map(label, yes))}), {words[len(overlap)]} "
        f"are too imprecise to contradict ({', '.join(map(label, overlap))}), and {words[len(no)]} is contradicted "
        f"({', '.join(map(label, no))}). The prediction adds six noisy estimates and is the weakest number here; the design's "
        "own main effects (averaged over all companies) are the robust ones.",
        "",
        f"**The best combination.** The model at 16,000 nodes ranks, among all 64 combinations, `modern` with "
        f"{off_text} off highest, predicted {predicted:+.1f} Elo over `modern` (`best.txt`). It was never played as "
        "a design point: it is not one of the half fraction's 32 (with F = ABCDE the fraction has the singular "
        "extension on wherever futility, LMR and aspiration are on and LMP and SEE pruning off; "
        f"`scripts/factorial_checks.py`), so its {predicted:+.1f} is the model's extrapolation to a combination no "
        "game had measured. Verified against `modern` at 16,000 nodes on openings at offset 4,000 (`verify/`; the "
        f"design's openings again, see above): **{minus(f'{elo:+.1f}')} ± "
        f"{float(v['elo95']):.1f} Elo** after {v['pairs']} pairs, SPRT [0, 5] {decision} (LLR "
        f"{minus(f'{llr:.2f}')})."
        + (" It does not hold." + split_half_text(root, max(effects(root))) if llr < 2.944 else ""),
    ])


def question(root):
    """The protocol's question, whose figures are results/heuristics' (reverse futility against
    `fischerle` and inside `modern`; LMR inside `modern` at fixed nodes and under the clock)."""
    from heuristics_readme import Figures
    f = Figures(root.parent / "heuristics")
    elo = lambda part, name: minus(f"{f.elo(part, name)[0]:+.0f}")
    command = json.loads((root.parent / "heuristics" / "ablation" / "lmr" / "manifest.json").read_text())["command"]
    budget = int(command[command.index("--limit") + 1].split("nodes=")[1])
    return wrap([
        "**Question.** `results/heuristics/` measured each switch of `modern` one at a time, and found its worth "
        f"depending on the company (reverse futility {elo('elo', 'reverse_futility')} against `fischerle`, "
        f"{elo('ablation', 'reverse_futility')} inside `modern`) and on the budget (LMR {elo('ablation', 'lmr')} at "
        f"{budget:,} nodes, {elo('clock', 'lmr')} under a clock). Which switches of `modern` matter, which pairs "
        "interact, and which effects grow or vanish with the budget — all at once, with intervals corrected for the "
        "number of effects tested?"])


def summary_json(root):
    """summary.json (`harness index`'s row): LMR's trend per doubling of the budget (the one trend the
    correction keeps), the futility × LMR interaction at the top rung and the best combination's
    verification."""
    from readme_blocks import summary
    eff = effects(root)
    rungs = sorted(eff)
    slope, half, _ = trends(root)["lmr"]
    slope, half = round(slope, 1), round(half, 1)
    lmr = [float(eff[b]["lmr"]["elo"]) for b in (rungs[0], rungs[-1])]
    v = rows(root / "verify" / "pairings.csv")[0]
    held = "holds" if float(v["llr"]) >= 2.944 else "does not hold"
    return summary(
        "Which switches of `modern` matter, which pairs interact, and which effects grow or vanish with the node "
        "budget, measured all at once in a factorial design?",
        minus(f"Much depends on budget and company: LMR's worth grows {slope:+.1f} ± {half:.1f} Elo per doubling "
              f"({lmr[0]:+.1f} at {rungs[0]:,} nodes, {lmr[1]:+.1f} at {rungs[-1]:,}), futility's depends on LMR "
              f"(interaction {ci(eff[rungs[-1]]['futility×lmr'])}), and the model's best combination {held} "
              f"({float(v['elo']):+.1f} ± {float(v['elo95']):.1f})."),
        (f"LMR's worth per doubling of the budget, {rungs[0]:,} to {rungs[-1]:,} nodes", slope,
         round(slope - half, 1), round(slope + half, 1), "Elo per doubling"))


def main():
    root = Path(sys.argv[1])
    text, cmp = results(root)
    note = strength_note_models(root)
    sync({root / "README.md": ({"strength-note": note, "question": question(root), "results": text,
                                         "best": best(root, cmp)}, None),
          root / SUMMARY_JSON: (None, summary_json(root))},
         "--check" in sys.argv[2:])


if __name__ == "__main__":
    main()

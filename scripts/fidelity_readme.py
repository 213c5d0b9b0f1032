"""The fidelity study's README figures (results/fidelity/, #66), from its committed runs: each
screen's pairings.csv, tree_counts.csv; and each disagreement's reason by the protocol's rule.

    python3 scripts/fidelity_readme.py results/fidelity --readme   # write the fidelity-results block
    python3 scripts/fidelity_readme.py results/fidelity --check    # fail when it says otherwise
    python3 scripts/fidelity_readme.py results/fidelity --better-singular   # the clock run's form
"""
import math
import sys
from pathlib import Path

from readme_blocks import SUMMARY_JSON, summary, sync
from study_stats import holm, md_table, p_from_interval, rows, signed

BUDGETS = [("10k", "10,000"), ("80k", "80,000")]
# The protocol's clock run: the better singular form at 80,000 nodes against `swift`.
CLOCK = ("clock", "10 s + 0.1 s")
CLOCK_RUN = "singular-clock"
BUDGET_NAMES = {**{label: f"{nodes} nodes" for label, nodes in BUDGETS}, CLOCK[0]: CLOCK[1]}
# Each family: its runs' prefix, the engine's form, the reference's form (players of its runs),
# and the literature's claim the worth table disagrees with.
FAMILIES = [
    ("singular", "singular-fischerle", "singular-reference",
     "the singular extension (Stockfish, Ethereal, Weiss, Viridithas keep it as a large gain)"),
    ("check", "check-plain", "check-see",
     "the check extension (the reference engines extend checks by one ply, some only when SEE ≥ 0)"),
    # Fischerle's attack counting is not in `swift`: the reference form alone against off.
    ("see", None, "see-picker", "SEE in the move order (the reference move pickers' bad-capture stage)"),
]
FORMS = {
    "singular-fischerle": "singular, Fischerle's", "singular-reference": "singular, reference",
    "check-plain": "check, plain", "check-see": "check, SEE", "see-picker": "SEE, picker",
}


def cells(root):
    """Every played cell: (family, form, budget label, pairs, W, D, L, Elo, half) in protocol order,
    the clock run last."""
    runs = [(family, f"{family}-{label}", label) for family, *_ in FAMILIES for label, _ in BUDGETS]
    out = []
    for family, run, label in runs + [("singular", CLOCK_RUN, CLOCK[0])]:
        path = root / run / "pairings.csv"
        if not path.exists():
            continue
        for p in rows(path):
            out.append((family, p["second_name"], label, int(p["pairs"]), p["wins"], p["draws"],
                        p["losses"], float(p["elo"]), float(p["elo95"])))
    return out


def adjusted_p(found):
    """Each played cell's Holm-adjusted p, across every cell played (the protocol's family)."""
    return holm([p_from_interval(c[7], c[8]) for c in found])


def better_singular(found):
    """The singular form with the higher Elo at the deepest budget (the clock run's form)."""
    deep = BUDGETS[-1][0]
    played = [c for c in found if c[0] == "singular" and c[2] == deep]
    if len(played) != 2:
        raise SystemExit(f"the singular screen at {BUDGET_NAMES[deep]} is not played: "
                         f"expected 2 forms in singular-{deep}/pairings.csv, found {len(played)}")
    return max(played, key=lambda c: c[7])[1]


def table(found):
    if not found:
        return "No screen played yet."
    adjusted = adjusted_p(found)
    body = [[FORMS[c[1]], BUDGET_NAMES[c[2]], str(c[3]), f"{c[4]} / {c[5]} / {c[6]}",
             f"{signed(c[7])} ± {c[8]:.1f}", f"{p:.3g}"] for c, p in zip(found, adjusted)]
    family = sum(len([f for f in forms if f]) for _, *forms, _ in FAMILIES) * len(BUDGETS) + 1
    holm_over = (f"the family's {family} cells (the protocol's screens and the clock run)"
                 if len(found) == family else
                 f"the {len(found)} cells played so far (the family grows to the protocol's "
                 f"{family - 1} and the clock run as they are played)")
    head = ("Each form against its \"off\" inside `swift` (singular off; `check_extension=false`; "
            "`bad_captures_last=false`), "
            f"fishtest's adjudication, `fidelity-openings.epd` at seed 0; Holm across {holm_over}; "
            f"the clock run (`{CLOCK_RUN}`) is on `nnue-openings.epd`.\n\n")
    return head + md_table(["form", "budget", "pairs", "W / D / L (form)", "Elo of the form",
                            "Holm p"], body, right=(2, 4, 5))


def verdict(cell, p):
    """A cell in words, by its Holm-adjusted p."""
    return ("pays" if cell[7] > 0 else "costs") if p < 0.05 else "not shown to differ from 0"


def pays(found, adjusted, form, label):
    for c, p in zip(found, adjusted):
        if c[1] == form and c[2] == label:
            return c[7] > 0 and p < 0.05
    return None


def change(found, form):
    """The form's Elo at 80,000 nodes less its Elo at 10,000 nodes, with the difference's 95 %
    half-width (√(h₁² + h₂²)); None until both are played."""
    by = {c[2]: c for c in found if c[1] == form}
    if any(b not in by for b, _ in BUDGETS):
        return None
    low, high = by[BUDGETS[0][0]], by[BUDGETS[-1][0]]
    return high[7] - low[7], math.hypot(low[8], high[8])


def trend(found, form):
    """Whether the form's Elo rises from 10,000 to 80,000 nodes beyond the difference's 95 %
    half-width; None until both are played."""
    moved = change(found, form)
    return None if moved is None else moved[0] > moved[1]


# The protocol's reasons: (key, what it says).
IMPLEMENTATION = ("implementation", "the reference form pays where this engine's does not")
IMPLEMENTATION_SEE = ("implementation", "the reference form pays inside `swift`, where the worth table "
                      "measured SEE inside Fischerle's bucket order")
BUDGET = ("budget", "a form gains significantly from 10,000 to 80,000 nodes")
INTERACTION = ("interaction", "neither form pays at either budget inside `swift`")


def family_verdicts(found):
    """Each family's reasons by the protocol's rule (family → list of (key, text)), None for a
    family whose screens are not all played."""
    adjusted = adjusted_p(found)
    out = {}
    for family, engine, reference, _ in FAMILIES:
        forms = [f for f in (engine, reference) if f is not None]
        verdicts = {(f, b): pays(found, adjusted, f, b) for f in forms for b, _ in BUDGETS}
        if None in verdicts.values():
            out[family] = None
            continue
        reasons = []
        if engine and any(verdicts[(reference, b)] and not verdicts[(engine, b)] for b, _ in BUDGETS):
            reasons.append(IMPLEMENTATION)
        if engine is None and any(verdicts[(reference, b)] for b, _ in BUDGETS):
            # The engine's form is the worth table's cell (SEE inside Fischerle's bucket order).
            reasons.append(IMPLEMENTATION_SEE)
        if any(trend(found, f) for f in forms):
            reasons.append(BUDGET)
        if not any(verdicts.values()):
            reasons.append(INTERACTION)
        out[family] = reasons
    return out


def family_reasons(found):
    """Each family's reason by the protocol's rule, in words (family → text)."""
    adjusted, verdicts = adjusted_p(found), family_verdicts(found)
    out = {}
    for family, engine, reference, _ in FAMILIES:
        reasons = verdicts[family]
        cells_said = played(found, adjusted, engine, reference)
        if reasons is None:
            out[family] = f"not resolved yet (a screen is not played); so far {cells_said}"
            continue
        said = ("; ".join(f"**{key}** — {text}" for key, text in reasons)
                or "not resolved: the intervals allow more than one reason")
        out[family] = f"{said} ({cells_said})"
    return out


def reasons(found, root):
    said = family_reasons(found)
    lines = [f"- {claim}: {said[family]}." for family, _, _, claim in FAMILIES]
    adjusted = adjusted_p(found)
    clock = [(c, p) for c, p in zip(found, adjusted) if c[2] == CLOCK[0]]
    if clock:
        c, p = clock[0]
        lines[0] += (f" Under the clock ({CLOCK[1]}, {c[3]} pairs), {FORMS[c[1]]} scores "
                     f"{signed(c[7])} ± {c[8]:.1f}: {verdict(c, p)}.")
    counted = tree_sums(root)
    if counted is not None:
        sums, positions = counted
        for i, (_, engine, reference, _) in enumerate(FAMILIES):
            forms = [f for f in (engine, reference) if f is not None]
            lines[i] += (f" At equal depth (10, the {positions} positions below), "
                         + "; ".join(tree_why(sums, f) for f in forms) + ".")
    return "\n".join(lines)


def played(found, adjusted, engine, reference):
    """What the cells played of a family's forms say, each form's verdict at each budget played."""
    said = []
    for c, p in zip(found, adjusted):
        if c[1] in (engine, reference) and c[2] != CLOCK[0]:
            said.append(f"{FORMS[c[1]]} at {BUDGET_NAMES[c[2]]} {signed(c[7])} ± {c[8]:.1f}, {verdict(c, p)}")
    for form in (engine, reference):
        moved = change(found, form) if form is not None else None
        if moved is not None and abs(moved[0]) > moved[1]:
            said.append(f"{FORMS[form]} {'rises' if moved[0] > 0 else 'falls'} from "
                        f"{BUDGET_NAMES[BUDGETS[0][0]]} to {BUDGET_NAMES[BUDGETS[-1][0]]} by "
                        f"{signed(moved[0])} ± {moved[1]:.1f}")
    return "; ".join(said) if said else "none played"


def tree_sums(root):
    """tree_counts.csv summed over its positions: (tree form → column → count, positions), or None
    before the trees are recorded."""
    path = root / "tree_counts.csv"
    if not path.exists():
        return None
    sums = {}
    for r in rows(path):
        s = sums.setdefault(r["form"], {})
        for k, v in r.items():
            if k not in ("form", "position"):
                s[k] = s.get(k, 0) + int(v)
    return sums, len({r["position"] for r in rows(path)})


def share(s, key):
    return f"{100 * s[key] / s['nodes']:.1f} %"


def first_move_share(s):
    """The share of the cutoffs the node's first move made: how often the order guessed right."""
    return f"{100 * s['first_move_cutoffs'] / s['cutoffs']:.1f} %"


# Each screened form's tree and its off's tree in tree_counts.csv (`off` is `swift` as it is), and
# the counts that show where the form's nodes go.
TREE_FORMS = {
    "singular-fischerle": ("singular-fischerle", "off"),
    "singular-reference": ("singular-reference", "off"),
    "check-plain": ("off", "check-off"),
    "check-see": ("check-see", "check-off"),
    "see-picker": ("off", "see-off"),
}


def tree_why(sums, form):
    """Where a form's nodes go at depth 10, against its off's tree, in words."""
    mine, off = (sums[t] for t in TREE_FORMS[form])
    said = f"{FORMS[form]} searches {mine['nodes'] / off['nodes']:.2f}× the nodes of its off"
    if form.startswith("singular"):
        said += (f", {share(mine, 'in_verifications')} of them inside verifications and "
                 f"{share(mine, 'below_singular')} below its {mine['singular_extended']:,} extensions")
    elif form.startswith("check"):
        said += f", {share(mine, 'below_check')} below its {mine['check_extended']:,} check extensions"
    else:
        said += f", the first move making {first_move_share(mine)} of the cutoffs (off: {first_move_share(off)})"
    return said


def trees(root):
    found = tree_sums(root)
    if found is None:
        return "The trees are not recorded yet."
    sums, positions = found
    body = [[f"`{form}`", f"{s['nodes']:,}", f"{s['verifications']:,}", share(s, "in_verifications"),
             f"{s['singular_extended']:,}", share(s, "below_singular"), f"{s['negative_extended']:,}",
             f"{s['multicuts']:,}", f"{s['check_extended']:,}", share(s, "below_check"),
             f"{s['cutoffs']:,}", first_move_share(s)]
            for form, s in sorted(sums.items())]
    head = (f"Depth 10, the last iteration's tree, summed over {positions} positions listed in "
            "`scripts/fidelity.sh` before any tree was recorded (not chosen by these counts) "
            "(`tree_counts.csv`; `off` is `swift` as it is: singular off, plain check extension, "
            "losing captures after the quiet moves; `see-off` orders every capture by MVV-LVA "
            "before them). \"First move\" is the share of the cutoffs made by the node's first "
            "move: how often the order guessed right.\n\n")
    return head + md_table(["form", "nodes", "verifications", "in verifications", "singular ext.",
                            "below them", "negative ext.", "multicuts", "check ext.", "below them",
                            "cutoffs", "first move"], body, right=tuple(range(1, 12)))


QUESTION = ("Where the worth table disagrees with the literature (the singular extension, the check "
            "extension, SEE in the order), was the heuristic measured or this engine's form of it, and "
            "does the reference form pay at depth?")
# Each family's short name in summary.json's answer.
SHORT = {"singular": "singular extension", "check": "check extension", "see": "SEE in the order"}


def clock_answer(by):
    """The clock run's clause for summary.json, empty until it is played."""
    played = [c for (_, label), c in by.items() if label == CLOCK[0]]
    return f", under {CLOCK[1]} {signed(played[0][7])} ± {played[0][8]:.1f}" if played else ""


def reasons_answer(found):
    """The families' reasons for summary.json: the protocol's words only."""
    words = [f"{SHORT[f]} {' and '.join(k for k, _ in reasons or []) or 'not resolved'}"
             for f, reasons in family_verdicts(found).items()]
    return "; by the protocol's rule: " + ", ".join(words) + "."


def summary_json(found):
    """summary.json (`harness index`'s row): both singular forms at the deepest budget played."""
    by = {(c[1], c[2]): c for c in found}
    label = next((b for b, _ in reversed(BUDGETS)
                  if ("singular-fischerle", b) in by and ("singular-reference", b) in by), None)
    if label is None:
        return None
    f, r = by[("singular-fischerle", label)], by[("singular-reference", label)]
    nodes = dict(BUDGETS)[label]
    answer = (f"Inside `swift` at {nodes} nodes Fischerle's singular form scores {signed(f[7])} ± "
              f"{f[8]:.1f} Elo and the reference form {signed(r[7])} ± {r[8]:.1f}" + clock_answer(by)
              + (reasons_answer(found) if label == BUDGETS[-1][0] else "; the deeper screen is not played yet."))
    return summary(QUESTION, answer, (f"reference singular extension in `swift`, {nodes} nodes", round(r[7], 1),
                                      round(r[7] - r[8], 1), round(r[7] + r[8], 1), "Elo"))


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("--readme", "--check", "--better-singular"):
        raise SystemExit(__doc__)
    root = Path(sys.argv[1])
    found = cells(root)
    if sys.argv[2] == "--better-singular":
        print(better_singular(found))
        return
    block = "\n\n".join(["### Screens", table(found), "### Reasons", reasons(found, root),
                         "### Where the nodes go", trees(root)])
    files = {root / "README.md": ({"fidelity-results": block}, None)}
    text = summary_json(found)
    if text is not None:
        files[root / SUMMARY_JSON] = (None, text)
    sync(files, check=sys.argv[2] == "--check")


if __name__ == "__main__":
    main()

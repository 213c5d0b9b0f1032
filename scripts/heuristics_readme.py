"""results/heuristics/README.md's figures, written from the run directories (imported by
heuristics_table.py, which writes or checks them with --readme / --check): the strength note on top
(from results/strength/gauntlet.csv), and every figure of the findings, from a switch's node ratio
(`nodes`, a grid's paired.csv) and Elo (`elo_value`, a match's pairings.csv), which the table and
other studies read too. The words around each figure are fixed here; the figures, and which
switches a sentence ranks first, come from the data.
"""
import math
import re

from strength_table import GAUNTLET_CSV, NOTE_CLOCK
from study_stats import minus, rows

# Each switch as the findings name it.
NAMES = {
    "lmr": "LMR", "see_prune": "QS SEE pruning", "late_move_pruning": "late move pruning",
    "futility": "futility pruning", "aspiration": "aspiration windows",
    "singular": "the singular extension", "reverse_futility": "reverse futility pruning",
    "check_extension": "the check extension", "countermove": "the countermove heuristic",
    "mate_distance": "mate-distance pruning", "razoring": "razoring", "iir": "IIR",
    "delta": "delta pruning", "two_tier_tt": "the two-tier TT",
    "continuation_history": "continuation history", "lmr_cut_node": "the cut-node LMR adjustment",
    "eval_cache": "the evaluation cache",
}
NOTHING = ["mate_distance", "razoring", "iir", "delta", "two_tier_tt", "lmr_cut_node"]


# The values that turn a switch off (scripts/heuristics.sh, off_value; Toga II's `Never` in
# scripts/cross-engine.sh).
OFF = ("off", "false", "always", "never")


def is_off(values):
    """Whether a player or config named like `lmr=off` (its `--set` values) has the switch off."""
    return values.rsplit("=", 1)[-1].lower() in OFF


def per_suite(grid, invert):
    """Plain geometric mean of the node ratio (with / without), suite by suite."""
    by = {}
    for r in rows(grid / "runs.csv"):
        by.setdefault((r["suite"], r["position_id"]), {})[r["config_id"]] = float(r["nodes"])
    logs = {}
    for (suite, _), n in by.items():
        if "c00" in n and "c01" in n:
            log = math.log(max(n["c01"], 1) / max(n["c00"], 1))
            logs.setdefault(suite, []).append(-log if invert else log)
    return {s: math.exp(sum(v) / len(v)) for s, v in logs.items()}


def nodes(grid):
    """(ratio, cells) for one grid: baseline c00 against the variant c01, as with / without."""
    if not (grid / "paired.csv").exists():
        return None
    p = rows(grid / "paired.csv")[0]
    invert = is_off(p["values"])
    flip = (lambda x: 1 / x) if invert else (lambda x: x)
    ratio = flip(float(p["geomean_ratio"]))
    low, high = sorted((flip(float(p["ratio_low"])), flip(float(p["ratio_high"]))))
    time = flip(float(p["geomean_time_ratio"]))
    gained, lost = (p["lost"], p["gained"]) if invert else (p["gained"], p["lost"])
    return ratio, {
        "ratio": f"{ratio:.3f} [{low:.3f}, {high:.3f}]",
        "interval": (low, high),
        "suites": per_suite(grid, invert),
        "time": f"{time:.3f}",
        "solved": f"+{gained} −{lost} (p {float(p['mcnemar_p']):.2g})",
    }


def elo_value(match):
    """(Elo, 95 % half-width) of the switch (with against without) from a match's pairings.csv;
    None when not played, the W-D-L text when the Elo is not finite."""
    path = match / "pairings.csv"
    if not path.exists():
        return None
    r = rows(path)[0]
    if not r["elo"]:
        return f"{r['wins']}-{r['draws']}-{r['losses']} (no finite Elo)"
    sign = -1 if is_off(r["second_name"]) else 1
    return sign * float(r["elo"]) + 0.0, float(r["elo95"])  # + 0.0: no "-0.0"


class Figures:
    """The study's figures, looked up by part and switch."""

    def __init__(self, root):
        self.root = root

    def elo(self, part, name):
        value = elo_value(self.root / part / name)
        if not isinstance(value, tuple):
            raise SystemExit(f"{self.root / part / name}: no finite Elo")
        return value

    def e(self, part, name):
        e, h = self.elo(part, name)
        return minus(f"{e:+.1f} ± {h:.1f}")

    def los(self, part, name):
        r = rows(self.root / part / name / "pairings.csv")[0]
        sign_off = r["second_name"].rsplit("=", 1)[-1].lower() in ("off", "false")
        los = 1 - float(r["los"]) if sign_off else float(r["los"])
        return f"LOS {100 * max(los, 1 - los):.1f} %"

    def nodes(self, grid, name):
        return nodes(self.root / grid / name)[1]

    def ratio(self, grid, name):
        return nodes(self.root / grid / name)[0]

    def raw(self, grid, name):
        p = rows(self.root / grid / name / "paired.csv")[0]
        off = p["values"].rsplit("=", 1)[-1].lower() in ("off", "false", "always", "never")
        gained, lost = (int(p["lost"]), int(p["gained"])) if off else (int(p["gained"]), int(p["lost"]))
        time = float(p["geomean_time_ratio"])
        return gained, lost, float(p["mcnemar_p"]), 1 / time if off else time, int(p["pairs"])


def p_text(p):
    """A p-value as the prose writes it: 0.0001, 2e-6."""
    if p >= 1e-4:
        return f"{p:.1g}"
    mantissa, exponent = f"{p:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def span(a, b, fmt):
    lo, hi = sorted((a, b))
    return f"{lo:{fmt}}–{hi:{fmt}}"


def ranked(f, part, names):
    return sorted(names, key=lambda n: -f.elo(part, n)[0])


ENGINES = [("toga-ii-3.0", "Toga II 3.0"), ("glaurung-2.2", "Glaurung 2.2"), ("ethereal-12", "Ethereal 12")]


def gauntlet_ratings(root, model="Davidson's draws"):
    """{player: row} of the gauntlet's joint ratings anchored at `modern` under MODEL."""
    path = root.parent / "strength" / GAUNTLET_CSV
    return {r["player"]: r for r in rows(path)
            if r["clock"] == NOTE_CLOCK and r["anchor"] == "modern" and r["model"] == model}


def rating_cell(r):
    if r["not_rated"]:
        return f"not rated ({r['not_rated']})"
    return minus(f"{float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}]")


def strength_note(root):
    """Where `modern` stands: the strength study's gauntlet, `modern` = 0."""
    ratings = gauntlet_ratings(root)
    engines = [f"{label} {rating_cell(ratings[name])}" for name, label in ENGINES]
    games = sum(int(r["games"]) for r in ratings.values()) // 2
    return (f"**Strength of the engine measured here** ([the strength study's gauntlet](../strength/README.md), "
            f"{NOTE_CLOCK} a game, {games:,} games, Elo with `modern` = 0 under Davidson's draws, 95 % "
            f"intervals resampling openings): {'; '.join(engines)}; `fischerle` "
            f"{rating_cell(ratings['fischerle'])}; `gated`, the strongest preset, {rating_cell(ratings['gated'])}.")


def strength_note_models(root):
    """The strength note with the other draw model beside it."""
    half = gauntlet_ratings(root, "draws as half a win")
    other = "; ".join(f"{label} {rating_cell(half[name])}" for name, label in ENGINES)
    return wrap([strength_note(root) + f" Counting a draw as half a win instead: {other}."])


def wrap(paragraphs):
    """Markdown paragraphs and bullets (a string starting `- `) wrapped at 100 columns."""
    import textwrap
    out = []
    # Never break inside "3 → 4", "+42.8 ± 29.8" or "≥ 280": those spaces are held as \0 while
    # filling (textwrap breaks only at ASCII whitespace) and restored after.
    held = [(" → ", "\0→\0"), (" ± ", "\0±\0"), ("≥ ", "≥\0"), ("× ", "×\0")]
    for a, b in held:
        paragraphs = [p.replace(a, b) for p in paragraphs]
    # Nor inside a clock, "2 s + 0.02 s".
    paragraphs = [re.sub(r"(\d) s \+ ([\d.]+) s\b", "\\1\0s\0+\0\\2\0s", p) for p in paragraphs]
    for p in paragraphs:
        if p.startswith("- "):
            out.append(textwrap.fill(p[2:], 100, initial_indent="- ", subsequent_indent="  ",
                                     break_on_hyphens=False, break_long_words=False))
        elif p == "":
            out.append("")
        else:
            out.append(textwrap.fill(p, 100, break_on_hyphens=False, break_long_words=False))
    return "\n".join(out).replace("\0", " ")


def findings(root):
    f = Figures(root)
    e, n, r = f.e, f.nodes, f.ratio
    top = ranked(f, "elo", [p.name for p in (root / "elo").iterdir()])
    four = ", ".join(f"{NAMES[s]} ({e('elo', s)}{' Elo' if i == 0 else ''})" for i, s in enumerate(top[:4]))
    four = four.rsplit(", ", 1)[0] + " and " + four.rsplit(", ", 1)[1]
    follow = " and ".join(f"{NAMES[s]} ({e('elo', s)})" for s in top[4:6])
    clock = ranked(f, "clock", [p.name for p in (root / "clock").iterdir()])[:2]
    positions = f.raw("nodes", "lmr")[4]
    ce = [f.raw(g, "check_extension") for g in ("nodes", "nodes-modern")]
    cm = [r(g, "countermove") for g in ("nodes", "nodes-modern")]
    nothing = max(abs(f.elo(part, s)[0]) for s in NOTHING for part in ("elo", "ablation")
                  if (root / part / s).exists())
    rf, lmr = f.raw("nodes", "reverse_futility"), f.raw("nodes", "lmr")
    cache_time = [f.raw(g, "eval_cache")[3] for g in ("nodes", "nodes-modern")]
    futility = f.raw("nodes", "futility")
    razor = f.raw("nodes", "razoring")
    wac = rows(root / "targets" / "wac-1s" / "summary.csv")[0]
    sts = {r["values"].split()[0].split("=")[1]: r for r in rows(root / "targets" / "sts-100ms" / "summary.csv")}
    def sts_cell(engine):
        s = sts[engine]
        points = f"{float(s['points']):,.0f}" + (f" of {float(s['max_points']):,.0f} points" if engine == "builtin" else "")
        return (f"**{points}**",
                f"{100 * float(s['points']) / float(s['max_points']):.1f} %", f"{int(s['solved']):,}")
    modern_pairs = {k: rows(root / "modern" / k / "pairings.csv")[0]["pairs"] for k in ("nodes", "clock")}
    sm, ss, sf = sts_cell("builtin"), sts_cell("stockfish"), sts_cell("ethereal-chess")
    razor_games = ", ".join(e(p, "razoring") for p in ("elo", "ablation", "clock"))
    mdp = [e(p, "mate_distance") for p in ("elo", "ablation", "clock")]
    return wrap([
        f"**The full table is [table.md](table.md)** (`scripts/heuristics.sh table`): per switch, the node ratio at "
        f"depth 6 over {positions:,} positions with its interval and per suite, the CPU-time ratio, solved positions "
        "gained and lost, and the Elo figures — all as *with the switch against without it*. Every run folder has its "
        "`report.md`; the per-iteration rows of the node grids and the per-move rows of the matches are left out of "
        "the repository (regenerated identically by the script). The node counts are exact; the CPU-time ratios of "
        "parts 1 and 7 are rougher (a low-priority build shared the machine during some of those grids); nothing "
        "else ran during the clock games.",
        "",
        f"**What matters most.** At fixed nodes against `fischerle`, the four that stand out are {four}; {follow} "
        f"follow. Inside `modern`, under the short clock, the largest are {NAMES[clock[0]]} ({e('clock', clock[0])}) "
        f"and {NAMES[clock[1]]} ({e('clock', clock[1])}). The trees say the same about the reductions: at depth 6 "
        f"LMR leaves {r('nodes', 'lmr'):.2f} of `fischerle`'s nodes ({r('nodes-modern', 'lmr'):.2f} of `modern`'s), "
        f"late move pruning {r('nodes', 'late_move_pruning'):.2f} ({r('nodes-modern', 'late_move_pruning'):.2f}), "
        f"reverse futility pruning {r('nodes', 'reverse_futility'):.2f}, futility pruning {r('nodes', 'futility'):.2f}.",
        "",
        f"**The weakest.** The check extension: {e('elo', 'check_extension')} against `fischerle`, "
        f"{e('ablation', 'check_extension')} inside `modern` at fixed nodes, {e('clock', 'check_extension')} under the "
        f"clock; at equal depth it solves {span(ce[0][0], ce[1][0], 'd')} positions that the search without it misses "
        f"(and misses {span(ce[0][1], ce[1][1], 'd')} that it solves; McNemar p ≤ {max(ce[0][2], ce[1][2]):.2g}) but "
        f"needs {span(r('nodes', 'check_extension'), r('nodes-modern', 'check_extension'), '.1f')} × the nodes to get "
        "there — the clearest case in the study of equal depth and equal budget disagreeing. The countermove heuristic "
        f"is no gain either ({e('elo', 'countermove')}, {e('ablation', 'countermove')}, {e('clock', 'countermove')}; it "
        f"also grows the trees by {span(100 * (cm[0] - 1), 100 * (cm[1] - 1), '.0f')} %). Mate-distance pruning, "
        "razoring, IIR, delta pruning, the two-tier TT and the cut-node LMR adjustment are within "
        f"±{math.ceil(nothing)} Elo at fixed nodes, indistinguishable from nothing at these sample sizes.",
        "",
        "**The context changes the worth.** Three switches are worth something different inside `modern` than "
        "against `fischerle`, on openings the preset was not chosen on:",
        f"- reverse futility pruning, {e('elo', 'reverse_futility')} against `fischerle` but "
        f"**{e('ablation', 'reverse_futility')}** inside `modern` at fixed nodes ({e('clock', 'reverse_futility')} under "
        "the clock): the protocol's selection rule (one switch at a time against `fischerle`) left out what is, "
        "inside the preset, its largest single gain at fixed nodes;",
        f"- the singular extension, chosen at {e('elo', 'singular')}, is **{e('ablation', 'singular')}** inside "
        f"`modern` at fixed nodes (`modern` is better without it, {f.los('ablation', 'singular')}) and "
        f"{e('clock', 'singular')} under the clock — it costs {r('nodes-modern', 'singular'):.1f} × the nodes at "
        "depth 6, which LMR no longer pays for;",
        f"- continuation history, {e('elo', 'continuation_history')} against `fischerle`, is "
        f"{e('ablation', 'continuation_history')} inside `modern` at fixed nodes "
        f"({f.los('ablation', 'continuation_history')}) and {e('clock', 'continuation_history')} under the clock "
        f"({f.los('clock', 'continuation_history')}).",
        "",
        "So a second round (modern + reverse futility + continuation history − singular, checked on openings of a "
        "third seed) would very likely give a stronger preset. It was not run: the protocol fixed the preset by part "
        "3, every figure here is relative to it, and a match player with several settings changed at once needs a "
        "grid-file feature the harness does not have yet.",
        "",
        "**Equal depth, equal nodes, equal time.** The three measures disagree exactly where a switch trades "
        f"accuracy for nodes. Reverse futility pruning loses {rf[1]} solved positions at depth 6 and gains "
        f"{rf[0]} (p {p_text(rf[2])}) and is worth nothing at fixed nodes against `fischerle`; LMR loses {lmr[1]} and "
        f"gains {lmr[0]} (p {p_text(lmr[2])}) and is the strongest; the extensions win positions at equal depth and lose games at "
        "equal budgets. Under the clock, LMR's and late move pruning's worth grows "
        f"({f.elo('ablation', 'lmr')[0]:+.0f} → {f.elo('clock', 'lmr')[0]:+.0f}, "
        f"{f.elo('ablation', 'late_move_pruning')[0]:+.0f} → {f.elo('clock', 'late_move_pruning')[0]:+.0f}): the "
        "clock gives more nodes per move than 10,000, and a reduction's gain grows with depth. The evaluation cache "
        f"never changes a node (ratio {r('nodes', 'eval_cache'):.3f}) and costs "
        f"{span(100 * (cache_time[0] - 1), 100 * (cache_time[1] - 1), '.0f')} % of CPU time: the incremental "
        f"evaluation (#20) made it slower than evaluating; under the clock it is {e('clock', 'eval_cache')} (nothing "
        "measurable).",
        "",
        "**Against the published magnitudes.**",
        "- Heinz (*Scalable Search in Computer Chess*, 2000, ch. 1; DarkThought, people.csail.mit.edu/heinz/dt): "
        "extended futility pruning shrinks trees by 10–20 % against normal futility pruning with hardly any tactical "
        "loss; limited razoring adds 5–15 % at depths above 10 plies but \"hardly influences searches of fixed depths "
        "≤ 10 plies\" (his Table 1.2: WAC at 8 plies −0.21 % nodes, 0 solved changed). Here at depth 6: futility "
        f"pruning (frontier and extended) {r('nodes', 'futility'):.3f} × nodes with +{futility[0]} −{futility[1]} "
        f"solved (p {futility[2]:.2g}) — agrees; limited razoring {r('nodes', 'razoring'):.3f} × nodes, "
        f"{'no position changed' if razor[0] + razor[1] == 0 else f'+{razor[0]} −{razor[1]} solved'} — agrees with "
        f"his shallow-depth rows; in games it is nothing measurable ({razor_games}).",
        f"- LMR: Blunder's author reports +32 Elo for a simple LMR (talkchess.com, topic 78397); here "
        f"{e('elo', 'lmr')} and {e('ablation', 'lmr')} at fixed nodes — agrees. Stockfish's annotated search (the "
        "`(~N Elo)` comments of `src/search.cpp`, Stockfish 10–16, from fishtest tests removing each step) rates its "
        f"far more elaborate LMR at ~98–117 Elo; our clock figure, {e('clock', 'lmr')}, is of that order.",
        "- The same annotations: move-count pruning (our late move pruning) ~30 Elo — here "
        f"{min(f.elo(p, 'late_move_pruning')[0] for p in ('elo', 'ablation', 'clock')):+.0f} to "
        f"{max(f.elo(p, 'late_move_pruning')[0] for p in ('elo', 'ablation', 'clock')):+.0f}, agrees; futility pruning "
        "of the child node (our reverse futility pruning) ~40–50 Elo — agrees inside `modern` "
        f"({e('ablation', 'reverse_futility')}, {e('clock', 'reverse_futility')}), not against `fischerle`; razoring "
        "~1 Elo — agrees; check extensions ~1 Elo (Stockfish extends checks only at depth > 9) — ours, unrestricted "
        "but for the path limit, is strongly negative: the direction agrees, nothing is left of its worth; singular "
        f"extension ~60–94 Elo — **does not agree** ({e('ablation', 'singular')} and {e('clock', 'singular')} here): "
        "ours is the simple restricted form (half-depth verification, no multi-cut, no negative extensions), in "
        "shallow searches where its cost dominates.",
        f"- Mate-distance pruning is worth nothing in games, as expected: {mdp[0]} against `fischerle` (most games "
        f"identical), {mdp[1]} and {mdp[2]} inside `modern`.",
        "",
        "**Strength targets.**",
        f"- WAC at 1 s per position, `modern` ({int(wac['positions'])} positions, Arasan's revision): "
        f"**{int(wac['solved'])} solved** — the goal (≥ 280, Stockfish 15.1's level on this machine) is "
        f"{'met' if int(wac['solved']) >= 280 else 'not met'} (`targets/wac-1s/`).",
        f"- STS 1–15 at 100 ms per position, one grid, 1 thread each, Hash 16: `modern` {sm[0]} ({sm[1]}, {sm[2]} "
        f"best moves), Stockfish 15.1 {ss[0]} ({ss[1]}, {ss[2]}), Ethereal 12 {sf[0]} ({sf[1]}, {sf[2]}) "
        "(`targets/sts-100ms/`). Far behind both, as an engine with Fischerle's hand-made evaluation should be on a "
        "positional suite.",
        f"- `modern` against `fischerle` on openings it was not chosen on (seed 1000): {e('modern', 'nodes')} at "
        f"10,000 nodes ({modern_pairs['nodes']} pairs), {e('modern', 'clock')} at 1 s + 10 ms "
        f"({modern_pairs['clock']} pairs) (`modern/`).",
    ])


def blocks(root):
    """The README's blocks by marker name."""
    return {"strength-note": wrap([strength_note(root)]), "findings": findings(root)}

"""results/cross-engine/README.md's figures, written from the run directories (imported by
cross_engine_table.py, which writes or checks them with --readme / --check): the ablation table
beside Toga II, its reading in plain words, and the round robin's ratings with the draw-model,
single-game and anchor figures, from each shared heuristic's measured figures (`measured`,
`with_holm`), which the table reads too. The words are fixed here; the figures come from the data.
"""
import math

import strength_draw_models
from heuristics_readme import elo_value, nodes, wrap
from study_stats import holm, minus, p_from_interval, rows

# Heuristic (the directory suffix in scripts/cross-engine.sh) and its name in the table.
HEURISTICS = [
    ("null_move", "null move"),
    ("futility", "futility (frontier + extended)"),
    ("delta", "delta pruning"),
    ("lmr", "late-move reduction (Toga: history pruning)"),
]
# Ours' node grids that results/heuristics already holds (same positions, depth, bench signature).
HEURISTICS_GRIDS = {"futility": "futility", "delta": "delta", "lmr": "lmr"}
ENGINES = [("ours", "ours (`modern`, depth 6, 10k nodes)"), ("toga", "Toga II (depth 8, depth 6)")]
ANCHOR_PREFIX = "sf-elo-"


def node_grid(root, engine, name):
    """The node grid of one engine's heuristic."""
    if engine == "ours" and name in HEURISTICS_GRIDS:
        return root.parent / "heuristics" / "nodes-modern" / HEURISTICS_GRIDS[name]
    return root / "nodes" / f"{engine}-{name}"


def nps(match):
    """Nodes per second of the first player (the heuristic on) over every move of a clock match
    (played on an otherwise idle machine; the node grids shared it with builds)."""
    path = match / "games.csv"
    if not path.exists() and not path.with_name("games.csv.gz").exists():
        return None
    nodes = seconds = 0.0
    for g in rows(path):
        for side in ("white", "black"):
            if g[side] == "p00" and g[f"{side}_moves"] not in ("", "0"):
                moves = int(g[f"{side}_moves"])
                nodes += moves * float(g[f"{side}_mean_nodes"])
                seconds += moves * float(g[f"{side}_mean_time_ms"]) / 1000
    return nodes / seconds if seconds else None


def p_value(value):
    """Two-sided p of an Elo figure from its 95 % interval (normal approximation)."""
    return p_from_interval(*value)


def measured(root):
    """{(engine, name): {"nodes": (ratio, cells) | None, "nps", "fixed", "clock"}}."""
    out = {}
    for name, _ in HEURISTICS:
        for engine, _ in ENGINES:
            grid = node_grid(root, engine, name)
            out[engine, name] = {
                "nodes": nodes(grid),
                "nps": nps(root / "clock" / f"{engine}-{name}"),
                "fixed": elo_value(root / "fixed" / f"{engine}-{name}"),
                "clock": elo_value(root / "clock" / f"{engine}-{name}"),
            }
    return out


def with_holm(table):
    """Adds each Elo figure's Holm-adjusted p (key `BUDGET_p`) across all finite figures."""
    cells = [(k, b) for k, m in table.items() for b in ("fixed", "clock") if isinstance(m[b], tuple)]
    for (key, budget), p in zip(cells, holm([p_value(table[k][b]) for k, b in cells])):
        table[key][budget + "_p"] = p


FISCHERLE = "fischerle"
LABELS = {"null_move": "null move", "futility": "futility", "delta": "delta pruning",
          "lmr": "late-move reduction"}
PLAYERS = {"stockfish-15.1": "Stockfish 15.1", "ethereal-12": "Ethereal 12",
           "toga-ii-3.0": "Toga II 3.0", "modern": "**`modern`**", "fischerle": "**`fischerle`**"}


def player(name):
    if name.startswith(ANCHOR_PREFIX):
        return f"Stockfish, `UCI_Elo` {name[len(ANCHOR_PREFIX):]}"
    return PLAYERS.get(name, name)


def ablation(root):
    table = measured(root)
    with_holm(table)
    def elo(m, budget, note=""):
        e, h = m[budget]
        cell = minus(f"{e:+.1f} ± {h:.1f}")
        return (f"**{cell}**" if m[budget + "_p"] < 0.05 else cell) + note
    forfeits = []
    games = 0
    for d in sorted((root / "clock").iterdir()):
        for g in rows(d / "games.csv"):
            games += 1
            if g["termination"] == "time forfeit":
                loser = "p00" if g["result"] == "0-1" and g["white"] == "p00" or \
                    g["result"] == "1-0" and g["black"] == "p00" else "p01"
                side = "with" if loser == "p00" else "without"
                forfeits.append(f"{d.name.replace('-', ', ', 1)}, {side} it")
    lines = [f"Games lost on time under the clock: {len(forfeits)} of {games:,}"
             + (f" ({'; '.join(forfeits)})." if forfeits else "."), "",
             "| heuristic | engine | nodes at equal depth | Elo, fixed budget | Elo, 2 s + 0.02 s |",
             "|---|---|---|---|---|"]
    for name, _ in HEURISTICS:
        for engine in ("ours", "toga"):
            m = table[engine, name]
            first = LABELS[name] if engine == "ours" else "|"
            who = "ours" if engine == "ours" else ("Toga II (history pruning)" if name == "lmr" else "Toga II")
            significant = m["fixed_p"] < 0.05
            note = " (10k nodes)" if (name == "null_move" and engine == "ours") else \
                " (depth 6)" if engine == "toga" and significant else ""
            lines.append(f"| {first} {who} |".replace("| | ", "| | ").replace("| |", "| |") if False else
                         f"| {first}{' |' if engine == 'ours' else ''} {who} | {m['nodes'][1]['ratio']} | {elo(m, 'fixed', note)} | "
                         f"{elo(m, 'clock')} |")
    speed = {e: sum(table[e, n]["nps"] for n, _ in HEURISTICS) / len(HEURISTICS) / 1e6 for e in ("ours", "toga")}
    figures = sum(1 for m in table.values() for b in ("fixed", "clock") if isinstance(m[b], tuple))
    lines += ["", wrap([f"Bold: significant after Holm's correction across the {figures} Elo figures. Speed under "
                        f"the clock (the mean of the four clock matches' nodes per second): ours about "
                        f"{speed['ours']:.1f} M nodes/s, Toga about {speed['toga']:.1f} M (as each counts a node — "
                        "compare ratios, not counts).", ""])]
    return "\n".join(lines).rstrip("\n"), table


def plain_words(table):
    """The bullets of *In plain words*."""
    r = {(e, n): table[e, n]["nodes"][0] for e in ("ours", "toga") for n, _ in HEURISTICS}
    elo = {(e, n, b): table[e, n][b] for e in ("ours", "toga") for n, _ in HEURISTICS for b in ("fixed", "clock")}
    sig = {(e, n, b): table[e, n][b + "_p"] < 0.05 for e in ("ours", "toga") for n, _ in HEURISTICS for b in ("fixed", "clock")}
    def f(e, n, b, fmt="+.1f", half=False):
        v = elo[e, n, b]
        return minus(f"{v[0]:{fmt}}" + (f" ± {v[1]:.0f}" if half else ""))
    same_sign = sum(1 for n, _ in HEURISTICS if (elo["ours", n, "fixed"][0] > 0) == (elo["ours", n, "clock"][0] > 0))
    differ = [n for n, _ in HEURISTICS if (elo["ours", n, "fixed"][0] > 0) != (elo["ours", n, "clock"][0] > 0)]
    def ef(n):
        (a, ha), (b, hb) = elo["ours", n, "fixed"], elo["ours", n, "clock"]
        both = "neither" if not (sig["ours", n, "fixed"] or sig["ours", n, "clock"]) else "not both"
        return f"{a:+.1f} ± {ha:.1f} at 10,000 nodes, {b:+.1f} ± {hb:.1f} under the clock, {both} significant"
    words = {0: "none", 1: "one", 2: "two", 3: "three", 4: "four"}
    halves = [table[e, n]["clock"][1] for e in ("ours", "toga") for n, _ in HEURISTICS]
    pruned = (1 - r["toga", "futility"]) / (1 - r["ours", "futility"])
    return wrap([
        "- **The trees transfer.** Every shared heuristic cuts both engines' trees in the same direction, and three "
        f"of four by nearly the same factor: null move to {r['ours', 'null_move']:.2f} and {r['toga', 'null_move']:.2f} "
        f"of the nodes, delta pruning to {r['ours', 'delta']:.2f} and {r['toga', 'delta']:.2f}. The two that differ "
        "differ where the two engines' settings differ: Toga's futility margins are a third of ours (100 and 200 cp "
        f"against 300 and 500), and it prunes {pruned:.1f} times as much ({r['toga', 'futility']:.3f} against "
        f"{r['ours', 'futility']:.3f}); our LMR reduces late moves by a logarithmic amount of more than one ply, "
        "Toga's history pruning by one ply and only moves with a poor history, and ours saves more "
        f"({r['ours', 'lmr']:.2f} against {r['toga', 'lmr']:.2f}).",
        "- **Under the clock — the one budget that compares like with like — the conclusions transfer or at least "
        f"agree.** Null move is worth a lot in both ({f('ours', 'null_move', 'clock', '+.0f')} and "
        f"{f('toga', 'null_move', 'clock', '+.0f')}, "
        f"{'both significant: the verdict *transfers*' if sig['ours', 'null_move', 'clock'] and sig['toga', 'null_move', 'clock'] else 'not both significant'}). "
        "Futility and delta pruning are worth little in both, the same sign for futility, intervals overlapping for "
        f"both. Late-move reduction is worth {f('ours', 'lmr', 'clock', '+.0f')} in ours and "
        f"{f('toga', 'lmr', 'clock', '+.0f', True)} in Toga: the intervals overlap, so the data do not say the two "
        "differ — but only ours is significant, and the difference matches the trees (ours reduces far more of them).",
        "- **At a fixed budget they do not — perhaps the budget's doing rather than the engines', but that was not "
        "tested.** Toga ignores `go nodes`, so its fixed budget is a depth while ours is a node count: the engine and "
        "the kind of budget change together in this column, and no run separates them (ours at a fixed depth would). "
        "The hypothesis: at a fixed depth a pruning or reduction can only lose — it searches less of the same tree — "
        f"which would explain why null move ({f('toga', 'null_move', 'fixed')}) and history pruning "
        f"({f('toga', 'lmr', 'fixed')}) are significantly *harmful* in Toga at depth 6 while the same ideas gain "
        f"({f('ours', 'null_move', 'fixed', '+.0f')}, {f('ours', 'lmr', 'fixed', '+.0f')}, neither significant) in "
        "ours at fixed nodes, where the nodes they save can buy depth. If it holds, anyone ablating an engine at "
        "fixed depth measures only what a pruning costs. The fixed-node and clock columns of ours agree in sign on "
        f"{words[same_sign]} heuristics of four, not on {' or '.join(LABELS[n] for n in differ)} "
        f"({'; '.join(f'{minus(ef(n))}' for n in differ)}); the clock figures are larger for the two reductions, as "
        "in `results/factorial` (LMR's worth grows with the budget).",
        "- What the data cannot say: 50 pairs under the clock give intervals of "
        f"±{min(halves):.0f}–{max(halves):.0f} Elo, so \"agree\" for futility, "
        "delta and LMR means \"not shown to differ\", not \"shown equal\".",
    ])


def strength(root):
    """From *Round robin of …* to the end: the ratings against `modern`, the draw models, single
    games, the openings and the anchors."""
    run = root / "strength"
    ratings = rows(run / "ratings.csv")
    by = {r["name"]: r for r in ratings}
    pairings = rows(run / "pairings.csv")
    pairs = int(pairings[0]["pairs"])
    games = sum(int(p["wins"]) + int(p["draws"]) + int(p["losses"]) for p in pairings)
    forfeits = sum(1 for g in rows(run / "games.csv") if g["termination"] == "time forfeit")
    lopsided = sum(1 for p in pairings if int(p["draws"]) == 0 and (int(p["wins"]) == 0 or int(p["losses"]) == 0))
    d = strength_draw_models.figures(run)
    dav, half = d["fits"]["Davidson's draws"], d["fits"]["draws as half a win"]
    (lo_d, hi_d, game_d, unb_d), (lo_h, hi_h, _, _) = d["left_out"].values()
    anchors = [(float(r["elo"]), int(r["name"][len(ANCHOR_PREFIX):])) for r in ratings
               if r["name"].startswith(ANCHOR_PREFIX)]
    shift = sum(n - e for e, n in anchors) / len(anchors)
    misfit = math.sqrt(sum((e + shift - n) ** 2 for e, n in anchors) / len(anchors))
    landed = sorted((n, e + shift) for e, n in anchors)
    def game(g):
        return f"{player(g[0])} – {player(g[1])} {g[2]}"

    def gap(name):
        return round(float(by[name]["elo"]), -1)
    lines = [wrap([f"Round robin of {len(ratings)} players at 2 s + 0.02 s a game, {pairs} pairs per pairing "
                   f"({games} games, {'no time forfeit' if not forfeits else f'{forfeits} lost on time'}), joint "
                   "ratings (`strength/ratings.csv`, `strength/report.md`; 95 % intervals from resampling the "
                   "openings as clusters), relative to `modern`:"]), "",
             "| player | Elo against `modern` [95 % CI] | score |", "|---|---|---:|"]
    for r in sorted(ratings, key=lambda r: -float(r["elo"])):
        score = f"{100 * float(r['points']) / int(r['games']):.1f} %"
        cell = "0" if r["name"] == "modern" else \
            minus(f"{float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}]")
        lines.append(f"| {player(r['name'])} | {cell} | {score} |")
    text = [
        f"**In plain words: `modern` is about {gap('toga-ii-3.0'):,.0f} Elo weaker than Toga II 3.0 and about "
        f"{round(gap('ethereal-12'), -2):,.0f} weaker than Ethereal 12 at this clock; `fischerle` is about "
        f"{-gap('fischerle'):,.0f} weaker than `modern`.** The intervals are wide ({pairs} pairs per pairing, and "
        f"{lopsided} of the {len(pairings)} pairings ended {2 * pairs}–0 one way): they place the engines, they do "
        "not measure gaps to ±50. Three more limits, from `strength/games.csv` alone "
        "(`scripts/strength_draw_models.py`):",
        "",
        "- **The draw model.** The gaps above are Bradley–Terry with Davidson's draws (the harness's `ratings.csv`, "
        "which the script reproduces). Counting a draw as half a win for each side, the same games put Toga at "
        f"{half['toga-ii-3.0']:+.0f} over `modern` instead of {dav['toga-ii-3.0']:+.0f}, Ethereal at "
        f"{half['ethereal-12']:+.0f} instead of {dav['ethereal-12']:+.0f} and `fischerle` at "
        f"{minus(f'{half[FISCHERLE]:+.0f}')}"
        f" instead of {minus(f'{dav[FISCHERLE]:+.0f}')}. "
        "The protocol chose Davidson's model before the games; the gaps depend on that choice by this much.",
        f"- **Single games.** Leaving out one game at a time, Toga's rating over `modern` stays between {lo_d:+.0f} "
        f"and {hi_d:+.0f} (Davidson) — the {hi_d:+.0f} without the game {game(game_d)} (draws as half: "
        f"{lo_h:+.0f} to {hi_h:+.0f}); leaving out {'; '.join(game(g) for g in unb_d) or 'no game'} leaves a player "
        f"at 0 % or 100 % and the fit without a finite maximum. One result of {d['games']} moves the gap from {dav['toga-ii-3.0']:+.0f} to "
        f"{hi_d:+.0f}.",
        f"- **{len(d['openings'])} openings.** All {d['pairings']} pairings played the same {len(d['openings'])} "
        f"openings (`{d['openings'][0]}`–`{d['openings'][-1].split('.')[-1]}`), each pairing's {pairs} pairs one on "
        f"each. The pairs on one opening share it and their results may correlate, so the intervals resample the "
        f"{len(d['openings'])} openings as clusters, each with its games from all {d['pairings']} pairings (the "
        "harness's joint ratings do so whenever an opening recurs across pairings); a bootstrap of "
        f"{len(d['openings'])} clusters has {len(d['openings']) - 1}/{len(d['openings'])} of the variance and "
        f"coarse ends, and the intervals say nothing about openings beyond these {len(d['openings'])}.",
        "",
        "**The anchor does not hold at this clock — reported, not hidden.** Shifted so that the three `UCI_Elo` "
        f"anchors have the mean of their nominal ratings ({shift:+.0f}), the scale would put `modern` at about "
        f"{round(shift, -2):.0f} and `fischerle` at {round(shift + float(by['fischerle']['elo']), -1):.0f} — but the "
        f"anchors themselves misfit by {misfit:.0f} Elo (root mean square): "
        + ", ".join(f"{'`UCI_Elo` ' if k == 0 else ''}{n}{' lands' if k == 0 else ''} at {e:.0f}"
                   for k, (n, e) in enumerate(landed))
        + f", a spread of {landed[-1][1] - landed[0][1]:,.0f} Elo for a nominal {landed[-1][0] - landed[0][0]}. "
        "Stockfish's strength limiter is calibrated at 60 s + 0.6 s; at 2 s + 0.02 s its weakest setting plays far "
        "below its nominal rating and its stronger ones above it, and Toga II (which the lists place near the top "
        "of its era) lands below the 2200 anchor. So the CCRL-scale numbers in `table.md` are shown with that "
        "caveat and should not be quoted as CCRL ratings: the scale is trustworthy only relative to the other "
        "players of this round robin. A longer clock (the anchors' own 60 s + 0.6 s) would be the next step; at ~2 "
        "minutes a game it is about 15 hours of this machine for the same design.",
    ]
    def score(p, n):  # the W-D-L of a pairing are the second player's
        second = (int(p["wins"]) + int(p["draws"]) / 2) / (2 * pairs)
        return second if p["second_name"] == n else 1 - second
    always = [n for n in by if len({score(p, n) for p in pairings if n in (p["first_name"], p["second_name"])}
                                   - {0.0, 1.0}) == 0 and len({score(p, n) for p in pairings
                                                              if n in (p["first_name"], p["second_name"])}) == 1]
    text += ["", ("No player scored 0 % or 100 % against every opponent, so the protocol's second run with time "
                  "odds was not needed; the 0 %/100 % pairings are listed in `table.md`." if not always else
                  f"{', '.join(always)} scored 0 % or 100 % against every opponent: the protocol's second run with "
                  "time odds is due.")]
    return "\n".join(lines) + "\n\n" + wrap(text)


def blocks(root):
    """The README's blocks by marker name."""
    text, table = ablation(root)
    return {"ablation": text, "plain-words": plain_words(table), "strength": strength(root)}

#!/usr/bin/env python3
"""The labelled-evaluation study's figures (results/eval/labelled/), from what the harness and
criterion wrote: the texel runs' manifest.json (held-out losses, fits), the gates' pairings.csv,
cost/eval.csv (the criterion micro-benchmark) and data.csv (the training data's sizes and SHA-256).

    scripts/eval_labels_readme.py results/eval/labelled --readme    # writes the README's findings
    scripts/eval_labels_readme.py results/eval/labelled --check     # fails, with a diff, when stale
    scripts/eval_labels_readme.py results/eval/labelled --chosen    # prints the fit the gates play
    scripts/eval_labels_readme.py results/eval/labelled --cost-csv target/criterion/evaluation
    scripts/eval_labels_readme.py results/eval/labelled --data-csv target/eval-labels
"""
import csv
import hashlib
import statistics
import json
import sys
from pathlib import Path

from readme_blocks import SUMMARY_JSON, sync
from study_stats import holm, p_from_interval, signed

# The evaluations whose held-out loss is compared: (run name stem, what it is).
EVALUATIONS = [
    ("classic", "`strong`'s classic evaluation"),
    ("fit-all", "the old every-term fit (`results/eval/fit-all`, `modern`–`fischerle` games)"),
    ("fit-label", "fit 5, every term, λ = 1 (Stockfish's scores)"),
    ("fit-blend", "fit 6, every term, λ = 0.5"),
]
FITS = ["fit-label", "fit-blend"]
# The gates: directory and what it is.
GATES = [
    ("screen-10k", "10,000 nodes a move, openings 1–500"),
    ("screen-40k", "40,000 nodes a move, openings 501–750"),
    ("clock-2s", "2 s + 0.02 s, openings 751–950"),
]


def manifest(root, name):
    path = root / name / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else None


def held_out_loss(root, name):
    """The validation loss at the start weights (epoch 0) of loss/NAME, or None."""
    m = manifest(root, f"loss/{name}")
    return m["fitted"]["losses"][0][2] if m else None


def chosen(root):
    """The fit with the lower held-out loss against the game results."""
    losses = {f: held_out_loss(root, f"{f}-results") for f in FITS}
    if None in losses.values():
        raise SystemExit(f"{root}: the held-out losses are not all there yet (part `loss`)")
    return min(FITS, key=lambda f: losses[f])


def loss_table(root):
    m = manifest(root, "loss/classic-results")
    if m is None:
        return "Held-out losses: not yet measured (part `loss`)."
    fitted = m["fitted"]
    out = [f"**Held-out loss** (mean squared error on the {fitted['validation_positions']:,} "
           f"positions of the held-out games; K = {fitted['k']:.4f}, fitted on the training results "
           "with the classic evaluation, for every row; lower is better):", "",
           "| evaluation | against the game results | against Stockfish's labels |", "|---|---|---|"]
    for stem, what in EVALUATIONS:
        cells = []
        for target in ("results", "labels"):
            loss = held_out_loss(root, f"{stem}-{target}")
            cells.append("—" if loss is None else f"{loss:.5f}")
        out.append(f"| {what} | {cells[0]} | {cells[1]} |")
    return "\n".join(out)


def fits(root):
    out = []
    for name in FITS:
        m = manifest(root, name)
        if m is None:
            out.append(f"- `{name}/`: not yet fitted.")
            continue
        f = m["fitted"]
        out.append(f"- `{name}/`: {f['train_positions']:,} training positions; the weights of epoch "
                   f"{f['kept_epoch']} of {m['plan']['epochs']} kept (lowest held-out loss).")
    try:
        out.append(f"- The gates play `{chosen(root)}` (the lower held-out loss against the results).")
    except SystemExit:
        pass
    return "\n".join(out)


def gates(root):
    rows = []
    for name, what in GATES:
        path = root / name / "pairings.csv"
        if path.exists():
            with path.open() as f:
                rows.append((name, what, next(csv.DictReader(f))))
    if not rows:
        return "Gates: not yet played."
    ps = holm([p_from_interval(float(r["nelo"]), float(r["nelo95"])) for _, _, r in rows])
    out = ["**Gates** (`strong` with the fitted evaluation against `strong`, gate book; pentanomial "
           f"Elo of the fit with its 95 % interval; p from normalized Elo, Holm across the {len(rows)} "
           "gates played):", "",
           "| gate | pairs | W/D/L | Elo (95 %) | p (Holm) |", "|---|---|---|---|---|"]
    for (name, what, r), p in zip(rows, ps):
        shown = "< 0.001" if p < 0.001 else f"{p:.3f}"
        out.append(f"| `{name}/` ({what}) | {r['pairs']} | {r['wins']}/{r['draws']}/{r['losses']} "
                   f"| {signed(float(r['elo']))} ± {float(r['elo95']):.1f} | {shown} |")
    clock = next((r for name, _, r in rows if name == "clock-2s"), None)
    if clock is not None:
        elo, half = float(clock["elo"]), float(clock["elo95"])
        low = elo - half
        if low > 100:
            verdict = "its lower end lies above +100"
        elif elo + half < 100:
            verdict = "the whole interval lies below +100"
        else:
            verdict = "the interval includes +100"
        out += ["", f"Under the clock the fit's interval is [{signed(low)}, {signed(elo + half)}]: "
                f"{verdict} (#55 asks ≥ +100 at 2 s + 0.02 s with ≥ 200 pairs and an interval "
                "excluding 0)."]
    missing = [n for n, _ in GATES if not (root / n / "pairings.csv").exists()]
    if missing:
        out += ["", "Not yet played: " + ", ".join(f"`{n}/`" for n in missing) + "."]
    return "\n".join(out)


# The gauntlets of amendments 10 and 11, and strong's own on the same openings for comparison.
GAUNTLETS = [
    ("gauntlet-2s-glaurung", "Glaurung 2.2"),
    ("gauntlet-2s-toga", "Toga II 3.0"),
    ("gauntlet-2s-ethereal", "Ethereal 12 (`fitted`, amendment 11)"),
    ("../../strength/core/gauntlet-2s-glaurung", "Glaurung 2.2, `strong` with the classic evaluation"),
]


def gauntlets(root):
    out = ["**Gauntlets** (2 s + 0.02 s, openings 1–100 of the gauntlet book; the project's side's "
           "score and the peer's pentanomial Elo over it):", "",
           "| run | opponent | pairs | W/D/L (ours) | our score | peer's Elo (95 %) |",
           "|---|---|---|---|---|---|"]
    glaurung = None
    for name, who in GAUNTLETS:
        path = root / name / "pairings.csv"
        if not path.exists():
            out.append(f"| `{name}/` | {who} | not yet played | | | |")
            continue
        with path.open() as f:
            r = next(csv.DictReader(f))
        # The first player is ours; the row's W/D/L are the second's.
        wins, draws, losses = int(r["losses"]), int(r["draws"]), int(r["wins"])
        score = 1 - float(r["score"])
        out.append(f"| `{name}/` | {who} | {r['pairs']} | {wins}/{draws}/{losses} | "
                   f"{100 * score:.1f} % | {signed(float(r['elo']))} ± {float(r['elo95']):.1f} |")
        if name == "gauntlet-2s-glaurung":
            glaurung = score
    if glaurung is not None:
        verdict = "at or above" if glaurung >= 0.35 else "below"
        out += ["", f"Against Glaurung 2.2 the fitted `strong` scores {100 * glaurung:.1f} %: {verdict} "
                "the 35 % #54 asks of its preset at 2 s + 0.02 s."]
    return "\n".join(out)


def cost(root):
    path = root / "cost" / "eval.csv"
    if not path.exists():
        return "Cost: not yet measured (part `cost`)."
    with path.open() as f:
        rows = list(csv.DictReader(f))
    base = next(float(r["ns"]) for r in rows if r["evaluation"] == "classic")
    out = ["**Cost per evaluation** (`cargo bench -p engine --features bench --bench eval`: criterion's median time "
           "per position over 452 fixed positions, the search's path — material and squares summed "
           "move by move, pawn terms from the memo):", "",
           "| evaluation | ns per evaluation | × classic |", "|---|---|---|"]
    for r in rows:
        out.append(f"| {r['evaluation']} | {float(r['ns']):.1f} | {float(r['ns']) / base:.2f} |")
    every = next(float(r["ns"]) for r in rows if r["evaluation"] == "every term")
    bound = "within" if every / base <= 1.3 else "not within"
    out += ["", f"Every term costs {every / base:.1f}× the classic evaluation per call: {bound} the "
            "1.3× that #55 asks."]
    nps = root / "cost" / "nps.csv"
    if nps.exists():
        by = {}
        with nps.open() as f:
            for r in csv.DictReader(f):
                by.setdefault(r["player"], []).append(int(r["nps"]))
        med = {p: statistics.median(v) for p, v in by.items()}
        rounds = len(next(iter(by.values())))
        out += ["", f"Nodes per second (`harness bench --depth 9`, {rounds} interleaved rounds on one "
                f"core, medians; `cost/nps.csv`): `strong` {med['strong'] / 1e6:.2f} M, `fitted` "
                f"{med['fitted'] / 1e6:.2f} M ({med['fitted'] / med['strong']:.2f}×)."]
    return "\n".join(out)


def cost_csv(root, criterion):
    """cost/eval.csv from criterion's estimates: median ns per position of each benchmark."""
    rows = []
    for bench in sorted(Path(criterion).iterdir()):
        est, meta = bench / "new" / "estimates.json", bench / "new" / "benchmark.json"
        if not est.exists():
            continue
        info = json.loads(meta.read_text())
        per = json.loads(est.read_text())["median"]["point_estimate"]
        elements = info["throughput"]["Elements"]
        rows.append((info["function_id"], per / elements))
    order = {"classic": 0, "every term": 2}
    rows.sort(key=lambda r: (order.get(r[0], 1), r[0]))
    path = root / "cost" / "eval.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["evaluation", "ns"])
        for name, ns in rows:
            w.writerow([name, f"{ns:.2f}"])


def data_csv(root, work):
    """data.csv: each training file's games or positions, bytes and SHA-256."""
    work = Path(work)
    rows = []
    for rel in ["train-openings.epd", "games/games.pgn", "labels-peers/labelled.pgn",
                "labels-own/labelled.pgn", "labels-peers/labels.csv", "labels-own/labels.csv"]:
        path = work / rel
        data = path.read_bytes()
        text = data.decode()
        if rel.endswith(".pgn"):
            count, unit = text.count("[Result "), "games"
        elif rel.endswith(".csv"):
            count, unit = text.count("\n") - 1, "positions"
        else:
            count, unit = sum(1 for l in text.splitlines() if l and not l.startswith("#")), "openings"
        rows.append((rel, count, unit, len(data), hashlib.sha256(data).hexdigest()))
    with (root / "data.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "count", "unit", "bytes", "sha256"])
        w.writerows(rows)


def data(root):
    path = root / "data.csv"
    if not path.exists():
        return "Training data: not yet made."
    with path.open() as f:
        rows = list(csv.DictReader(f))
    out = ["**Training data** (in `target/eval-labels/`, regenerated by the script; `data.csv`):", "",
           "| file | count | bytes | SHA-256 |", "|---|---|---|---|"]
    for r in rows:
        out.append(f"| `{r['file']}` | {int(r['count']):,} {r['unit']} | {int(r['bytes']):,} "
                   f"| `{r['sha256'][:16]}…` |")
    return "\n".join(out)


def summary_json(root):
    """summary.json (`harness index`'s row): the fitted evaluation's three gates against `strong` (Holm
    across them, as the findings' table), the clock gate the figure, and its cost per call."""
    from readme_blocks import summary
    rows = {}
    for name, _ in GATES:
        with (root / name / "pairings.csv").open() as f:
            rows[name] = next(csv.DictReader(f))
    ps = holm([p_from_interval(float(r["nelo"]), float(r["nelo95"])) for r in rows.values()])
    wins = all(p < 0.05 and float(r["elo"]) > 0 for r, p in zip(rows.values(), ps))
    with (root / "cost" / "eval.csv").open() as f:
        ns = {r["evaluation"]: float(r["ns"]) for r in csv.DictReader(f)}
    cell = lambda name: f"{signed(float(rows[name]['elo']))} ± {float(rows[name]['elo95']):.1f}"  # noqa: E731
    clock = rows["clock-2s"]
    elo, half = float(clock["elo"]), float(clock["elo95"])
    return summary(
        "Fitted to positions from strong play scored by Stockfish, does the every-term evaluation beat the classic "
        "one inside `strong`, at fixed nodes and under the clock, and what does it cost?",
        f"{'Yes' if wins else 'Not at every budget'}: {cell('screen-10k')} Elo at 10,000 nodes, {cell('screen-40k')} "
        f"at 40,000 and {cell('clock-2s')} at 2 s + 0.02 s ({clock['pairs']} pairs; the +100 target "
        f"{'holds' if elo - half > 100 else 'does not hold'} at its lower end), though each evaluation costs "
        f"{ns['every term'] / ns['classic']:.1f}× the classic one.",
        (f"fitted evaluation over `strong`'s classic one, 2 s + 0.02 s, {clock['pairs']} pairs", round(elo, 1),
         round(elo - half, 1), round(elo + half, 1), "Elo"))


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    root, mode = Path(sys.argv[1]), sys.argv[2]
    if mode == "--chosen":
        print(chosen(root))
    elif mode == "--cost-csv" and len(sys.argv) == 4:
        cost_csv(root, sys.argv[3])
    elif mode == "--data-csv" and len(sys.argv) == 4:
        data_csv(root, sys.argv[3])
    elif mode in ("--readme", "--check"):
        body = "\n\n".join([data(root), loss_table(root), fits(root), gates(root), gauntlets(root),
                              cost(root)])
        sync({root / "README.md": ({"findings": body}, None), root / SUMMARY_JSON: (None, summary_json(root))},
             check=mode == "--check")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()

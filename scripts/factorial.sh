#!/usr/bin/env bash
# Regenerates results/factorial/ on the protocol in its README: modern's six switches in a 2^(6-1)
# design (32 points, round robin) at 1,000, 4,000 and 16,000 nodes a move, the best combination by
# the fitted model, and an SPRT of it against modern. Resumable: run it again after a kill.
#
#   scripts/factorial.sh              # everything (about 30 minutes on 2 cores)
#   scripts/factorial.sh ladder       # one part: ladder best verify compare
source "$(dirname "$0")/lib.sh"
out=results/factorial
work=target/factorial
snapshot_harness

FACTORS=futility,late_move_pruning,lmr,qsearch.see_prune=off/0,aspiration,singular
TOP=16000

part_ladder() {
  local dir=$out/design
  if [ -f "$dir/ladder.csv" ]; then return 0; fi
  if [ -f "$dir/ladder.json" ]; then
    "$harness" match --resume "$dir" --quiet
  else
    "$harness" match --preset modern --factorial "$FACTORS" --fraction 1 --pairs 2 \
      --ladder nodes=1000,4000,$TOP --seed 3000 --quiet --out "$dir"
  fi
}

# The combination of the full 2^6 with the highest predicted rating at the top rung, as --set
# arguments (one per line), from that rung's effects.csv.
part_best() {
  python3 - "$out/design/nodes-$TOP/effects.csv" "$out/design/nodes-$TOP/manifest.json" \
    > "$out/best.txt" <<'PY'
import csv, itertools, json, sys
effects = {r["effect"]: float(r["elo"]) for r in csv.DictReader(open(sys.argv[1]))}
factors = json.load(open(sys.argv[2]))["factorial"]["factors"]
names = [f["name"] for f in factors]
def rating(x):
    r = sum(effects[n] / 2 * x[i] for i, n in enumerate(names))
    for i, j in itertools.combinations(range(len(names)), 2):
        r += effects[f"{names[i]}×{names[j]}"] / 2 * x[i] * x[j]
    return r
best = max(itertools.product([-1, 1], repeat=len(names)), key=rating)
modern = tuple([1] * len(names))
print(f"# predicted Elo of the best over modern: {rating(best) - rating(modern):+.1f}")
if best == modern:
    print("# the best combination is modern itself: nothing to verify")
for f, level in zip(factors, best):
    print(f"{f['key']}={f['on'] if level > 0 else f['off']}")
PY
  cat "$out/best.txt"
}

part_verify() {
  if grep -q '^# the best combination is modern itself' "$out/best.txt"; then
    return 0
  fi
  local settings
  settings=$(grep -v '^#' "$out/best.txt" | paste -sd, -)
  play verify --player "modern:preset=modern" --player "best:preset=modern,$settings" \
    --limit "nodes=$TOP" --pairs 300 --sprt 0,5 --seed 4000
}

# The model's prediction of the heuristic table's "inside modern" contrast (modern against modern
# with one switch off) at each rung: e_X + the sum of X's interactions, se from the effects' ses.
part_compare() {
  python3 - "$out/design" results/heuristics > "$out/compare.md" <<'PY'
import csv, math, sys
from pathlib import Path
sys.path.insert(0, "scripts")
from heuristics_readme import elo_value
design, heuristics = sys.argv[1], Path(sys.argv[2])
names = ["futility", "late_move_pruning", "lmr", "see_prune", "aspiration", "singular"]
# One at a time inside `modern` at 10,000 nodes (its ablation matches), to the 0.1 Elo its table shows.
one = {}
for n in names:
    e, h = elo_value(heuristics / "ablation" / n)
    one[n] = (float(f"{e:+.1f}"), float(f"{h:.1f}"))
rungs = ["nodes-1000", "nodes-4000", "nodes-16000"]
print("| switch | one at a time, 10,000 nodes | " + " | ".join(
    f"main effect, {r[6:]} | in modern, {r[6:]}" for r in rungs) + " | holds at 16,000? |")
print("|---|---|" + "---|---|" * len(rungs) + "---|")
for n in names:
    cells, verdict = [], ""
    for r in rungs:
        eff = {e["effect"]: e for e in csv.DictReader(open(f"{design}/{r}/effects.csv"))}
        main = eff[n]
        inter = [e for k, e in eff.items() if "×" in k and n in k.split("×")]
        c = float(main["elo"]) + sum(float(e["elo"]) for e in inter)
        se = math.sqrt(float(main["se"]) ** 2 + sum(float(e["se"]) ** 2 for e in inter))
        cells.append(f"{float(main['elo']):+.1f} [{float(main['elo_lo']):+.1f}, {float(main['elo_hi']):+.1f}]")
        cells.append(f"{c:+.1f} ± {1.96 * se:.1f}")
        if r == "nodes-16000":
            t, h = one[n]
            same = (c > 0) == (t > 0)
            overlap = abs(c - t) <= 1.96 * se + h
            verdict = ("yes" if same and overlap else "sign differs" if not same else "no overlap")
    t, h = one[n]
    print(f"| {n} | {t:+.1f} ± {h:.1f} | " + " | ".join(cells) + f" | {verdict} |")
PY
  cat "$out/compare.md"
  python3 scripts/factorial_readme.py "$out" --readme   # the README's figures
}

run_parts "ladder best verify compare" "$@"
compress_tables "$out"
light_tables "$out"

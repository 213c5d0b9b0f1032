#!/usr/bin/env bash
# What each evaluation term costs in speed: `harness bench --depth 7` of `modern` with the classic
# evaluation and with each term switched on alone, then with every term on; REPS rounds, the
# configurations interleaved within a round, so a slow moment of the machine falls on all of
# them. Writes results/eval/cost.csv (and through scripts/eval_table.py cost.md and table.md): the
# median NPS of each, and the median over rounds of its
# ratio to the classic evaluation's NPS of the same round. (The trees differ: a term changes the
# evaluation, so the nodes differ too; NPS is the cost per node.)
#
#   scripts/eval-cost.sh          # about 2 minutes
source "$(dirname "$0")/lib.sh"
work=target/eval
out=results/eval
snapshot_harness
REPS=${REPS:-7}
TERMS=(classic passed.path pawns mobility king_safety bishop_pair rook_files outposts threats tempo all)

args_of() {
  case $1 in
  classic) ;;
  all) for t in "${TERMS[@]:1:9}"; do printf -- '--set\neval.%s=on\n' "$t"; done ;;
  *) printf -- '--set\neval.%s=on\n' "$1" ;;
  esac
}

rows=$work/cost-rows.txt
: >"$rows"
for rep in $(seq "$REPS"); do
  for term in "${TERMS[@]}"; do
    mapfile -t extra < <(args_of "$term")
    nps=$("$harness" bench --preset modern --depth 7 "${extra[@]}" | sed -n 's/^Nodes\/second *: //p')
    echo "$rep $term $nps" >>"$rows"
  done
done
python3 - "$rows" "$REPS" >"$out/cost.csv" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
nps = {}
for rep, term, v in rows:
    nps.setdefault(term, {})[rep] = float(v)
print("term,rounds,nps_median,ratio_median")
for term, by_rep in nps.items():
    ratio = statistics.median(by_rep[r] / nps["classic"][r] for r in by_rep)
    print(f"{term},{sys.argv[2]},{statistics.median(by_rep.values()):.0f},{ratio:.3f}")
PY
python3 scripts/eval_table.py "$out" --readme >"$out/table.md"


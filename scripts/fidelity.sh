#!/usr/bin/env bash
# The fidelity study (results/fidelity/, #66): the singular and check extensions' reference forms
# beside this engine's, inside `swift`, at 10,000 and 80,000 nodes, where their nodes go, and the
# better singular form under a longer clock. Each part is one step of the README's protocol; a
# finished part is skipped.
#
#   scripts/fidelity.sh [PART...]   # parts: book screen_10k screen_80k trees clock readme
#                                   # (default: all)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=results/fidelity
work=target/fidelity
BOOK=$out/fidelity-openings.epd
REFERENCE=singular=@$out/singular-reference.toml

# NODES: the families' screens at NODES a move, on the same openings.
screen() {
  local nodes=$1 label=$(($1 / 1000))k
  light_match "singular-$label" --player swift:preset=swift \
    --player "singular-fischerle:preset=swift,singular=on" \
    --player "singular-reference:preset=swift,$REFERENCE" \
    --openings "$BOOK" --seed 0 --pairs 500 --limit "nodes=$nodes" --threads "${THREADS:-1}" \
    "${ADJUDICATION[@]}"
  light_match "check-$label" --player "check-off:preset=swift,check_extension=false" \
    --player check-plain:preset=swift \
    --player "check-see:preset=swift,check_extension_see=true" \
    --openings "$BOOK" --seed 0 --pairs 500 --limit "nodes=$nodes" --threads "${THREADS:-1}" \
    "${ADJUDICATION[@]}"
  # The SEE family (amendment of 2026-11-29).
  light_match "see-$label" --player "see-off:preset=swift,bad_captures_last=false" \
    --player see-picker:preset=swift \
    --openings "$BOOK" --seed 0 --pairs 500 --limit "nodes=$nodes" --threads "${THREADS:-1}" \
    "${ADJUDICATION[@]}"
}

part_book() {
  # 1,600 self-play games keep about 450 balanced openings: 2,800 for the 600 of the protocol.
  SELFPLAY=2800 opening_book "$BOOK" 6666 600 --id-prefix fidelity
  disjoint_book "$BOOK" results/strength/gauntlet-openings.epd \
    results/strength/core/replication-openings.epd results/eval/labelled/gate-openings.epd \
    results/eval/verify-openings.epd results/nnue/nnue-openings.epd results/cross-engine/openings.epd
}
part_screen_10k() { screen 10000; }
part_screen_80k() { screen 80000; }

# The positions the trees are recorded at: SUITE:ID (the project's unselected middlegames, which
# no study chose, and two WAC positions from the public suites).
TREE_POSITIONS=(suites/unselected-middlegame.epd:unselected-middlegame.010
  suites/unselected-middlegame.epd:unselected-middlegame.040
  suites/unselected-middlegame.epd:unselected-middlegame.070
  suites/unselected-middlegame.epd:unselected-middlegame.100
  "$suites/wac.epd:WAC.002" "$suites/wac.epd:WAC.010")

# Each form's tree at depth 10 at each of TREE_POSITIONS, and its "off"; where their nodes lie,
# into $out/tree_counts.csv.
part_trees() {
  local name position suite id
  local -a set
  for name in off singular-fischerle singular-reference check-off check-see see-off; do
    case $name in
      off) set=() ;;
      singular-fischerle) set=(--set singular=on) ;;
      singular-reference) set=(--set "$REFERENCE") ;;
      check-off) set=(--set check_extension=false) ;;
      check-see) set=(--set check_extension_see=true) ;;
      see-off) set=(--set bad_captures_last=false) ;;
    esac
    for position in "${TREE_POSITIONS[@]}"; do
      suite=${position%:*} id=${position##*:}
      [ -f "$work/trees/$name/$id/tree.arrow" ] ||
        "$harness" tree --suite "$suite" --id "$id" --preset swift "${set[@]}" --depth 10 \
          --max-nodes 20000000 --out "$work/trees/$name/$id" >/dev/null
    done
  done
  python3 scripts/fidelity_trees.py "$work/trees" "$out/tree_counts.csv"
}
# The protocol's clock run: the better singular form at 80,000 nodes (by the README's script) against
# `swift` at 10 s + 0.1 s on a book no step of this study played, one game at a time on CPU
# ${CLOCK_CPU:-1}: 100 pairs, or fewer when the SPRT [0, 5] ends first.
part_clock() {
  local form spec
  form=$(python3 scripts/fidelity_readme.py "$out" --better-singular)
  case $form in
    singular-fischerle) spec=singular=on ;;
    singular-reference) spec=$REFERENCE ;;
  esac
  light_match singular-clock --player swift:preset=swift --player "$form:preset=swift,$spec" \
    --openings results/nnue/nnue-openings.epd --seed 0 --pairs 100 --sprt 0,5 --limit tc=10+0.1 \
    --threads 1 --affinity "${CLOCK_CPU:-1}" "${ADJUDICATION[@]}"
}
part_readme() { python3 scripts/fidelity_readme.py "$out" --readme; }

snapshot_harness
run_parts "book screen_10k screen_80k trees clock readme" "$@"

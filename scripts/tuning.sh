#!/usr/bin/env bash
# Regenerates results/tuning/ on the protocol in its README: tune modern's ten numeric search
# parameters by SPSA at 10,000 nodes a move, then verify the result on openings the tune never
# played (an SPRT at the tune's budget, a match under a clock) and compare nodes at equal depth.
# Resumable: run it again after a kill.
#
#   scripts/tuning.sh                # everything (about 70 minutes on 2 cores)
#   scripts/tuning.sh tune           # one part: book tune verify nodes clock focus
#                                    #   focus_verify focus_nodes focus_clock focus_ablation toga readme
source "$(dirname "$0")/lib.sh"
out=results/tuning
work=target/tuning
snapshot_harness

PARAMS=(
  futility.frontier=300,50,600
  futility.pre_frontier=500,100,900
  late_move_pruning.base=3,1,12
  lmr.base=0.75,0,2
  lmr.divisor=2.25,1,4
  qsearch.see_prune=0,0,300
  singular.margin=3,0,50
  aspiration.window=50,10,200
  null_move.base=2,1,4
  null_move.divisor=4,2,8
)
NODES=10000
# Not committed: made again by today's harness it does not give the bytes the runs recorded
# (results/README.md; scripts/books_check.sh --rebuild checks it).
BOOK=$work/verify-openings.epd

# Openings for the verification, made like suites/openings.epd from another seed.
part_book() {
  opening_book "$BOOK" 2027 500
}

# DIR ITERATIONS SEED PARAM...: a tune of modern at $NODES into $out/DIR (resumed when started).
run_tune() {
  local dir=$out/$1 iterations=$2 seed=$3 args=()
  shift 3
  for p in "$@"; do args+=(--param "$p"); done
  if [ -f "$dir/report.md" ]; then return 0; fi
  if [ -f "$dir/manifest.json" ]; then
    "$harness" tune --resume "$dir" --quiet
  else
    "$harness" tune --preset modern "${args[@]}" --iterations "$iterations" \
      --pairs-per-iteration 4 --limit "nodes=$NODES" --seed "$seed" --quiet --out "$dir"
  fi
}

# DIR: tuned against start on the verification openings, SPRT [0, 5] at the tune's budget.
verify() {
  [ -f "$out/$1/verify/pairings.csv" ] ||
    "$harness" tune --resume "$out/$1" --verify 400 --verify-sprt 0,5 \
      --verify-openings "$BOOK" --quiet
}

# DIR: the same under the table's clock, 100 pairs.
clock() {
  [ -f "$out/$1/verify-tc0.5+0.005/pairings.csv" ] ||
    "$harness" tune --resume "$out/$1" --verify 100 --verify-limit "tc=0.5+0.005" \
      --verify-openings "$BOOK" --quiet
}

part_tune() { run_tune modern 400 0 "${PARAMS[@]}"; }
part_verify() { verify modern; }
part_clock() { clock modern; }

part_nodes() {
  grid nodes-start c00 --grid "$out/modern/start.toml" --suite "$suites/wac.epd" --depth 8
  grid nodes-tuned c00 --grid "$out/modern/tuned.toml" --suite "$suites/wac.epd" --depth 8
  "$harness" compare "$out/nodes-start" "$out/nodes-tuned" --allow-mismatch \
    --out "$out/nodes-compare" > /dev/null
}

# The focused tune (its protocol in the README): five parameters, R_END 0.01, 1,000 iterations.
FOCUS=(
  singular.margin=3,0,50,2.5,0.01
  lmr.base=0.75,0,2,0.1,0.01
  lmr.divisor=2.25,1,4,0.15,0.01
  futility.frontier=300,50,600,27.5,0.01
  qsearch.see_prune=0,0,300,15,0.01
)

part_focus() { run_tune focus 1000 1 "${FOCUS[@]}"; }
part_focus_verify() { verify focus; }

part_focus_nodes() {
  grid focus-nodes-tuned c00 --grid "$out/focus/tuned.toml" --suite "$suites/wac.epd" --depth 8
  "$harness" compare "$out/nodes-start" "$out/focus-nodes-tuned" --allow-mismatch \
    --out "$out/focus-nodes-compare" > /dev/null
}

part_focus_clock() { clock focus; }

# Each tuned switch against the same player with it off, on the heuristic table's openings (seed
# 1000). `KEY=on` keeps a switch's tuned parameters; the SEE threshold is a value, read back.
part_focus_ablation() {
  local tuned=$out/focus/tuned.toml see
  see=$(sed -n 's/^"qsearch.see_prune" = //p' "$tuned")
  for entry in singular=singular lmr=lmr futility=futility "see_prune=qsearch.see_prune"; do
    local name=${entry%%=*} key=${entry#*=} on=on
    [ "$name" = see_prune ] && on=$see
    play "focus-ablation/$name" --grid "$tuned" --set "$key=$on,off" \
      --limit "nodes=$NODES" --pairs 200 --seed 1000
  done
}

# The UCI tune (its protocol in the README): Toga II's futility margin from 400, under a clock.
toga=$(command -v toga2 || echo /usr/games/toga2)
TOGA_CLOCK=2+0.02
part_toga() {
  local dir=$out/toga
  if [ ! -f "$dir/report.md" ]; then
    if [ -f "$dir/manifest.json" ]; then
      "$harness" tune --resume "$dir" --quiet
    else
      "$harness" tune --engine "uci:$toga" --set uci.Hash=16 \
        --param "uci.Futility Margin=400,0,500,25,0.05" --iterations 60 \
        --pairs-per-iteration 2 --limit "tc=$TOGA_CLOCK" --seed 2 --quiet --out "$dir"
    fi
  fi
  [ -f "$dir/verify/pairings.csv" ] ||
    "$harness" tune --resume "$dir" --verify 40 --verify-openings "$BOOK" --quiet
  # How much there was to find: Toga's default margin against the start, the same openings.
  play toga-default --engine "uci:$toga" --set uci.Hash=16 --set "uci.Futility Margin=400,100" \
    --limit "tc=$TOGA_CLOCK" --pairs 40 --openings "$BOOK" --seed 0
  grid toga-nodes c00 --engine "uci:$toga" --set uci.Hash=16 \
    --set "uci.Futility Margin=400,$(sed -n 's/^"uci.Futility Margin" = //p' "$dir/tuned.toml")" \
    --suite "$suites/wac.epd" --depth 8
}

# The README's figures, from the run directories (scripts/tuning_readme.py --check says when stale).
part_readme() { python3 scripts/tuning_readme.py "$out" --readme; }

run_parts "book tune verify nodes clock focus focus_verify focus_nodes focus_clock focus_ablation toga readme" "$@"
compress_tables "$out"
# The matches' per-move tables would take the study past 10 MB; games.csv keeps every result.
light_tables "$out"

#!/usr/bin/env bash
# Regenerates results/heuristics/ on the protocol written in its README (#18): what each switch of
# the pruning family is worth against `fischerle` (one on at a time) and against `modern` (one
# toggled at a time): nodes at depth 6, Elo at fixed nodes, and against `modern` under a short
# clock; the `modern` preset checked on other openings, and the strength targets (WAC at 1 s, STS at
# 100 ms beside Stockfish and Ethereal). Every part is resumable; run one alone by name. About 2.5
# hours on 2 cores.
#
#   scripts/heuristics.sh                 # everything
#   scripts/heuristics.sh elo             # one part: elo modern ablation targets nodes
#                                         #   nodes_modern clock table
source "$(dirname "$0")/lib.sh"
out=results/heuristics
work=target/heuristics
snapshot_harness

# One switch on, as `--set` takes it; the name is the directory.
SWITCHES=(
  "mate_distance=mate_distance_pruning=true"
  "reverse_futility=reverse_futility=on"
  "late_move_pruning=late_move_pruning=on"
  "delta=qsearch.delta=200"
  "futility=futility=on"
  "razoring=razoring=on"
  "iir=iir=on"
  "lmr=lmr=on"
  "see_prune=qsearch.see_prune=0"
  "two_tier_tt=tt.replacement=two_tier"
  "aspiration=aspiration=on"
  "check_extension=check_extension=true"
  "singular=singular=on"
  "countermove=countermove=true"
  "eval_cache=eval_cache=on"
  "continuation_history=continuation_history=on"
  "lmr_cut_node=lmr.cut_more=true"
)
# Refinements of a switch `fischerle` lacks: measured against `modern` only.
MODERN_ONLY=(lmr_cut_node)
NODES=10000
PAIRS=200
CLOCK=0.5+0.005
CLOCK_PAIRS=100

off_value() { # KEY: the value that turns KEY off
  case "$1" in
    mate_distance_pruning|check_extension|countermove|lmr.cut_more) echo false ;;
    tt.replacement) echo always ;;
    *) echo off ;;
  esac
}

part_nodes() {
  heuristic_positions
  for entry in "${SWITCHES[@]}"; do
    local name=${entry%%=*} setting=${entry#*=}
    local key=${setting%%=*} value=${setting#*=}
    [[ " ${MODERN_ONLY[*]} " == *" $name "* ]] && continue
    grid "nodes/$name" c00 --preset fischerle --set "$key=$(off_value "$key"),$value" --depth 6 \
      "${positions[@]}"
  done
}

part_elo() {
  for entry in "${SWITCHES[@]}"; do
    local name=${entry%%=*} setting=${entry#*=}
    local key=${setting%%=*} value=${setting#*=}
    [ "$name" = eval_cache ] && continue # plays the same games by construction
    [[ " ${MODERN_ONLY[*]} " == *" $name "* ]] && continue
    play "elo/$name" --preset fischerle --set "$key=$(off_value "$key"),$value" \
      --limit "nodes=$NODES" --pairs "$PAIRS" --seed 0
  done
}

part_modern() {
  play modern/nodes --set preset=fischerle,modern --limit "nodes=$NODES" --pairs "$PAIRS" --seed 1000
  play modern/clock --set preset=fischerle,modern --limit "tc=1+0.01" --pairs 100 --seed 1000
}

# The switches the `modern` preset turns on (engine/src/config/presets.rs), by name in SWITCHES.
MODERN_ON=(futility late_move_pruning lmr see_prune aspiration singular)

toggled() { # NAME KEY VALUE: `--set` for modern as it is, then modern with the switch toggled
  if [[ " ${MODERN_ON[*]} " == *" $1 "* ]]; then
    echo "$2=$3,$(off_value "$2")"
  else
    echo "$2=$(off_value "$2"),$3"
  fi
}

part_nodes_modern() {
  heuristic_positions
  for entry in "${SWITCHES[@]}"; do
    local name=${entry%%=*} setting=${entry#*=}
    local key=${setting%%=*} value=${setting#*=}
    grid "nodes-modern/$name" c00 --preset modern --set "$(toggled "$name" "$key" "$value")" --depth 6 \
      "${positions[@]}"
  done
}

part_ablation() { # first player modern as it is, second with the switch toggled
  for entry in "${SWITCHES[@]}"; do
    local name=${entry%%=*} setting=${entry#*=}
    local key=${setting%%=*} value=${setting#*=}
    [ "$name" = eval_cache ] && continue # plays the same games by construction
    play "ablation/$name" --preset modern --set "$(toggled "$name" "$key" "$value")" \
      --limit "nodes=$NODES" --pairs "$PAIRS" --seed 1000
  done
}

part_clock() { # as ablation, under a short clock, where a switch's cost per node counts too
  for entry in "${SWITCHES[@]}"; do
    local name=${entry%%=*} setting=${entry#*=}
    local key=${setting%%=*} value=${setting#*=}
    play "clock/$name" --preset modern --set "$(toggled "$name" "$key" "$value")" \
      --limit "tc=$CLOCK" --pairs "$CLOCK_PAIRS" --seed 1000
  done
}

part_targets() {
  grid targets/wac-1s c00 --preset modern --suite "$suites/wac.epd" --movetime 1000 --threads 2
  grid targets/sts-100ms c00 --preset modern --suite "$suites/sts/sts1-15_v3.epd" --movetime 100 \
    --engine builtin --engine "uci:$(command -v stockfish || echo /usr/games/stockfish)" \
    --engine "uci:$(command -v ethereal-chess || echo /usr/games/ethereal-chess)" \
    --set uci.Hash=16 --threads 2
}

part_table() {
  python3 scripts/heuristics_table.py "$out" --readme   # table.md and the README's figures
}

run_parts "elo modern ablation targets nodes nodes_modern clock table" "$@"
# Large per-row tables are committed gzipped (see results/README.md).
compress_tables "$out"

#!/usr/bin/env bash
# Regenerates results/cross-engine/ on the protocol written in its README (#33): each heuristic
# the builtin engine and Toga II share, toggled inside `modern` and inside Toga's defaults — nodes
# at equal depth, Elo at a fixed budget and under one clock — then a round robin that places
# `fischerle` and `modern` on one scale with Toga II, Ethereal, Stockfish and three Stockfish
# anchors of calibrated strength. Every part is resumable; run one alone by name. About 1.5 hours
# on 2 cores.
#
#   scripts/cross-engine.sh               # everything
#   scripts/cross-engine.sh fixed         # one part: book nodes fixed clock strength table
source "$(dirname "$0")/lib.sh"
out=results/cross-engine
work=target/cross-engine
snapshot_harness

toga=$(command -v toga2 || echo /usr/games/toga2)
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
# Committed (the matches name it; scripts/books_check.sh --rebuild makes it again and checks its
# SHA-256). The runs recorded it as target/cross-engine/openings.epd, where it was first made.
book=$out/openings.epd

# NAME|OURS|TOGA: each engine's `--set`, the heuristic on first, off second.
HEURISTICS=(
  "null_move|null_move=on,off|uci.NullMove Pruning=Always,Never"
  "futility|futility=on,off|uci.Futility Pruning=true,false"
  "delta|qsearch.delta=200,off|uci.Delta Pruning=true,false"
  "lmr|lmr=on,off|uci.History Pruning=true,false"
)
FIXED_NODES=10000
TOGA_DEPTH=6
FIXED_PAIRS=100
CLOCK=2+0.02
CLOCK_PAIRS=50
STRENGTH_PAIRS=8

# Made like suites/openings.epd, from a seed no study used.
part_book() {
  opening_book "$book" 2028 500
}

ours() { echo "$1" | cut -d'|' -f2; }
theirs() { echo "$1" | cut -d'|' -f3; }

part_nodes() {
  heuristic_positions
  # Ours: null move is new; the others are results/heuristics/nodes-modern (same positions,
  # depth and bench signature: the same node counts).
  grid nodes/ours-null_move c00 --preset modern --set "$(ours "${HEURISTICS[0]}")" --depth 6 \
    "${positions[@]}"
  for entry in "${HEURISTICS[@]}"; do
    grid "nodes/toga-${entry%%|*}" c00 --engine "uci:$toga" --set uci.Hash=16 \
      --set "$(theirs "$entry")" --depth 8 "${positions[@]}"
  done
}

# DIR OURS_LIMIT TOGA_LIMIT PAIRS: each heuristic's match in both engines into DIR/ENGINE-NAME.
ablations() {
  part_book
  local entry name
  for entry in "${HEURISTICS[@]}"; do
    name=${entry%%|*}
    play "$1/ours-$name" --preset modern --set "$(ours "$entry")" \
      --limit "$2" --pairs "$4" --openings "$book" --seed 0
    play "$1/toga-$name" --engine "uci:$toga" --set uci.Hash=16 --set "$(theirs "$entry")" \
      --limit "$3" --pairs "$4" --openings "$book" --seed 0
  done
}

part_fixed() { ablations fixed "nodes=$FIXED_NODES" "depth=$TOGA_DEPTH" "$FIXED_PAIRS"; }
part_clock() { ablations clock "tc=$CLOCK" "tc=$CLOCK" "$CLOCK_PAIRS"; }

part_strength() {
  part_book
  local players=(--player fischerle:preset=fischerle --player modern:preset=modern
    --player "toga-ii-3.0:engine=uci:$toga,uci.Hash=16"
    --player "ethereal-12:engine=uci:$ethereal,uci.Hash=16"
    --player "stockfish-15.1:engine=uci:$stockfish,uci.Hash=16,uci.Threads=1")
  local elo
  for elo in 1800 2200 2600; do
    players+=(--player "sf-elo-$elo:engine=uci:$stockfish,uci.Hash=16,uci.Threads=1,uci.UCI_LimitStrength=true,uci.UCI_Elo=$elo")
  done
  play strength "${players[@]}" --round-robin --baseline modern --limit "tc=$CLOCK" \
    --pairs "$STRENGTH_PAIRS" --openings "$book" --seed 200
}

part_table() {
  python3 scripts/cross_engine_table.py "$out" --readme   # table.md and the README's figures
  light_tables "$out"
  compress_tables "$out"
}

run_parts "book nodes fixed clock strength table" "$@"

#!/usr/bin/env bash
# The search speed of `strong`, `picked`, `honed` (without and with the evaluation cache) and
# `swift` beside `gated`'s and Ethereal 12's, from one run: 5 rounds, each `harness bench` of the
# presets at depth 9 and `ethereal-chess bench` in turn,
# pinned to one core
# (CPU ${CORE:-0}; the committed run: CORE=1), into results/strength/core/nps.csv (round, player, nps); core_readme.py quotes
# the medians. Needs a release build and Debian's ethereal-chess.
set -euo pipefail
cd "$(dirname "$0")/.."
harness=target/release/harness
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
out=results/strength/core/nps.csv
core=${CORE:-0}
echo "round,player,nps" > "$out"
for round in 1 2 3 4 5; do
  # A player is a preset, or a preset with one change (`honed+eval_cache=on`).
  for player in strong gated picked honed honed+eval_cache=on swift; do
    preset=${player%%+*}
    set_args=()
    [ "$player" != "$preset" ] && set_args=(--set "${player#*+}")
    nps=$(taskset -c "$core" "$harness" bench --preset "$preset" "${set_args[@]}" --depth 9 |
      awk '/Nodes\/second/ {print $3}')
    echo "$round,$player,$nps" >> "$out"
  done
  nps=$(taskset -c "$core" "$ethereal" bench 2>&1 | awk '/^NPS/ {print $3}')
  echo "$round,ethereal-12,$nps" >> "$out"
done
cat "$out"

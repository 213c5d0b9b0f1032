#!/usr/bin/env bash
# Regenerates results/match-baseline/: what fischerle is worth against plain, and SEE against the
# attack-count classification, in play at 5,000 nodes per move (deterministic games), each to an
# SPRT decision or to its pair limit. A killed run continues where it stopped (--resume).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p harness
harness=target/release/harness
out=results/match-baseline

play() { # NAME ARGS...: a match into $out/NAME, resumed if it was started
  local dir="$out/$1"; shift
  if [ -f "$dir/manifest.json" ]; then
    "$harness" match --quiet --resume "$dir"
  else
    "$harness" match --quiet --out "$dir" "$@"
  fi
}

# plain is p00 (the baseline), fischerle p01: the statistics are fischerle's.
play fischerle-vs-plain --name fischerle-vs-plain --set preset=plain,fischerle \
  --limit nodes=5000 --pairs 2000 --sprt 0,5 --model normalized
# SEE off is p00, on is p01: the statistics are SEE's.
play see --name see --preset fischerle --set see=false,true \
  --limit nodes=5000 --pairs 1500 --sprt -5,5 --model normalized

#!/usr/bin/env bash
# Regenerates results/dynlimit-blowup/: the candidate-limit sweep (harness/grids/dynlimit.toml) and
# the trivial/dynamic split (harness/grids/dynlimit-split.toml), each with its report and figures
# against Fischerle's own setting (candidate limit 3, DynSuchTiefe 4, TrivDynSuchTiefe 10).
# Node counts are deterministic; times depend on the machine. About 40 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
out=results/dynlimit-blowup
cargo build --release -p harness
harness=./target/release/harness
for run in dynlimit:sweep:c10 dynlimit-split:split:c09; do
  IFS=: read -r grid dir baseline <<<"$run"
  if [ -f "$out/$dir/manifest.json" ]; then
    $harness grid --resume "$out/$dir" --quiet          # finish a killed run (nothing to do if complete)
  else
    $harness grid --grid "harness/grids/$grid.toml" --out "$out/$dir" --quiet
  fi
  $harness report "$out/$dir" --baseline "$baseline"
done

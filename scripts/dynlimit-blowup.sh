#!/usr/bin/env bash
# Regenerates results/dynlimit-blowup/: the candidate-limit sweep (harness/grids/dynlimit.toml) and
# the trivial/dynamic split (harness/grids/dynlimit-split.toml), each with its report and figures.
# Node counts are deterministic; times depend on the machine. About an hour on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
out=results/dynlimit-blowup
cargo build --release -p harness
for grid in dynlimit:sweep dynlimit-split:split; do
  name=${grid%%:*} dir=$out/${grid##*:}
  if [ -f "$dir/manifest.json" ]; then
    ./target/release/harness grid --resume "$dir" --quiet          # finish a killed run
  else
    ./target/release/harness grid --grid "harness/grids/$name.toml" --out "$dir" --quiet
  fi
done

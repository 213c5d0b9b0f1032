#!/usr/bin/env bash
# The pages of the committed results: report.html beside every run directory's report.md
# (`harness report DIR --page`, which renders the committed report.md and recomputes nothing, so
# no committed figure changes), then results/index.md and results/index.html (`harness index`).
source "$(dirname "$0")/lib.sh"
cargo build --release -p harness
harness=target/release/harness
find results -name report.md -printf '%h\n' | sort | while read -r dir; do
  "$harness" report "$dir" --page >/dev/null
done
"$harness" index results
du -ch $(find results -name report.html) results/index.html | tail -1

#!/usr/bin/env bash
# What an edit costs: the rebuild of the main command (`cargo build --release -p harness`) after a
# one-line change to the search and after a one-line change to the report's statistics, each
# median of REPS runs in the current target directory (built first, so only the edit is timed).
#   scripts/rebuild_times.sh [REPS]     (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
engine_file=engine/src/search/alphabeta.rs
report_file=lab/src/report/stats.rs

# It edits and restores the two files: refuse when they hold edits of the user's.
if ! git diff --quiet -- "$engine_file" "$report_file"; then
  echo "$engine_file or $report_file has uncommitted changes: commit or stash them first" >&2
  exit 1
fi
restore() { git checkout -- "$engine_file" "$report_file"; }
trap restore EXIT
cargo build --release -p harness > /dev/null 2>&1
# One line appended (a comment holding a counter, so every run is a change) then timed.
time_edit() {
    local file=$1 times=()
    for i in $(seq "$reps"); do
        echo "// rebuild_times $i $RANDOM" >> "$file"
        local start=$(date +%s.%N)
        cargo build --release -p harness > /dev/null 2>&1
        times+=("$(echo "$(date +%s.%N) - $start" | bc)")
        git checkout -- "$file"
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]}'
}
engine=$(time_edit "$engine_file")
report=$(time_edit "$report_file")
cargo build --release -p harness > /dev/null 2>&1
echo "rebuild after a one-line change to $engine_file: $engine s (median of $reps)"
echo "rebuild after a one-line change to $report_file: $report s (median of $reps)"

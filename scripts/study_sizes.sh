#!/usr/bin/env bash
# What each study under results/ adds to the repository: the bytes of its committed files at HEAD
# (git ls-tree, in MB = 10^6 bytes) and its disk usage in the work tree (du -sh, 1,024-byte blocks,
# rounded up); a directory with nothing committed is left out. results/README.md quotes both.
#
#     scripts/study_sizes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
printf '| study | committed (MB, git ls-tree) | du -sh |\n|---|---:|---:|\n'
for dir in results/*/; do
    study=$(basename "$dir")
    bytes=$(git ls-tree -r -l HEAD "results/$study" | awk '{s += $4} END {print s + 0}')
    [ "$bytes" -gt 0 ] || continue  # not committed (yet)
    disk=$(du -sh "$dir" | cut -f1)
    printf '| `%s/` | %.1f | %s |\n' "$study" "$(echo "$bytes / 1000000" | bc -l)" "$disk"
done

#!/usr/bin/env bash
# The scale-out figures of docs/scale-out.md, measured on this machine:
#  1. merge time of a 100-shard run of 3,092 jobs (the built-in unselected endgames x 4
#     configurations at depth 1; the shards run one after another here);
#  2. the overhead of sharding: 2 local shards in parallel (1 thread each) + merge, against one
#     run with 2 threads, on the same grid (the built-in suites x 2 configurations, depth 6).
set -euo pipefail
cd "$(dirname "$0")/.."
h=target/release/harness
tmp=$(mktemp -d)
grid=(grid --suite builtin:unselected-endgame.epd --set selective.candidate_limit=2,3,4,5 --depth 1 --threads 1 --quiet)
for i in $(seq 0 99); do "$h" "${grid[@]}" --shard "$i/100" --out "$tmp/s100/shard-$i" > /dev/null 2>&1; done
start=$(date +%s.%N)
"$h" merge "$tmp"/s100/shard-* --out "$tmp/s100/merged" > /dev/null
end=$(date +%s.%N)
echo "merge of 100 shards, $(($(wc -l < "$tmp/s100/merged/runs.csv") - 1)) jobs, report included: $(echo "$end - $start" | bc) s"

work=(grid --set selective.candidate_limit=2,3 --depth 6 --quiet)
start=$(date +%s.%N)
"$h" "${work[@]}" --threads 2 --out "$tmp/one" > /dev/null 2>&1
one=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
for i in 0 1; do "$h" "${work[@]}" --threads 1 --shard "$i/2" --out "$tmp/two/shard-$i" > /dev/null 2>&1 & done
wait
"$h" merge "$tmp"/two/shard-* --out "$tmp/two/merged" > /dev/null
two=$(echo "$(date +%s.%N) - $start" | bc)
echo "one run, 2 threads: $one s; 2 shards in parallel + merge: $two s (overhead $(echo "scale=1; 100 * ($two - $one) / $one" | bc) %)"
rm -rf "$tmp"

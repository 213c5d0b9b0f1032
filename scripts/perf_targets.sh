#!/usr/bin/env bash
# Measures the performance targets in one run on this machine and prints them.
#   scripts/perf_targets.sh [SUITES_DIR]     (default ../shared/suites)
# Needs a release build (cargo build --release --workspace), stockfish, ethereal-chess (Debian),
# python-chess and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
suites="${1:-${FISCHERLE_SUITES:-../shared/suites}}"
h=target/release/harness
sf=$(command -v stockfish || echo /usr/games/stockfish)
tmp=$(mktemp -d)
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "== search speed: harness bench vs stockfish bench 16 1 13 vs ethereal-chess bench, 5 runs each, interleaved"
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
for i in 1 2 3 4 5; do
  $h bench | awk '/Nodes\/second/ {print $3}' >> "$tmp/ours"
  "$sf" bench 16 1 13 2>&1 | awk '/Nodes\/second/ {print $3}' >> "$tmp/sf"
  "$ethereal" bench 2>&1 | awk '/^NPS/ {print $3}' >> "$tmp/eth"
done
ours=$(median < "$tmp/ours"); sf_nps=$(median < "$tmp/sf"); eth_nps=$(median < "$tmp/eth")
echo "harness bench median NPS: $ours   stockfish: $sf_nps (ratio $(echo "scale=2; $ours / $sf_nps" | bc))   ethereal: $eth_nps (ratio $(echo "scale=2; $ours / $eth_nps" | bc))"
bench_nodes=$($h bench | awk '/Nodes searched/ {print $4}')

echo "== raw perft speed (cozy-chess move generation, the ceiling): perft_cpw.epd to depth 5"
/usr/bin/time -f "%e" -o "$tmp/pt" $h perft "$suites/perft_cpw.epd" --depth 5 > "$tmp/perft.txt"
perft_s=$(cat "$tmp/pt")
# Nodes that generate moves in that run (harness perft checks depths 1..5 in turn; leaves are
# bulk-counted, so perft(d) generates at 1 + D1 + ... + D(d-1) nodes).
interior=$(python3 - "$suites/perft_cpw.epd" <<'PY'
import sys
total = 0
for line in open(sys.argv[1]):
    fields = [f.strip() for f in line.split(";")[1:]]
    counts = {int(f.split()[0][1:]): int(f.split()[1]) for f in fields if f.startswith("D")}
    for depth in range(1, 6):
        if depth in counts:
            total += 1 + sum(counts.get(k, 0) for k in range(1, depth))
print(total)
PY
)
perft_nps=$(echo "$interior / $perft_s" | bc)
echo "perft_cpw.epd to depth 5: $perft_s s, $interior interior nodes: $perft_nps nodes/s; a search node costs $(echo "scale=2; $perft_nps / $ours" | bc) perft nodes"

echo "== parallel scaling and harness overhead: grid on wac.epd at depth 6"
for t in 1 2; do
  /usr/bin/time -f "%e %M" -o "$tmp/time$t" $h grid --suite "$suites/wac.epd" --depth 6 --threads $t --quiet --out "$tmp/wac$t" > /dev/null
done
w1=$(cut -d' ' -f1 "$tmp/time1"); w2=$(cut -d' ' -f1 "$tmp/time2"); rss2=$(cut -d' ' -f2 "$tmp/time2")
search1=$(python3 -c "import csv; print(sum(float(r['time_ms']) for r in csv.DictReader(open('$tmp/wac1/runs.csv')))/1000)")
echo "1 thread: $w1 s wall, $search1 s inside searches -> overhead $(echo "scale=2; 100 * ($w1 - $search1) / $w1" | bc) %"
echo "2 threads: $w2 s wall -> speed-up $(echo "scale=2; $w1 / $w2" | bc)x; peak RSS $((rss2 / 1024)) MiB (limit: 2 x 16 MiB TT + 100 MiB = 132 MiB)"

echo "== in-process vs UCI at depth 1 on wac.epd"
/usr/bin/time -f "%e" -o "$tmp/d1" $h grid --suite "$suites/wac.epd" --depth 1 --threads 1 --quiet --out "$tmp/d1run" > /dev/null
inproc=$(echo "scale=4; $(cat "$tmp/d1") * 1000 / 300" | bc)
uci=$(python3 scripts/uci_overhead.py target/release/engine "$suites/wac.epd" --depth 1 | awk '{print $5}')
echo "in-process: $inproc ms per position (whole command)   UCI: $uci ms per position   ratio: $(echo "scale=1; $uci / $inproc" | bc)x"
rm -rf "$tmp"

#!/usr/bin/env bash
# The NNUE study (results/nnue/, #65): generation-0 data by `swift`'s self-play (generations 1 and 2 by
# `nnue`'s), networks trained on it, each gated against `swift`. Each part is one step of the README's protocol; a finished part
# is skipped, a started one resumed.
#
#   scripts/nnue.sh [PART...]   # parts: gen0 gen1 gen2 net_a candidates select book confirm clock
#                               #        gauntlet_glaurung gauntlet_toga nps microbench
#                               #        candidates2 select2 confirm2 clock2 gauntlet2_glaurung
#                               #        gauntlet2_toga clock10 candidates3 select3 confirm3 clock3
#                               #        gauntlet3_glaurung gauntlet3_toga gauntlet3_ethereal readme
#                               # (default: all)
#
# The data and the networks' run directories live outside git, in $FISCHERLE_DATA/nnue (default
# ../data/nnue); what regenerates them is committed here: GEN/plan.json and chunks.csv.gz (the
# datagen plan and every chunk's checksum) and each network's nets/NAME/net.json. GEN_CHUNKS
# (default 1000) is how far a generation is played; a network names the first chunks it read.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=results/nnue
work=target/nnue
data=${FISCHERLE_DATA:-../data}/nnue
glaurung=$(command -v glaurung || echo /usr/games/glaurung)
toga=$(command -v toga2 || echo /usr/games/toga2)
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
BOOK=$out/nnue-openings.epd
CLOCK=(--limit tc=2+0.02 --threads 1 "${ADJUDICATION[@]}")
GLAURUNG="glaurung-2.2:engine=uci:$glaurung,uci.Threads=1,uci.Hash=16"
TOGA="toga-ii-3.0:engine=uci:$toga,uci.Hash=16,uci.OwnBook=false"
ETHEREAL="ethereal-12:engine=uci:$ethereal,uci.Hash=16,uci.Threads=1"
# The candidates' data: gen0's first chunks when they were trained (README, "Candidates").
CANDIDATE_CHUNKS=${CANDIDATE_CHUNKS:-280}

# GEN NAME PRESET SEED: generation NAME's self-play of PRESET (started, or resumed), and its plan
# and chunk list into $out/NAME. GEN_CHUNKS (default 1000) is how far it is played.
generation() {
  local name=$1 preset=$2 seed=$3 dir=$data/$1
  if [ -f "$dir/manifest.json" ]; then
    "$harness" datagen --resume "$dir" --chunks "${GEN_CHUNKS:-1000}" --quiet || [ $? = 130 ]
  else
    "$harness" datagen --preset "$preset" --nodes 5000 --chunks "${GEN_CHUNKS:-1000}" \
      --games-per-chunk 32 --seed "$seed" --threads 1 --quiet --out "$dir" || [ $? = 130 ]
  fi
  mkdir -p "$out/$name"
  # Not manifest.json: a directory with one is a run that `harness report` regenerates.
  cp "$dir/manifest.json" "$out/$name/plan.json"
  gzip -9 -n -c "$dir/chunks.csv" >"$out/$name/chunks.csv.gz"
}
part_gen0() { generation gen0 swift 650000; }
part_gen1() { generation gen1 nnue 660000; }
part_gen2() { generation gen2 nnue 670000; }

# NAME ARGS...: a network trained into $data/NAME (on the runs in the caller's array `inputs`,
# gen0 if none), its record into $out/nets/NAME.
net() {
  local name=$1 dir=$data/$1
  shift
  if [ ! -f "$dir/net.nnue" ]; then
    if [ -f "$dir/manifest.json" ]; then
      "$harness" train --resume "$dir" --quiet
    else
      "$harness" train "${inputs[@]:-$data/gen0}" --activation screlu --lambda 0.1 --scale 400 --lr 0.001 \
        --schedule cosine:0.05 --weight-decay 0.01 --batch-size 4096 --validation-every 20 \
        --seed 1 --threads 1 --quiet --out "$dir" "$@"
    fi
  fi
  mkdir -p "$out/nets/$name"
  cp "$dir/net.json" "$dir/train.csv" "$dir/loss.svg" "$out/nets/$name/"
}

part_net_a() { net net-a --first-chunks 84 --hidden 128 --epochs 15; }
part_candidates() {
  net net-64 --first-chunks "$CANDIDATE_CHUNKS" --hidden 64 --epochs 15
  net net-128 --first-chunks "$CANDIDATE_CHUNKS" --hidden 128 --epochs 15
}
# The second candidates (README, "Second candidates"): gen0's first 560 chunks.
part_candidates2() {
  net net2-128 --first-chunks 560 --hidden 128 --epochs 15
  net net2-256 --first-chunks 560 --hidden 256 --epochs 15
}

# The third candidates (README, "Third candidates"): all of gen0 and gen1's first 319 chunks.
part_candidates3() {
  local inputs=("$data/gen0" "$data/gen1")
  net net3-256 --first-chunks 1000,319 --hidden 256 --epochs 15
  net net3-384 --first-chunks 1000,319 --hidden 384 --epochs 15
}

# DIR THREADS: `nnue` against `swift` at 10,000 nodes, 500 pairs of the gate book at seed 0.
confirmation() {
  light_match "$1" --player swift:preset=swift --player nnue:preset=nnue \
    --openings results/eval/labelled/gate-openings.epd --seed 0 --pairs 500 --limit nodes=10000 \
    --threads "$2"
}
# DIR: `nnue` against `swift` at 2 s + 0.02 s, 200 pairs of the book, on CPU ${CLOCK_CPU:-1}.
clock_match() {
  light_match "$1" --player swift:preset=swift --player nnue:preset=nnue --openings "$BOOK" \
    --seed 0 --pairs 200 --affinity "${CLOCK_CPU:-1}" "${CLOCK[@]}"
}
# DIR OPPONENT: `nnue` against OPPONENT (a --player value) at 2 s + 0.02 s, 100 pairs of the book,
# on CPU ${GAUNTLET_CPU:-0}.
gauntlet() {
  light_match "$1" --player "$2" --player nnue:preset=nnue --openings "$BOOK" \
    --seed 0 --pairs 100 --affinity "${GAUNTLET_CPU:-0}" "${CLOCK[@]}"
}

part_select() {
  local h
  for h in a 64 128; do
    light_match "select-$h" --player swift:preset=swift \
      --player "net-$h:preset=swift,nnue.net=$data/net-$h/net.nnue" --seed 6500 --pairs 200 \
      --limit nodes=10000 --threads 1
  done
}
part_select2() {
  light_match select2 --player swift:preset=swift --player nnue:preset=nnue \
    --player "net2-128:preset=swift,nnue.net=$data/net2-128/net.nnue,nnue.hidden=128" \
    --player "net2-256:preset=swift,nnue.net=$data/net2-256/net.nnue,nnue.hidden=256" \
    --seed 6700 --pairs 200 --limit nodes=10000 --threads "${THREADS:-1}"
}
part_confirm2() { confirmation confirm2-10k "${THREADS:-1}"; }
part_select3() {
  light_match select3 --player swift:preset=swift --player nnue:preset=nnue \
    --player "net3-256:preset=swift,nnue.net=$data/net3-256/net.nnue,nnue.hidden=256" \
    --player "net3-384:preset=swift,nnue.net=$data/net3-384/net.nnue,nnue.hidden=384" \
    --openings results/eval/verify-openings.epd --seed 0 --pairs 200 --limit nodes=10000 \
    --threads "${THREADS:-1}"
}
part_book() {
  opening_book "$BOOK" 6565 200 --id-prefix nnue
  disjoint_book "$BOOK" results/strength/gauntlet-openings.epd \
    results/strength/core/replication-openings.epd results/eval/labelled/gate-openings.epd \
    results/eval/verify-openings.epd
}
part_confirm() { confirmation confirm-10k 2; }
part_clock() { clock_match clock-2s; }
part_gauntlet_glaurung() { gauntlet gauntlet-2s-glaurung "$GLAURUNG"; }
part_gauntlet_toga() { gauntlet gauntlet-2s-toga "$TOGA"; }
# The clock and the gauntlets again with the built-in `net2-256` (README, "The clock again"): the
# same book, seed and pairs as the first ones, so the games are paired by opening with `net-64`'s.
part_clock2() { clock_match clock2-2s; }
part_gauntlet2_glaurung() { gauntlet gauntlet2-2s-glaurung "$GLAURUNG"; }
part_gauntlet2_toga() { gauntlet gauntlet2-2s-toga "$TOGA"; }
# The longer clock (README, "Third candidates"): 10 s + 0.1 s, the book's first 50 openings, with
# the built-in network once its 2 s run is in.
part_clock10() {
  light_match clock3-10s --player swift:preset=swift --player nnue:preset=nnue --openings "$BOOK" \
    --seed 0 --pairs 50 --affinity "${CLOCK_CPU:-1}" --limit tc=10+0.1 --threads 1 "${ADJUDICATION[@]}"
}
# The third candidate built in (README, "Third candidates"): confirmed as `net2-256` was.
part_confirm3() { confirmation confirm3-10k "${THREADS:-1}"; }
part_clock3() { clock_match clock3-2s; }
part_gauntlet3_glaurung() { gauntlet gauntlet3-2s-glaurung "$GLAURUNG"; }
part_gauntlet3_toga() { gauntlet gauntlet3-2s-toga "$TOGA"; }
# The distance to Ethereal 12 (the protocol's "Confirmation", 3), with the built-in network.
part_gauntlet3_ethereal() { gauntlet gauntlet3-2s-ethereal "$ETHEREAL"; }
# The speed of `nnue` beside `swift`'s and Ethereal 12's, from one run: 5 rounds of `harness bench`
# at depth 9 and `ethereal-chess bench` in turn, pinned to CPU ${CORE:-1}.
part_nps() {
  local file=$out/nps.csv round player nps
  echo "round,player,nps" >"$file"
  for round in 1 2 3 4 5; do
    for player in swift nnue; do
      nps=$(taskset -c "${CORE:-1}" "$harness" bench --preset "$player" --depth 9 |
        awk '/Nodes\/second/ {print $3}')
      echo "$round,$player,$nps" >>"$file"
    done
    nps=$(taskset -c "${CORE:-1}" "$ethereal" bench 2>&1 |
      awk '/^NPS/ {print $3}')
    echo "$round,ethereal-12,$nps" >>"$file"
  done
}
# The network's micro-benchmark (criterion, on a quiet machine): each width's median ns per
# evaluation and per update, into $out/microbench.csv.
part_microbench() {
  cargo bench -p engine --features bench --bench nnue -- --warm-up-time 1 --measurement-time 3
  python3 - "$out/microbench.csv" <<'PY'
import glob, json, sys
rows = ["hidden,operation,ns"]
for path in sorted(glob.glob("target/criterion/nnue H=*/*/new/estimates.json")):
    group, operation = path.split("/")[2:4]
    elements = json.load(open(path.replace("estimates.json", "benchmark.json")))["throughput"]["Elements"]
    median = json.load(open(path))["median"]["point_estimate"]
    rows.append(f"{group.split('=')[1]},{operation},{median / elements:.1f}")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
}
part_readme() { python3 scripts/nnue_readme.py "$out" --readme; }

snapshot_harness
run_parts "gen0 gen1 gen2 net_a candidates select book confirm clock gauntlet_glaurung gauntlet_toga nps microbench candidates2 select2 confirm2 clock2 gauntlet2_glaurung gauntlet2_toga clock10 candidates3 select3 confirm3 clock3 gauntlet3_glaurung gauntlet3_toga gauntlet3_ethereal readme" "$@"

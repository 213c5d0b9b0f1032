#!/usr/bin/env bash
# The modern core study (results/strength/core/, #54): each part plays or searches one run of the
# README's protocol into its directory, then `readme` writes the README's figures.
#
#   scripts/core.sh [PART...]    # parts: screen gauge clock clock_b collapse gauntlet parts clock_10s
#                                #        picker_10k picker_40k picker_clock gauntlet_picked parts2
#                                #        honed_10k honed_40k honed_clock gauge_honed gauntlet_honed
#                                #        gauntlet_honed_toga gauntlet_honed_ethereal parts3
#                                #        swift_clock swift_clock_b gauntlet_swift swift_10k
#                                #        replication_book gauntlet_swift_b gauntlet_honed_b
#                                #        gauntlet_swift_toga gauntlet_swift_ethereal nps readme
#                                # (default: all, in that order; a finished part is skipped)
#
# Fixed-node parts are deterministic; the clock parts play one game at a time pinned to one CPU
# (`--affinity`: the two clock matches against `gated` on CPU 1, the gauntlet on CPU 0), so that two
# of them, or one and the collapse grid (CPU 0), can run side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p harness -p engine
harness=${HARNESS:-target/release/harness}  # HARNESS: a copy, so a rebuild cannot swap it mid-run
out=results/strength/core
glaurung=$(command -v glaurung || echo /usr/games/glaurung)
toga=$(command -v toga2 || echo /usr/games/toga2)
GLAURUNG="glaurung-2.2:engine=uci:$glaurung,uci.Threads=1,uci.Hash=16"
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
ETHEREAL="ethereal-12:engine=uci:$ethereal,uci.Threads=1,uci.Hash=16"
BOOK=results/strength/gauntlet-openings.epd
# (ADJUDICATION, fishtest's, is lib.sh's.)
CLOCK=(--limit tc=2+0.02 --threads 1 "${ADJUDICATION[@]}")

part_screen() { light_match screen-10k --set preset=gated,strong --limit nodes=10000 --pairs 400; }
part_gauge() {
  light_match gauge-20k --player gated:preset=gated --player strong:preset=strong --player "$GLAURUNG" \
    --round-robin --limit nodes=20000 --pairs 100 --seed 1000
}
part_clock() {
  light_match clock-2s --player gated:preset=gated --player strong:preset=strong --openings "$BOOK" \
    --seed 300 --pairs 100 --affinity 1 "${CLOCK[@]}"
}
part_clock_b() {
  light_match clock-2s-b --player gated:preset=gated --player strong:preset=strong --openings "$BOOK" \
    --seed 100 --pairs 100 --affinity 1 "${CLOCK[@]}"
}
part_gauntlet() {
  light_match gauntlet-2s-glaurung --player strong:preset=strong --player "$GLAURUNG" --openings "$BOOK" \
    --seed 0 --pairs 100 --affinity 0 "${CLOCK[@]}"
}
# Sixth amendment: the bundle at 10 s + 0.1 s, an SPRT on the gate book's last 50 openings.
part_clock_10s() {
  light_match clock-10s --player gated:preset=gated --player strong:preset=strong \
    --openings results/eval/labelled/gate-openings.epd --seed 950 --pairs 50 --sprt 0,50 \
    --affinity "${CLOCK_CPU:-1}" --limit tc=10+0.1 --threads 1 "${ADJUDICATION[@]}"
}
part_collapse() {
  local dir=$out/collapse-200ms
  [ -f "$dir/summary.csv" ] && { echo "$dir: done"; return; }
  taskset -c 0 "$harness" grid --suite suites/collapse.epd --player gated:preset=gated \
    --player strong:preset=strong --player "$GLAURUNG" \
    --player "toga-ii-3.0:engine=uci:$toga,uci.Hash=16,uci.OwnBook=false" --movetime 200 \
    --threads 1 --out "$dir" --quiet
  gzip -9 -n "$dir/runs.csv" "$dir/iterations.csv"
}
part_parts() {
  light_match parts-10k --player strong:preset=strong \
    --player no-staged-order:preset=strong,ordering=mvv_lva \
    --player selective-levels:preset=strong,selective.candidate_limit=3,selective.dyn_levels=4,selective.triv_dyn_levels=10 \
    --player no-sound-bounds:preset=strong,sound_bounds=false \
    --limit nodes=10000 --pairs 500 --seed 2000 --repeat-openings
}
# Seventh amendment: the move picker in `fitted`, at two node budgets, then under the clock.
GATE_BOOK=results/eval/labelled/gate-openings.epd
PICKER=(--player fitted:preset=fitted --player picker:preset=fitted,ordering=picker)
part_picker_10k() {
  light_match picker-10k "${PICKER[@]}" --openings "$GATE_BOOK" --seed 0 --pairs 500 --limit nodes=10000
}
part_picker_40k() {
  light_match picker-40k "${PICKER[@]}" --openings "$GATE_BOOK" --seed 500 --pairs 250 --limit nodes=40000
}
part_picker_clock() {
  light_match picker-clock-2s "${PICKER[@]}" --openings results/cross-engine/openings.epd --seed 300 \
    --pairs 200 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
# The picker's preset against Glaurung, on `strong`'s and `fitted`'s gauntlet openings.
part_gauntlet_picked() {
  light_match gauntlet-2s-picked --player picked:preset=picked --player "$GLAURUNG" --openings "$BOOK" \
    --seed 0 --pairs 100 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
# Eighth amendment: four more parts, each on in `picked`, then their bundle `honed`.
part_parts2() {
  light_match parts2-10k --player picked:preset=picked \
    --player qs-tt:preset=picked,qsearch.tt=true \
    --player quiet-futility:preset=picked,quiet_futility=on \
    --player history-pruning:preset=picked,history_pruning=on \
    --player keep-tables:preset=picked,keep_tables=true,history.keep=true \
    --openings "$GATE_BOOK" --seed 0 --pairs 500 --limit nodes=10000
}
HONED=(--player picked:preset=picked --player honed:preset=honed)
part_honed_10k() {
  light_match honed-10k "${HONED[@]}" --openings "$GATE_BOOK" --seed 500 --pairs 500 --limit nodes=10000
}
part_honed_40k() {
  light_match honed-40k "${HONED[@]}" --seed 0 --pairs 250 --limit nodes=40000
}
part_honed_clock() {
  light_match honed-clock-2s "${HONED[@]}" --openings results/cross-engine/openings.epd --seed 0 \
    --pairs 200 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_gauge_honed() {
  light_match gauge-honed-20k "${HONED[@]}" --player "$GLAURUNG" --round-robin --limit nodes=20000 \
    --pairs 100 --seed 1000
}
# `honed` against the three peers, on the gauntlet openings of `strong`, `fitted` and `picked`.
gauntlet_honed() {
  light_match "$1" --player honed:preset=honed --player "$2" --openings "$BOOK" --seed 0 --pairs 100 \
    --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_gauntlet_honed() { gauntlet_honed gauntlet-2s-honed "$GLAURUNG"; }
part_gauntlet_honed_toga() {
  gauntlet_honed gauntlet-2s-honed-toga "toga-ii-3.0:engine=uci:$toga,uci.Hash=16,uci.OwnBook=false"
}
part_gauntlet_honed_ethereal() {
  gauntlet_honed gauntlet-2s-honed-ethereal "$ETHEREAL"
}
# Ninth amendment: the early null move and TT aging, each on in `honed`, then their bundle `swift`.
part_parts3() {
  light_match parts3-10k --player honed:preset=honed \
    --player early-null-move:preset=honed,null_move.early=true \
    --player tt-aging:preset=honed,tt.aging=true \
    --openings "$GATE_BOOK" --seed 0 --pairs 500 --limit nodes=10000
}
SWIFT=(--player honed:preset=honed --player swift:preset=swift)
part_swift_clock() {
  light_match swift-clock-2s "${SWIFT[@]}" --openings results/cross-engine/openings.epd --seed 200 \
    --pairs 100 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_swift_clock_b() {
  light_match swift-clock-2s-b "${SWIFT[@]}" --openings "$BOOK" --seed 200 \
    --pairs 100 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_gauntlet_swift() {
  light_match gauntlet-2s-swift --player swift:preset=swift --player "$GLAURUNG" --openings "$BOOK" \
    --seed 0 --pairs 100 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_swift_10k() {
  light_match swift-10k "${SWIFT[@]}" --openings "$GATE_BOOK" --seed 500 --pairs 500 --limit nodes=10000
}
# Tenth amendment: `swift`'s and `honed`'s gauntlets against Glaurung replicated on a new book.
REPLICATION=$out/replication-openings.epd
part_replication_book() {
  [ -f "$REPLICATION" ] && { echo "$REPLICATION: done"; return; }
  "$harness" suite make --selfplay 1600 --seed 6262 --random-plies 8 --max-plies 8 --from-ply 8 \
    --per-game 1 --depth 12 --balanced 50 --max 100 --hash 16 --id-prefix replication \
    --out "$REPLICATION"
}
replicate() {
  light_match "$1" --player "$2" --player "$GLAURUNG" --openings "$REPLICATION" --seed 0 --pairs 100 \
    --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_gauntlet_swift_b() { replicate gauntlet-2s-swift-b swift:preset=swift; }
part_gauntlet_honed_b() { replicate gauntlet-2s-honed-b honed:preset=honed; }
part_gauntlet_swift_toga() {
  light_match gauntlet-2s-swift-toga --player swift:preset=swift \
    --player "toga-ii-3.0:engine=uci:$toga,uci.Hash=16,uci.OwnBook=false" --openings "$BOOK" \
    --seed 0 --pairs 100 --limit tc=2+0.02 --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
part_gauntlet_swift_ethereal() {
  light_match gauntlet-2s-swift-ethereal --player swift:preset=swift --player "$ETHEREAL" \
    --openings "$BOOK" --seed 0 --pairs 100 --limit tc=2+0.02 --threads 2 --affinity 0,1 \
    "${ADJUDICATION[@]}"
}
part_nps() { scripts/core_nps.sh; }
part_readme() { python3 scripts/core_readme.py "$out" --readme; }

parts=("${@:-screen gauge clock clock_b collapse gauntlet parts clock_10s picker_10k picker_40k picker_clock gauntlet_picked parts2 honed_10k honed_40k honed_clock gauge_honed gauntlet_honed gauntlet_honed_toga gauntlet_honed_ethereal parts3 swift_clock swift_clock_b gauntlet_swift swift_10k replication_book gauntlet_swift_b gauntlet_honed_b gauntlet_swift_toga gauntlet_swift_ethereal nps readme}")
for part in ${parts[*]}; do
  "part_$part"
done

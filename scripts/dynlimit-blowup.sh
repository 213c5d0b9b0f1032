#!/usr/bin/env bash
# Regenerates results/dynlimit-blowup/ on the protocol written in its README: is Fischerle's
# "limit 3 → 4 makes some searches blow up" true on positions nobody chose, at equal depth, at
# equal nodes and time, and in games? Every step is resumable: run the script again after a kill and
# it continues where it stopped (a finished step is skipped). About 90 minutes on 2 cores.
#
#   scripts/dynlimit-blowup.sh            # everything
#   scripts/dynlimit-blowup.sh steps      # one part: populations steps depth budget sensitivity select games default trees minimal
source "$(dirname "$0")/lib.sh"
out=results/dynlimit-blowup
work=target/dynlimit-blowup
snapshot_harness

part_populations() {
  # The evaluation population: every third position (both sides to move) from ply 8 of 100 fresh
  # self-play games, split by phase. Committed in suites/ (see suites/README.md).
  for phase in middlegame endgame; do
    make_suite "suites/unselected-$phase.epd" --selfplay 100 --seed 2027 --random-plies 6 \
      --play-depth 5 --max-plies 120 --from-ply 8 --every 3 --phase "$phase" --id-prefix "unselected-$phase"
    make_suite "$work/sample-$phase.epd" --from-epd "suites/unselected-$phase.epd" --sample 12 \
      --id-prefix "sample-$phase"
  done
  make_suite "$work/sample-sts.epd" --from-epd "$suites/sts/sts1-15_v3.epd" \
    --sample 25 --id-prefix sample-sts
  # The selection population: other games (seed 4004), used only to pick suites/blowup.epd.
  make_suite "$work/selection-population.epd" --selfplay 40 --seed 4004 --random-plies 6 \
    --play-depth 5 --max-plies 120 --from-ply 8 --every 3 --id-prefix selection
}

part_steps() { grid steps c02 --grid harness/grids/blowup-steps.toml; }
part_depth() { grid depth c00 --grid harness/grids/blowup-depth.toml; }
part_budget() {
  grid budget-nodes c00 --grid harness/grids/blowup-budget.toml --nodes 200000
  grid budget-time c00 --grid harness/grids/blowup-budget.toml --movetime 200
}
part_sensitivity() {
  grid sensitivity-pvs c00 --grid harness/grids/blowup-sensitivity.toml --set pvs=true,false
  grid sensitivity-tt-budget c00 --grid harness/grids/blowup-sensitivity.toml --set tt.budget_aware=false,true
  grid sensitivity-tt-size c00 --grid harness/grids/blowup-sensitivity.toml --set tt.size_mb=16,256
  grid sensitivity-dyn-levels c00 --grid harness/grids/blowup-sensitivity.toml --set selective.dyn_levels=2,4,6
}
part_select() {
  grid select c00 --grid harness/grids/blowup-select.toml
  # Positions of the selection population that grow ×5 or more from limit 3 (c00) to 4 (c01).
  "$harness" suite make --unlabelled --select "$out/select" --select-pair c00/c01 --min-ratio 5 \
    --max 16 --id-prefix blowup --out suites/blowup.epd
}
part_games() {
  play games-depth --name games-depth --preset fischerle --set selective.candidate_limit=3,4 \
    --limit depth=5 --pairs 150
  play games-clock --name games-clock --preset fischerle --set selective.candidate_limit=3,4 \
    --limit tc=2+0.02 --pairs 150
}
# What `harness grid` with no arguments shows (limits 2–5, depth 6, the built-in suites).
part_default() { grid default c01 --grid default; }
# Why it blows up: the ten largest 3 → 4 growths of the unselected populations (steps), each
# searched again with its tree recorded at both limits and the two trees diffed. The trees and
# pages (5-40 MB each) stay in target/; diff.md and diff.json, each tree's tree.md and tree.json,
# and a screenshot of diff.html are committed.
part_trees() {
  local trees=$work/trees why=$out/why
  mkdir -p "$trees" "$why"
  python3 scripts/blowup_growths.py "$out/steps" 10 | while IFS=$'\t' read -r id fen _ _; do
    for limit in 3 4; do
      # A recording from before tree.json existed is made again (the same tree).
      [ -f "$trees/$id-$limit/tree.json" ] || { rm -rf "$trees/$id-$limit" "$trees/$id-diff"
        "$harness" tree --fen "$fen" --depth 6 --set "selective.candidate_limit=$limit" \
          --out "$trees/$id-$limit" >/dev/null; }
    done
    [ -f "$trees/$id-diff/diff.json" ] || { rm -rf "$trees/$id-diff"
      "$harness" tree diff "$trees/$id-3" "$trees/$id-4" --out "$trees/$id-diff" >/dev/null; }
    mkdir -p "$why/$id"
    cp "$trees/$id-diff/diff.md" "$trees/$id-diff/diff.json" "$why/$id/"
    for limit in 3 4; do
      cp "$trees/$id-$limit/tree.md" "$why/$id/tree-$limit.md"
      cp "$trees/$id-$limit/tree.json" "$why/$id/tree-$limit.json"
    done
    screenshot "$trees/$id-diff/diff.html" "$why/$id/diff.png"
  done
  python3 scripts/blowup_why.py "$why" > "$why/README.md"
  # The finding checked on every unselected position, not only the ten chosen by their growth.
  python3 scripts/blowup_roots.py "$out/steps" > "$why/roots.md"
  # Is it the root's level alone? The same ten at limit 3 and depth 7 (and limit 4, for the pair).
  python3 scripts/blowup_growths.py "$out/steps" 10 |
    awk -F'\t' '{ split($2, f, " "); print f[1]" "f[2]" "f[3]" "f[4]" id \""$1"\";" }' >"$work/why10.epd"
  grid why/depth7 c00 --suite "$work/why10.epd" --set selective.candidate_limit=3,4 --depth 7
}

# The measured minimal tree of seeds, fischerle and modern on WAC at depth 6 (main search and QS
# apart), beside the uniform-tree formula of the same report.
part_minimal() {
  grid minimal c00 --suite "$suites/wac.epd" --set preset=seeds,fischerle,modern --depth 6 --minimal-tree
}

# HTML PNG: a 1280 × 560 screenshot of a page in Debian's headless Chromium.
screenshot() {
  [ -x /usr/bin/chromium ] || debian_install chromium
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/chromium" --window-size=1280,560 --screenshot="$2" "file://$(realpath "$1")" \
    >/dev/null 2>&1
}

parts=("$@")
# The samples and the selection population live in target/: make any that are missing first
# (instant, or about a minute for the selection population's games).
[ ${#parts[@]} -eq 0 ] || [ "${parts[0]}" = populations ] || parts=(populations "${parts[@]}")
run_parts "populations steps depth budget sensitivity select games default trees minimal" "${parts[@]}"
# Large per-row tables are committed gzipped (see results/README.md).
compress_tables "$out"

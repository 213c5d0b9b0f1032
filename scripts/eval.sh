#!/usr/bin/env bash
# Regenerates results/eval/ on the protocol in its README: fit the evaluation to the games of
# scripts/texel-data.sh, then measure in games what the fit and each term are worth, on openings
# no fit saw. Resumable: run it again after a kill; each part alone: scripts/eval.sh remove.
#
#   scripts/eval.sh        # everything (about 2 hours on 2 cores after the data)
#   parts: data cost fit_all fit_classic book tuned tuned_clock classic remove add nodes
#          remove_clock add_clock table
source "$(dirname "$0")/lib.sh"
out=results/eval
work=target/eval
snapshot_harness

GAMES=target/texel/games/games.pgn
# Committed (98 KB): the matches name it, and a reader replays them from it.
BOOK=$out/verify-openings.epd
NODES=10000
CLOCK=tc=0.5+0.005
# The terms beyond `modern`'s classic evaluation (pawns is on in it).
TERMS=(passed.path mobility king_safety bishop_pair rook_files outposts threats tempo)
ALL_ON=()
for t in "${TERMS[@]}"; do ALL_ON+=(--set "eval.$t=on"); done

part_data() { scripts/texel-data.sh; }
part_cost() { scripts/eval-cost.sh; }

# DIR ARGS...: a texel fit into $out/DIR unless it is there.
fit() {
  local dir=$out/$1
  shift
  [ -f "$dir/report.md" ] || "$harness" texel --pgn "$GAMES" --preset modern --quiet --out "$dir" "$@"
}
part_fit_all() { fit fit-all "${ALL_ON[@]}"; }
part_fit_classic() { fit fit-classic; }

part_book() {
  opening_book "$BOOK" 4242 500
  # No opening of the training games' book or of the committed books.
  disjoint_book "$BOOK" target/texel/texel-openings.epd suites/openings.epd suites/selfplay.epd
  sha256sum "$BOOK"
}

# A player: NAME, then its settings (a fitted eval.toml, then changes).
fitted() { echo "$1:preset=modern,eval=@$out/fit-$2/eval.toml${3:+,$3}"; }

part_tuned() {
  play tuned --player "$(fitted texel-all all)" --player modern:preset=modern --baseline p01 \
    --openings "$BOOK" --limit "nodes=$NODES" --pairs 200
}
part_tuned_clock() {
  play tuned-clock --player "$(fitted texel-all all)" --player modern:preset=modern --baseline p01 \
    --openings "$BOOK" --limit tc=2+0.02 --pairs 100 --sprt 0,5
}
part_classic() {
  play classic --player "$(fitted texel-classic classic)" --player modern:preset=modern --baseline p01 \
    --openings "$BOOK" --limit "nodes=$NODES" --pairs 200
}

# LIMIT DIR: fit 1 against fit 1 without each term (and without pawns), a gauntlet.
remove() {
  local players=(--player "$(fitted texel-all all)") t
  for t in "${TERMS[@]}" pawns; do players+=(--player "$(fitted "no-$t" all "eval.$t=off")"); done
  play "$2" "${players[@]}" --baseline p00 --openings "$BOOK" --limit "$1" --pairs 100
}
# LIMIT DIR: modern against modern with each term on at its hand-set weights.
add() {
  local players=(--player modern:preset=modern) t
  for t in "${TERMS[@]}"; do players+=(--player "with-$t:preset=modern,eval.$t=on"); done
  play "$2" "${players[@]}" --baseline p00 --openings "$BOOK" --limit "$1" --pairs 100
}
part_remove() { remove "nodes=$NODES" remove; }
part_add() { add "nodes=$NODES" add; }
part_remove_clock() { remove "$CLOCK" remove-clock; }
part_add_clock() { add "$CLOCK" add-clock; }

part_nodes() {
  grid nodes c00 --player modern:preset=modern --player "$(fitted texel-all all)" \
    --suite "$suites/wac.epd" --depth 8
}

# The tables, then the study made light: matches keep games.csv (every Elo regenerates from it) and
# drop moves.csv and games.pgn, the grid's tables are gzipped, and each report is rebuilt from what
# is kept, so a reader's `harness report DIR` gives the committed report.
part_table() {
  python3 scripts/eval_table.py "$out" --readme >"$out/table.md"
  light_tables "$out"
  compress_tables "$out"
  local dir
  for dir in "$out"/*/; do
    [ -f "$dir/manifest.json" ] && "$harness" report "$dir" >/dev/null
  done
  du -sh "$out"
}

run_parts "data cost fit_all fit_classic book tuned tuned_clock classic remove add nodes remove_clock add_clock table" "$@"

# Shared by the study scripts (and test.sh): sourced, never run. It moves to the repository root
# and stops the script at the first failure. A study sets `out` (its results directory) and `work`
# (its scratch directory under target/) before calling these; `suites` is the public suites'
# directory.
#
#   snapshot_harness            build, and run a copy of the binary from $work
#   grid DIR BASELINE ARGS...   a grid into $out/DIR: skipped when reported, resumed when started
#   play DIR ARGS...            a match into $out/DIR: the same
#   make_suite FILE ARGS...     `harness suite make --unlabelled` into FILE unless it exists
#   opening_book FILE SEED MAX [ARGS...]
#                               a balanced opening book into FILE unless it exists, made like
#                               suites/openings.epd from SEED (scripts/books_check.sh rebuilds them)
#   heuristic_positions         the heuristic table's 1,437 positions, as --suite arguments in
#                               the array `positions` (samples made into $work)
#   run_parts "PARTS" [PART...] runs part_PART for each PART given (default: all), refusing others
#   compress_tables DIR         gzips the per-row tables of the finished runs under DIR
#   light_tables DIR            drops the per-move tables (moves.csv, games.pgn) of matches under DIR
#   disjoint_book BOOK OTHER... fails when BOOK shares a position (first four FEN fields) with an
#                               OTHER book that exists
#   debian_install PACKAGE...   installs Debian packages (apt-get update once a script)
#   pip_install ARGS...         installs PyPI packages quietly
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The public suites (../shared/suites unless FISCHERLE_SUITES says otherwise).
suites="${FISCHERLE_SUITES:-../shared/suites}"

# Builds the harness and copies it into $work, so that a rebuild while a study runs (hours) does
# not change the engine under it; $harness is the copy.
snapshot_harness() {
  cargo build --release -p harness
  mkdir -p "$work" "$out"
  harness=$work/harness
  # Copied only when the build changed, and renamed into place: a part still running the previous
  # copy (a clock match on the other core) keeps it.
  if ! cmp -s target/release/harness "$harness"; then
    cp target/release/harness "$harness.new"
    mv "$harness.new" "$harness"
  fi
}

# DIR BASELINE ARGS...: a grid into $out/DIR, then its report against BASELINE. A run whose report
# already has that baseline is finished and skipped (a later build need not resume columns it does
# not write); a started one is resumed with the plan its manifest records.
grid() {
  local dir="$out/$1" baseline=$2
  shift 2
  if grep -qs "^- baseline: \`$baseline\`" "$dir/report.md"; then
    return 0
  fi
  if [ -f "$dir/manifest.json" ]; then
    "$harness" grid --resume "$dir" --quiet
  else
    "$harness" grid --out "$dir" --quiet "$@"
  fi
  "$harness" report "$dir" --baseline "$baseline" >/dev/null
}

# DIR ARGS...: a match into $out/DIR; skipped when reported (pairings.csv), resumed when started
# (with $THREADS games at once when set: a run option, not part of the plan).
play() {
  local dir="$out/$1"
  shift
  if [ -f "$dir/pairings.csv" ]; then
    return 0
  fi
  if [ -f "$dir/manifest.json" ]; then
    "$harness" match --quiet --resume "$dir" ${THREADS:+--threads "$THREADS"}
  else
    "$harness" match --quiet --out "$dir" "$@"
  fi
}

# fishtest's adjudication, as the strength studies' gates, gauntlets and screens play it.
ADJUDICATION=(--resign-moves 3 --resign-score 600 --draw-after 40 --draw-moves 8 --draw-score 10
  --tb-adjudicate)

# DIR ARGS...: `play`, then the big tables gzipped. A fixed-node match (deterministic: a rerun
# plays the same games) keeps neither its moves.csv nor its PGN, for size; its report keeps the
# per-move table.
light_match() {
  local dir="$out/$1"
  [ -f "$dir/games.csv.gz" ] && { echo "$dir: done"; return; }
  play "$@"
  gzip -9 -n "$dir/games.csv" "$dir/moves.csv" "$dir/games.pgn"
  if [[ " $* " == *" nodes="* ]]; then
    rm "$dir/moves.csv.gz" "$dir/games.pgn.gz"
  fi
}

# FILE ARGS...: an unlabelled suite made into FILE unless it exists.
make_suite() {
  local file=$1
  shift
  [ -f "$file" ] || "$harness" suite make --unlabelled --out "$file" "$@"
}

# FILE SEED MAX [ARGS...]: the studies' opening books, made like suites/openings.epd: $SELFPLAY (1,600)
# self-play games from SEED, the position after 8 random plies, kept when Stockfish 15.1 at depth
# 12 (hash 16 MiB) scores its best move within 50 cp, at most MAX positions; ARGS go before --out,
# as the studies ran it. The same command gives the same bytes (scripts/books_check.sh --rebuild
# checks each committed book's SHA-256).
opening_book() {
  local file=$1 seed=$2 max=$3
  shift 3
  [ -f "$file" ] || "$harness" suite make --selfplay "${SELFPLAY:-1600}" --seed "$seed" --random-plies 8 \
    --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max "$max" --hash 16 "$@" \
    --out "$file"
}

# The positions results/heuristics measures nodes on (and results/cross-engine after it): WAC,
# every 5th STS position, every 4th of the project's unselected populations. Sets `positions`.
heuristic_positions() {
  local phase
  for phase in middlegame endgame; do
    make_suite "$work/sample-$phase.epd" --from-epd "suites/unselected-$phase.epd" --sample 4 \
      --id-prefix "sample-$phase"
  done
  make_suite "$work/sample-sts.epd" --from-epd "$suites/sts/sts1-15_v3.epd" --sample 5 \
    --id-prefix sample-sts
  positions=(--suite "$suites/wac.epd" --suite "$work/sample-sts.epd"
    --suite "$work/sample-middlegame.epd" --suite "$work/sample-endgame.epd")
}

# "PART PART..." [PART...]: runs the function part_PART for each PART named after the list (all of
# the list when none is), in that order. Every name is checked before the first part runs: an
# unknown one is an error, never a command.
run_parts() {
  local -a known
  read -ra known <<<"$1"
  shift
  local -a parts=("$@")
  [ ${#parts[@]} -gt 0 ] || parts=("${known[@]}")
  local part
  for part in "${parts[@]}"; do
    if [[ " ${known[*]} " != *" $part "* ]]; then
      echo "unknown part \`$part\` (expected one of: ${known[*]})" >&2
      exit 2
    fi
  done
  for part in "${parts[@]}"; do
    echo "== $part"
    "part_$part"
  done
}

# The per-row tables of a run directory: a committed study keeps them gzipped.
ROW_TABLES=(runs.csv iterations.csv games.csv moves.csv games.pgn)

# DIR: gzips (-9, without a time stamp, so the same table gives the same bytes) every per-row
# table under DIR whose run is finished (it has its report); `harness report` and the other
# readers take a table from NAME.gz where NAME is not there. A match's games.pgn goes where its
# moves.csv stays: `harness report` writes it again from the tables.
compress_tables() {
  local name file dir
  find "$1" -name games.pgn -print0 |
    while IFS= read -r -d '' file; do
      dir=$(dirname "$file")
      if [ -f "$dir/report.md" ] && { [ -f "$dir/moves.csv" ] || [ -f "$dir/moves.csv.gz" ]; }; then
        rm -f "$file"
      fi
    done
  for name in "${ROW_TABLES[@]}"; do
    find "$1" -name "$name" -print0 |
      while IFS= read -r -d '' file; do
        [ -f "$(dirname "$file")/report.md" ] || continue
        gzip -9nf "$file"
      done
  done
}

# BOOK OTHER...: stops the script when BOOK shares a position with one of the OTHER books (those
# that exist), compared on the first four FEN fields (placement, side, castling, en passant).
disjoint_book() {
  local book=$1 other
  shift
  for other in "$@"; do
    [ -f "$other" ] || continue
    if comm -12 <(grep -v '^#' "$book" | cut -d' ' -f1-4 | sort -u) \
      <(grep -v '^#' "$other" | cut -d' ' -f1-4 | sort -u) | grep -q .; then
      echo "$book shares a position with $other" >&2
      exit 1
    fi
  done
}

apt_updated=""
# PACKAGE...: installs Debian's packages, as root or through sudo.
debian_install() {
  echo "installing $* (Debian)"
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  if [ -z "$apt_updated" ]; then
    $sudo apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# ARGS...: `pip install ARGS...` without the noise.
pip_install() {
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$@"
}

# DIR: removes the per-move tables of the finished matches under DIR (moves.csv, games.pgn, plain
# or gzipped), for a study whose games would not fit in its 10 MB: games.csv stays, and with it
# every Elo, rating, effect and ladder `harness report` rebuilds (its per-move statistics do not).
light_tables() {
  local file
  find "$1" \( -name 'moves.csv*' -o -name 'games.pgn*' \) -print0 |
    while IFS= read -r -d '' file; do
      if [ -f "$(dirname "$file")/report.md" ]; then rm -f "$file"; fi
    done
}

#!/usr/bin/env bash
# Checks every opening book and position sample a committed study played or searched against the
# SHA-256 its run manifests recorded for it (`book.sha256`, `suites[].sha256`).
#
#   scripts/books_check.sh            # the committed books (instant), and the samples made again
#                                     # from the committed suites (seconds)
#   scripts/books_check.sh --rebuild  # also makes every committed book again with the command its
#                                     # study ran (1,600 self-play openings labelled by Stockfish
#                                     # 15.1 at depth 12: minutes each, more on a busy machine)
#
# A file made again is compared as the study made it: `suite make` writes the command that made a
# file into its first line (`# made by `…``), so that line is written back as the study's command
# (its binary and --out path) before the SHA-256 is taken; every other byte is the new file's.
# Exits 1, naming each file, when a SHA-256 differs or a recorded file is missing.
#
# HARNESS names the binary to use (default: the release build, built first) and BOOKS_WORK the
# scratch directory (default target/books): the test `study_readmes.rs` runs it with both.
source "$(dirname "$0")/lib.sh"
out=${BOOKS_WORK:-target/books}
work=$out
rebuild=false
[ "${1:-}" = "--rebuild" ] && rebuild=true

# STUDY PATH: the SHA-256 that results/STUDY's manifests record for a file they name PATH (one
# value, or an error when they record none or several).
recorded() {
  python3 - "results/$1" "$2" <<'PY'
import json, sys
from pathlib import Path
found = set()
def walk(o):
    if isinstance(o, dict):
        if o.get("source") == sys.argv[2] and "sha256" in o:
            found.add(o["sha256"])
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
for m in Path(sys.argv[1]).rglob("manifest.json"):
    walk(json.loads(m.read_text()))
if len(found) != 1:
    sys.exit(f"{sys.argv[1]}: {len(found)} SHA-256s recorded for {sys.argv[2]}")
print(found.pop())
PY
}

failed=0
# FILE STUDY RECORDED_AS: compares FILE's SHA-256 with the one results/STUDY recorded for RECORDED_AS.
check() {
  local file=$1 want have
  want=$(recorded "$2" "$3") || { failed=1; return 0; }
  if [ ! -f "$file" ]; then
    echo "MISSING  $file (results/$2 recorded $want for $3)" >&2
    failed=1
    return 0
  fi
  have=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$have" = "$want" ]; then
    echo "ok       $file = $3 of results/$2 ($want)"
  else
    echo "DIFFERS  $file: $have, results/$2 recorded $want for $3" >&2
    failed=1
  fi
}

# "COMMAND": runs COMMAND (`BINARY suite make … --out PATH`, as the study ran it) with this build
# into $work/PATH, then writes COMMAND back into the file's first line. Prints the file.
remake() {
  local -a words args=()
  read -ra words <<<"$1"
  local k made=""
  for ((k = 1; k < ${#words[@]}; k++)); do
    if [ "${words[k - 1]}" = "--out" ]; then
      # The same file name: `suite make` names each position after it (id "openings.001").
      made=$work/${words[k]}
      mkdir -p "$(dirname "$made")"
      args+=("$made")
    else
      args+=("${words[k]}")
    fi
  done
  rm -f "$made"
  "$harness" "${args[@]}" >/dev/null
  local tail
  tail=$(head -1 "$made" | sed 's/^# made by `[^`]*`//')
  sed -i "1s|.*|# made by \`$1\`${tail//|/\\|}|" "$made"
  echo "$made"
}

if [ -n "${HARNESS:-}" ]; then
  mkdir -p "$work"
  harness=$HARNESS
else
  snapshot_harness
fi

# The books: FILE (- when not committed) STUDY RECORDED_AS | the command that made it.
BOOKS=(
  "results/eval/verify-openings.epd eval results/eval/verify-openings.epd|target/eval/harness suite make --selfplay 1600 --seed 4242 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 500 --hash 16 --out target/eval/verify-openings.epd"
  "results/strength/gauntlet-openings.epd strength results/strength/gauntlet-openings.epd|target/strength/harness suite make --selfplay 1600 --seed 5151 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 400 --hash 16 --id-prefix gauntlet --out results/strength/gauntlet-openings.epd"
  "results/cross-engine/openings.epd cross-engine target/cross-engine/openings.epd|target/cross-engine/harness suite make --selfplay 1600 --seed 2028 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 500 --hash 16 --out target/cross-engine/openings.epd"
  "results/eval/labelled/gate-openings.epd eval/labelled results/eval/labelled/gate-openings.epd|./target/release/harness suite make --selfplay 5000 --seed 8484 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 10 --balanced 60 --max 1000 --hash 16 --threads 1 --id-prefix gate --out results/eval/labelled/gate-openings.epd"
  "results/strength/core/replication-openings.epd strength/core results/strength/core/replication-openings.epd|./target/release/harness suite make --selfplay 1600 --seed 6262 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 100 --hash 16 --id-prefix replication --out results/strength/core/replication-openings.epd"
  "results/nnue/nnue-openings.epd nnue results/nnue/nnue-openings.epd|target/nnue/harness suite make --selfplay 1600 --seed 6565 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 200 --hash 16 --id-prefix nnue --out results/nnue/nnue-openings.epd"
  "results/fidelity/fidelity-openings.epd fidelity results/fidelity/fidelity-openings.epd|target/fidelity/harness suite make --selfplay 2800 --seed 6666 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 600 --hash 16 --id-prefix fidelity --out results/fidelity/fidelity-openings.epd"
  "- tuning target/tuning/verify-openings.epd|target/tuning/harness suite make --selfplay 1600 --seed 2027 --random-plies 8 --max-plies 8 --from-ply 8 --per-game 1 --depth 12 --balanced 50 --max 500 --hash 16 --out target/tuning/verify-openings.epd"
)
for entry in "${BOOKS[@]}"; do
  read -r file study as <<<"${entry%%|*}"
  if [ "$file" = - ]; then
    # Not committed: made again by this build it does not give the recorded bytes (results/README.md).
    echo "not committed: $as of results/$study (checked with --rebuild only)"
  else
    check "$file" "$study" "$as"
  fi
  if $rebuild; then
    check "$(remake "${entry#*|}")" "$study" "$as"
  fi
done

# The position samples the node grids searched, made again from the committed suites: STUDY
# RECORDED_AS | the command that made it (heuristics.sh before lib.sh's heuristic_positions put
# --out first; dynlimit-blowup.sh ran target/release/harness).
SAMPLES=()
for phase in middlegame endgame; do
  SAMPLES+=(
    "heuristics target/heuristics/sample-$phase.epd|target/heuristics/harness suite make --unlabelled --from-epd suites/unselected-$phase.epd --sample 4 --id-prefix sample-$phase --out target/heuristics/sample-$phase.epd"
    "cross-engine target/cross-engine/sample-$phase.epd|target/cross-engine/harness suite make --unlabelled --out target/cross-engine/sample-$phase.epd --from-epd suites/unselected-$phase.epd --sample 4 --id-prefix sample-$phase"
    "dynlimit-blowup target/dynlimit-blowup/sample-$phase.epd|target/release/harness suite make --unlabelled --out target/dynlimit-blowup/sample-$phase.epd --from-epd suites/unselected-$phase.epd --sample 12 --id-prefix sample-$phase"
  )
done
# The samples record the path they were made from, so they give the recorded bytes only from the
# default suites directory, ../shared/suites, as the studies ran them.
sts=$suites/sts/sts1-15_v3.epd
SAMPLES+=(
  "heuristics target/heuristics/sample-sts.epd|target/heuristics/harness suite make --unlabelled --from-epd $sts --sample 5 --id-prefix sample-sts --out target/heuristics/sample-sts.epd"
  "cross-engine target/cross-engine/sample-sts.epd|target/cross-engine/harness suite make --unlabelled --out target/cross-engine/sample-sts.epd --from-epd $sts --sample 5 --id-prefix sample-sts"
  "dynlimit-blowup target/dynlimit-blowup/sample-sts.epd|target/release/harness suite make --unlabelled --out target/dynlimit-blowup/sample-sts.epd --from-epd $sts --sample 25 --id-prefix sample-sts"
)
for entry in "${SAMPLES[@]}"; do
  read -r study as <<<"${entry%%|*}"
  check "$(remake "${entry#*|}")" "$study" "$as"
done

exit $failed

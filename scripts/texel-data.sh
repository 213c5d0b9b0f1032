#!/usr/bin/env bash
# Makes the training games of `harness texel` (results/eval/): about 13,000 games of the builtin
# engine against itself at fixed nodes, from openings no verification book holds. Deterministic:
# the same binary gives the same games, byte for byte (fixed-node games, seeded openings), so the
# data is not committed: it regenerates from here. Resumable (the match resumes).
#
#   scripts/texel-data.sh            # book, games, sample (about 40 minutes on 2 cores)
#   scripts/texel-data.sh book       # one part: book games sample check
#
# Why this source: self-play at fixed nodes is deterministic and needs no other program, so the
# data regenerates bit-identically on any machine; `modern` against `fischerle` (two different
# players, so the two games of a pair differ) at 4,000 nodes a move is weak, but a Texel tuner
# learns from many noisy results, not from a few good ones (Texel's own data was fast self-play).
# The games' scores ({+0.35/6 …}) are the reference a `--lambda` blend pulls towards.
source "$(dirname "$0")/lib.sh"
work=target/texel
out=$work
snapshot_harness

BOOK=$work/texel-openings.epd
GAMES=$work/games

# 13,000 openings: 6 random plies then 4 searched ones (depth 5) from seed 4141. Not balanced by a
# reference (unlabelled): lopsided openings give decisive games, which the labels need.
part_book() {
  make_suite "$BOOK" --selfplay 13000 --seed 4141 --random-plies 6 --max-plies 10 --from-ply 10 \
    --per-game 1 --id-prefix texel
  # Disjoint from every committed book (first four FEN fields).
  local book
  for book in suites/openings.epd suites/selfplay.epd; do
    if comm -12 <(cut -d' ' -f1-4 "$BOOK" | grep -v '^#' | sort -u) \
      <(cut -d' ' -f1-4 "$book" | grep -v '^#' | sort -u) | grep -q .; then
      echo "$BOOK shares a position with $book" >&2
      exit 1
    fi
  done
}

# Each opening once as a pair (two games, colours reversed): 13,000 pairs.
part_games() {
  play games --set preset=modern,fischerle --limit nodes=4000 --openings "$BOOK" \
    --pairs "$(grep -vc "^#" "$BOOK")" --max-plies 300 --threads "${TEXEL_THREADS:-2}"
}

# The tests' sample, harness/tests/data/texel-sample.pgn.gz: the games of the first 150 pairs, in
# pair order (whatever order the match wrote them in), gzipped without a time stamp.
part_sample() {
  python3 - "$GAMES/games.pgn" harness/tests/data/texel-sample.pgn.gz <<'PY'
import gzip, re, sys
games = re.split(r"\n(?=\[Event )", open(sys.argv[1]).read())
def pair(g):
    m = re.search(r'\[Round "(\d+)\.(\d+)"\]', g)
    return int(m.group(1)), int(m.group(2))
chosen = sorted((g for g in games if pair(g)[0] <= 150), key=pair)
with gzip.GzipFile(sys.argv[2], "wb", compresslevel=9, mtime=0) as f:
    f.write(("\n".join(chosen).rstrip() + "\n").encode())
PY
}

# The games in pair order hash to this (a match on two threads writes them in the order they end,
# so games.pgn's own bytes vary; its games do not).
GAMES_SHA256=021825a24c565e4701d7220294dea782ae42eaed4ea774ef980fd996e5698ab4

part_check() {
  python3 - "$GAMES/games.pgn" "$GAMES_SHA256" <<'PY'
import hashlib, re, sys
games = re.split(r"\n(?=\[Event )", open(sys.argv[1]).read())
def pair(g):
    m = re.search(r'\[Round "(\d+)\.(\d+)"\]', g)
    return int(m.group(1)), int(m.group(2))
ordered = sorted(games, key=pair)
digest = hashlib.sha256("\n".join(g.rstrip() + "\n" for g in ordered).encode()).hexdigest()
print(f"{len(ordered)} games, SHA-256 in pair order {digest}")
if digest != sys.argv[2]:
    sys.exit(f"expected {sys.argv[2]}: these are not the study's games")
PY
}

run_parts "book games sample check" "$@"

#!/usr/bin/env bash
# The labelled-evaluation study (results/eval/labelled/, #55), on the protocol in its README:
# training games between the UCI peers and the project's own, labelled by Stockfish; fits of the
# every-term evaluation inside `strong`; their held-out losses; the gates; the cost. Each part is
# resumable and skipped when done; the training data lives in $work (target/eval-labels/, not
# committed: it regenerates from this script).
#
#   scripts/eval_labels.sh [PART...]
#   parts: book games label_own label_peers fits loss screen screen_40k clock gauntlet
#          gauntlet_toga gauntlet_ethereal cost nps readme
source "$(dirname "$0")/lib.sh"
out=results/eval/labelled
work=target/eval-labels
snapshot_harness

stockfish=$(command -v stockfish || echo /usr/games/stockfish)
glaurung=$(command -v glaurung || echo /usr/games/glaurung)
toga=$(command -v toga2 || echo /usr/games/toga2)
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
PEERS=(--player "glaurung-2.2:engine=uci:$glaurung,uci.Threads=1,uci.Hash=16"
  --player "toga-ii-3.0:engine=uci:$toga,uci.Hash=16,uci.OwnBook=false"
  --player "ethereal-12:engine=uci:$ethereal,uci.Threads=1,uci.Hash=16")
ADJUDICATION=(--resign-moves 3 --resign-score 600 --draw-after 40 --draw-moves 8 --draw-score 10
  --tb-adjudicate)
TRAIN_BOOK=$work/train-openings.epd
GATE_BOOK=$out/gate-openings.epd
OWN_GAMES=(results/strength/core/clock-2s/games.pgn.gz results/strength/core/clock-2s-b/games.pgn.gz
  results/strength/core/gauntlet-2s-glaurung/games.pgn.gz)
LABELLED=(--pgn "$work/labels-peers/labelled.pgn" --pgn "$work/labels-own/labelled.pgn")
# The every-term evaluation: strong's own terms plus each switchable one.
TERMS=()
for t in passed.path pawns mobility king_safety bishop_pair rook_files outposts threats tempo scaling; do
  TERMS+=(--set "eval.$t=on")
done
BOOKS=(suites/openings.epd suites/selfplay.epd results/strength/gauntlet-openings.epd
  results/eval/verify-openings.epd results/cross-engine/openings.epd)

# A training book no other study uses: seed 7373 (the committed books use 2026, 4242, 5151, 8484).
part_book() {
  [ -f "$TRAIN_BOOK" ] || "$harness" suite make --selfplay 3000 --seed 7373 --random-plies 8 \
    --max-plies 8 --from-ply 8 --per-game 1 --depth 10 --balanced 60 --max 600 --hash 16 \
    --id-prefix train --out "$TRAIN_BOOK"
  disjoint_book "$TRAIN_BOOK" "${BOOKS[@]}" "$GATE_BOOK"
  # The gate book (committed) was made by:
  [ -f "$GATE_BOOK" ] || "$harness" suite make --selfplay 5000 --seed 8484 --random-plies 8 \
    --max-plies 8 --from-ply 8 --per-game 1 --depth 10 --balanced 60 --max 1000 --hash 16 \
    --threads 1 --id-prefix gate --out "$GATE_BOOK"
  disjoint_book "$GATE_BOOK" "${BOOKS[@]}"
}

# The peers' round robin at 25 ms a move (Toga II plays depth 1 when its clock is under 1 s, and
# ignores `go nodes`): one game at a time on one CPU.
part_games() {
  local dir=$work/games
  [ -f "$dir/pairings.csv" ] && return
  if [ -f "$dir/manifest.json" ]; then
    "$harness" match --resume "$dir" --quiet --threads 1 --affinity "${GAMES_CPU:-1}"
  else
    "$harness" match "${PEERS[@]}" --round-robin --openings "$TRAIN_BOOK" --pairs 150 \
      --limit movetime=25 --threads 1 --affinity "${GAMES_CPU:-1}" "${ADJUDICATION[@]}" \
      --out "$dir" --quiet
  fi
}

# DIR FILE...: Stockfish's depth-10 score of every quiet position from ply 16 of the games.
label() {
  local dir=$work/$1
  shift
  [ -f "$dir/labelled.pgn" ] && return
  if [ -f "$dir/manifest.json" ]; then
    "$harness" label --resume "$dir" --quiet
  else
    "$harness" label "$@" --engine "$stockfish" --option Hash=16 --depth 10 --skip-plies 16 \
      --quiet-only --out "$dir" --quiet
  fi
}
part_label_own() { label labels-own "${OWN_GAMES[@]}"; }
part_label_peers() { label labels-peers "$work/games/games.pgn"; }

# DIR ARGS...: a texel fit (or, with --epochs 0, a loss) on the labelled games into $out/DIR.
texel() {
  local dir=$out/$1
  shift
  [ -f "$dir/report.md" ] || "$harness" texel "${LABELLED[@]}" --preset strong --quiet --out "$dir" "$@"
}
# K: fitted once, on the training results with strong's classic evaluation (the loss run's).
k_of_classic() {
  texel loss/classic-results --epochs 0 >&2
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["fitted"]["k"])' \
    "$out/loss/classic-results/manifest.json"
}
part_fits() {
  local k
  k=$(k_of_classic)
  texel fit-label "${TERMS[@]}" --lambda 1 --k "$k"
  texel fit-blend "${TERMS[@]}" --lambda 0.5 --k "$k"
}
# Each evaluation's held-out loss, against the results and against the labels, at one K.
part_loss() {
  local k name file
  k=$(k_of_classic)
  texel loss/classic-labels --epochs 0 --lambda 1 --k "$k"
  for name in fit-all fit-label fit-blend; do
    file=$out/$name/eval.toml
    [ "$name" = fit-all ] && file=results/eval/fit-all/eval.toml
    texel "loss/$name-results" --epochs 0 --k "$k" --set "eval=@$file"
    texel "loss/$name-labels" --epochs 0 --lambda 1 --k "$k" --set "eval=@$file"
  done
}

# The fit the gates play: the lower held-out loss against the results (the readme script says
# which; chosen before any gate game).
gated_fit() { python3 scripts/eval_labels_readme.py "$out" --chosen; }
# The fit's player; fails when the fits and losses are not there yet (a part then stops).
fit_player() {
  local fit
  fit=$(gated_fit) || return 1
  echo "strong-fit:preset=strong,eval=@$out/$fit/eval.toml"
}
part_screen() {
  local fit
  fit=$(fit_player)
  play screen-10k --player strong:preset=strong --player "$fit" --openings "$GATE_BOOK" --seed 0 \
    --pairs 500 --limit nodes=10000
}
part_screen_40k() {
  local fit
  fit=$(fit_player)
  play screen-40k --player strong:preset=strong --player "$fit" --openings "$GATE_BOOK" \
    --seed 500 --pairs 250 --limit nodes=40000
}
part_clock() {
  local fit
  fit=$(fit_player)
  play clock-2s --player strong:preset=strong --player "$fit" --openings "$GATE_BOOK" --seed 750 --pairs 200 --limit tc=2+0.02 \
    --threads 2 --affinity 0,1 "${ADJUDICATION[@]}"
}
# Amendment 10: the fit's gauntlet against Glaurung 2.2 (and Toga II 3.0) on strong's gauntlet
# openings 1–100.
GAUNTLET_BOOK=results/strength/gauntlet-openings.epd
part_gauntlet() {
  local fit
  fit=$(fit_player)
  play gauntlet-2s-glaurung --player "$fit" \
    --player "glaurung-2.2:engine=uci:$glaurung,uci.Threads=1,uci.Hash=16" \
    --openings "$GAUNTLET_BOOK" --seed 0 --pairs 100 --limit tc=2+0.02 --threads 2 \
    --affinity 0,1 "${ADJUDICATION[@]}"
}
part_gauntlet_toga() {
  local fit
  fit=$(fit_player)
  play gauntlet-2s-toga --player "$fit" \
    --player "toga-ii-3.0:engine=uci:$toga,uci.Hash=16,uci.OwnBook=false" \
    --openings "$GAUNTLET_BOOK" --seed 0 --pairs 100 --limit tc=2+0.02 --threads 2 \
    --affinity 0,1 "${ADJUDICATION[@]}"
}

# Amendment 11: `fitted` against Ethereal 12 on the same openings, one game at a time on one core.
part_gauntlet_ethereal() {
  play gauntlet-2s-ethereal --player fitted:preset=fitted \
    --player "ethereal-12:engine=uci:$ethereal,uci.Threads=1,uci.Hash=16" \
    --openings "$GAUNTLET_BOOK" --seed 0 --pairs 100 --limit tc=2+0.02 --threads 1 \
    --affinity "${GAUNTLET_CPU:-0}" "${ADJUDICATION[@]}"
}

# The criterion micro-benchmark (its estimates → cost/eval.csv).
part_cost() {
  [ -f "$out/cost/eval.csv" ] && return
  mkdir -p "$out/cost"
  cargo bench -p engine --features bench --bench eval -- --noplot
  python3 scripts/eval_labels_readme.py "$out" --cost-csv target/criterion/evaluation
}
# NPS of `strong` and `fitted` (the preset with the gated fit): 5 interleaved rounds of
# `harness bench --depth 9` pinned to one core → cost/nps.csv (the trees differ: NPS mixes the
# evaluation's cost with the tree's shape).
part_nps() {
  [ -f "$out/cost/nps.csv" ] && return
  mkdir -p "$out/cost"
  local round preset nps
  echo "round,player,nps" >"$out/cost/nps.csv.part"
  for round in 1 2 3 4 5; do
    for preset in strong fitted; do
      nps=$(taskset -c "${CORE:-0}" "$harness" bench --preset "$preset" --depth 9 |
        awk '/Nodes\/second/ {print $3}')
      echo "$round,$preset,$nps" >>"$out/cost/nps.csv.part"
    done
  done
  mv "$out/cost/nps.csv.part" "$out/cost/nps.csv"
}
part_readme() {
  # The training data's sizes and SHA-256, when it is here.
  [ -f "$work/labels-own/labels.csv" ] && python3 scripts/eval_labels_readme.py "$out" --data-csv "$work"
  compress_tables "$out"
  light_tables "$out/screen-10k"
  light_tables "$out/screen-40k"
  python3 scripts/eval_labels_readme.py "$out" --readme
}

run_parts "book games label_own label_peers fits loss screen screen_40k clock gauntlet gauntlet_toga gauntlet_ethereal cost nps readme" "$@"

#!/usr/bin/env bash
# Regenerates results/strength/ on the protocol in its README: the builtin engine's clock use
# against Toga II, the gated steps to the `gated` preset, the gauntlet against Glaurung 2.2, Toga
# II 3.0 and Ethereal 12, and the worth of the shared switches inside `gated` beside `modern`.
# Resumable: run it again after a kill; one part: scripts/strength.sh clock_use.
#
#   parts: clock_use design book gates design2 fit_mobility gates2 ltc gauntlet worth worth_clock
#          ladder speed gates3 lean_eval gates4 gauntlet_ltc gauntlet_ltc_modern gates5
#          gauntlet_ltc_fischerle worth_fitted worth_fitted_confirm worth_nnue worth_nnue_confirm
#          table
source "$(dirname "$0")/lib.sh"
out=results/strength
work=target/strength
snapshot_harness

toga=$(command -v toga2 || echo /usr/games/toga2)
ethereal=$(command -v ethereal-chess || echo /usr/games/ethereal-chess)
glaurung=$(command -v glaurung || echo /usr/games/glaurung)
# The opponents are Debian packages: say which is missing before a match fails on its first game.
need_opponents() {
  local engine
  for engine in "$toga" "$ethereal" "$glaurung"; do
    if [ ! -x "$engine" ]; then
      echo "$engine is not installed (apt-get install toga2 ethereal-chess glaurung)" >&2
      exit 1
    fi
  done
}
TOGA="toga-ii-3.0:engine=uci:$toga,uci.Hash=16"
ETHEREAL="ethereal-12:engine=uci:$ethereal,uci.Hash=16,uci.Threads=1"
GLAURUNG="glaurung-2.2:engine=uci:$glaurung,uci.Hash=16,uci.Threads=1"
# The selection book (the gates, the worth table) and the gauntlet's own, disjoint from every other.
SELECT=results/eval/verify-openings.epd
BOOK=$out/gauntlet-openings.epd
STC=tc=2+0.02
LTC=tc=10+0.1
# The gates: SPRT on normalized Elo [0, 25], at most 120 pairs, at 1 s + 0.01 s with fishtest's
# adjudication (why: the README's protocol).
ADJUDICATION=(--resign-moves 3 --resign-score 600 --draw-after 40 --draw-moves 8 --draw-score 10
  --tb-adjudicate)
GATE=(--sprt 0,25 --pairs 120 --openings "$SELECT" --limit tc=1+0.01 "${ADJUDICATION[@]}")

part_clock_use() {
  [ -f "$out/clock-use/ltc/pairings.csv" ] || need_opponents
  play clock-use/stc --player modern:preset=modern --player "$TOGA" --openings "$SELECT" \
    --limit "$STC" --pairs 20
  play clock-use/ltc --player modern:preset=modern --player "$TOGA" --openings "$SELECT" \
    --limit "$LTC" --pairs 6
}

# The evaluation the eval study fitted (results/eval/fit-all), the first change gated.
FITTED=eval=@results/eval/fit-all/eval.toml

# Which search switches to gate: a 2^(6−1) design at 10,000 nodes a move over `modern` with the
# fitted evaluation (32 points, each pair its own opening of the selection book).
part_design() {
  play design --preset modern --set "$FITTED" --set reverse_futility.margin=85 \
    --set reverse_futility.max_level=6 \
    --factorial reverse_futility,late_move_pruning.max_level=3/6,see,check_extension,iir,continuation_history \
    --fraction 1 --pairs 1 --limit nodes=10000 --openings "$SELECT"
}

# The gauntlet's book: balanced self-play openings with a seed no study used, disjoint from every
# book there is (the committed ones, the texel games', the older studies' regenerated ones).
part_book() {
  opening_book "$BOOK" 5151 400 --id-prefix gauntlet
  disjoint_book "$BOOK" "$SELECT" suites/openings.epd suites/selfplay.epd \
    target/texel/texel-openings.epd results/tuning/verify-openings.epd \
    results/cross-engine/openings.epd results/factorial/openings.epd
  sha256sum "$BOOK"
}

# The gates, in order: each change a list of --set keys, played by the configuration so far with
# the change against the configuration so far. Lines: NAME|SETTINGS (comma-separated).
ROUND1=(
  "eval|$FITTED"
  "reverse-futility|reverse_futility.margin=85,reverse_futility.max_level=6"
  "time|time.stability=on,time.score_drop=on,time.node_share=on,time.partial_iteration=true"
)
# Round 2 (after design2): its two largest positive main effects, and an evaluation fitted with
# mobility alone (the one term the eval study found worth its cost).
ROUND2=(
  "continuation-history|continuation_history=on"
  "qs-delta|qsearch.delta=200"
  "eval-mobility|eval=@$out/fit-mobility/eval.toml"
)
# Round 3 (after the gauntlet and the worth table): search gaps from search-gaps.md, built as new
# switches — quiet moves sorted by history with Ethereal's malus and gravity (§1, §2), SEE pruning
# in the main search (§5), and the null move as Toga II and Ethereal restrict and deepen it (§4).
ROUND3=(
  "history-ordering|history.sort_all=true,history.malus=true"
  "see-prune|see_prune=on"
  "null-move|null_move.skip_pv=true,null_move.eval_divisor=200,null_move.base=3"
)
# Round 4 (after round 3 accepted none): the fitted evaluation again over the base the gates have
# reached, the same fit without the four terms whose removal gained at 0.5 s + 5 ms in
# results/eval (a faster evaluation), `modern`'s singular extension off, and the history kept
# from move to move.
LEAN=$out/eval-lean.toml
ROUND4=(
  "eval-again|$FITTED"
  "eval-lean|eval=@$LEAN"
  "no-singular|singular=off"
  "history-keep|history.keep=true"
)
# Round 5 (after round 4 accepted none): the values of results/tuning's focused SPSA tune (inside
# `modern`), over the base the gates have reached, as one change: tuned.toml's quoted keys (its [set]
# table, the only quoted keys it has) as KEY=V,…; its `preset` line is not read, the base is the gates'.
SPSA_TUNED=results/tuning/focus/tuned.toml
spsa_settings() {
  local settings
  settings=$(sed -n 's/^"\(.*\)" = \(.*\)$/\1=\2/p' "$SPSA_TUNED" | paste -sd,)
  [ -n "$settings" ] || { echo "$SPSA_TUNED: expected \"KEY\" = VALUE lines (its [set] table)" >&2; exit 1; }
  echo "$settings"
}
# The fitted evaluation without passed.path, rook_files, bishop_pair and threats (no refit).
part_lean_eval() {
  python3 - results/eval/fit-all/eval.toml "$LEAN" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sections = re.split(r"\n(?=\[)", text)
drop = {"[passed.path]", "[rook_files]", "[bishop_pair]", "[threats]"}
kept = [s for s in sections if s.splitlines()[0].strip() not in drop]
with open(sys.argv[2], "w") as out:
    out.write("# results/eval/fit-all/eval.toml without passed.path, rook_files, bishop_pair and\n")
    out.write("# threats (scripts/strength.sh lean_eval; not refitted)\n")
    out.write("\n".join(kept).rstrip("\n") + "\n")
PY
}
# STEP...: the settings of `modern` plus the accepted ones among the steps given that have run.
accepted_settings() {
  local step name settings kept="preset=modern"
  for step in "$@"; do
    name=${step%%|*}
    settings=${step#*|}
    [ -f "$out/gates/$name/pairings.csv" ] || break
    if python3 scripts/strength_table.py --accepted "$out/gates/$name"; then
      kept="$kept,$settings"
    fi
  done
  echo "$kept"
}
# STEP...: plays each step not yet played, over the steps accepted before it.
gate_steps() {
  local all=("$@") k name settings base
  for k in "${!all[@]}"; do
    name=${all[k]%%|*}
    settings=${all[k]#*|}
    [ -f "$out/gates/$name/pairings.csv" ] && continue
    base=$(accepted_settings "${all[@]:0:k}")
    play "gates/$name" --player "before:$base" --player "with-$name:$base,$settings" \
      --baseline p00 "${GATE[@]}"
  done
}
part_gates() { gate_steps "${ROUND1[@]}"; }
part_gates2() { gate_steps "${ROUND1[@]}" "${ROUND2[@]}"; }
part_gates3() { gate_steps "${ROUND1[@]}" "${ROUND2[@]}" "${ROUND3[@]}"; }
part_gates4() { gate_steps "${ROUND1[@]}" "${ROUND2[@]}" "${ROUND3[@]}" "${ROUND4[@]}"; }
part_gates5() {
  local spsa
  spsa=$(spsa_settings)
  gate_steps "${ROUND1[@]}" "${ROUND2[@]}" "${ROUND3[@]}" "${ROUND4[@]}" "spsa-focus|$spsa"
}

# SETTINGS (preset=P,KEY=V,…): the same as --preset/--set arguments, in the array `set_args`.
as_set_args() {
  local item
  set_args=()
  IFS=, read -ra items <<<"$1"
  for item in "${items[@]}"; do
    case $item in
      preset=*) set_args+=(--preset "${item#preset=}") ;;
      *) set_args+=(--set "$item") ;;
    esac
  done
}

# The classic terms and mobility fitted to the eval study's games (scripts/texel-data.sh).
part_fit_mobility() {
  [ -f "$out/fit-mobility/report.md" ] || "$harness" texel --pgn target/texel/games/games.pgn \
    --preset modern --set eval.mobility=on --quiet --out "$out/fit-mobility"
}

# A second design, after the first round of gates, over the configuration they accepted: Fischerle's
# dynamic levels, late move pruning's reach, continuation history, QS delta pruning, LMR's cut-node
# adjustment and a narrower aspiration window.
part_design2() {
  as_set_args "$(accepted_settings "${ROUND1[@]}")"
  play design2 "${set_args[@]}" \
    --factorial selective.candidate_limit=3/0,late_move_pruning.max_level=3/6,continuation_history,qsearch.delta=off/200,lmr.cut_more,aspiration.window=50/20 \
    --fraction 1 --pairs 1 --limit nodes=10000 --openings "$SELECT"
}

# `gated` at the longer clock, against `modern`, on the gauntlet's book (not the gates' one).
part_ltc() {
  play ltc --player modern:preset=modern --player gated:preset=gated --baseline p00 \
    --openings "$BOOK" --limit "$LTC" --pairs 10
}

# PRESET PAIRS: the preset against the three engines, each pair its own opening of the book, with
# fishtest's adjudication (as the gates).
gauntlet() {
  [ -f "$out/gauntlet-$1/pairings.csv" ] || need_opponents
  play "gauntlet-$1" --player "$1:preset=$1" --player "$GLAURUNG" --player "$TOGA" \
    --player "$ETHEREAL" --baseline p00 --openings "$BOOK" --limit "$STC" --pairs "$2" \
    "${ADJUDICATION[@]}"
}
part_gauntlet() {
  gauntlet gated 100
  gauntlet modern 100
  gauntlet fischerle 100
}

# PRESET at 10 s + 0.1 s against the three engines, on openings 201-300 of the same book (fresh
# for `gated`; every preset plays the same 100, so an opening is one cluster across them).
ltc_gauntlet() {
  [ -f "$out/ltc-gauntlet-$1/pairings.csv" ] || need_opponents
  play "ltc-gauntlet-$1" --player "$1:preset=$1" --player "$GLAURUNG" --player "$TOGA" \
    --player "$ETHEREAL" --baseline p00 --openings "$BOOK" --seed 200 --limit "$LTC" --pairs 100 \
    "${ADJUDICATION[@]}"
}
part_gauntlet_ltc() { ltc_gauntlet gated; }
part_gauntlet_ltc_modern() { ltc_gauntlet modern; }
part_gauntlet_ltc_fischerle() { ltc_gauntlet fischerle; }

# The shared switches, by the name results/heuristics gives them: NAME=KEY=VALUE (its `on`).
SHARED=(null_move=null_move=on futility=futility=on lmr=lmr=on
  late_move_pruning=late_move_pruning=on singular=singular=on see_prune=qsearch.see_prune=0
  reverse_futility=reverse_futility=on aspiration=aspiration=on)
# DIR PRESET LIMIT PAIRS: each shared switch off (first) against on (second) in PRESET, on the
# book and openings results/heuristics measured `modern` on (suites/openings.epd, seed 1000).
worth() {
  local entry name setting key value
  for entry in "${SHARED[@]}"; do
    name=${entry%%=*} setting=${entry#*=}
    key=${setting%%=*} value=${setting#*=}
    play "$1/$name" --player "without:preset=$2,$key=off" --player "with:preset=$2,$key=$value" \
      --baseline p00 --limit "$3" --pairs "$4" --seed 1000
  done
}
# `modern`'s null move, which results/heuristics did not toggle (it is in `fischerle` too).
modern_null_move() {
  play "$1/null_move" --player without:preset=modern,null_move=off \
    --player with:preset=modern,null_move=on --baseline p00 --limit "$2" --pairs "$3" --seed 1000
}
part_worth() {
  worth worth gated nodes=10000 100
  modern_null_move worth-modern nodes=10000 100
}
part_worth_clock() {
  worth worth-clock gated tc=0.5+0.005 30
  modern_null_move worth-clock-modern tc=0.5+0.005 30
}

# Amendment of 2026-11-28 (#54), a third strength: each shared switch inside `fitted`, with (the
# preset as it is) against without; `singular`, off in `fitted`, is switched on instead.
worth_fitted_pair() {
  local dir=$1 name=$2 setting=$3 key value without with
  key=${setting%%=*} value=${setting#*=}
  shift 3
  if [ "$name" = singular ]; then
    without=preset=fitted with=preset=fitted,singular=on
  else
    without=preset=fitted,$key=off with=preset=fitted
  fi
  play "$dir/$name" --player "without:$without" --player "with:$with" --baseline p00 \
    --limit nodes=10000 "$@"
}
part_worth_fitted() {
  local entry
  for entry in "${SHARED[@]}"; do
    worth_fitted_pair worth-fitted "${entry%%=*}" "${entry#*=}" --pairs 400 --seed 1000
  done
}
# The fitted column's significant cells (after Holm), replayed on the gate book's openings.
part_worth_fitted_confirm() {
  local entry name significant
  # Read once: a pipe into `grep -q` may close before the list is written (pipefail).
  significant=$(python3 scripts/strength_table.py --fitted-significant "$out")
  for entry in "${SHARED[@]}"; do
    name=${entry%%=*}
    grep -qx "$name" <<<"$significant" || continue
    worth_fitted_pair worth-fitted-confirm "$name" "${entry#*=}" --pairs 500 --seed 0 \
      --openings results/eval/labelled/gate-openings.epd
  done
}

# Amendment of 2026-11-29 (#65), the NNUE column: each shared switch toggled inside `nnue` as inside
# `fitted`, and the reference singular extension; then its significant cells replayed.
NNUE_ONLY=("singular_reference=singular=@results/fidelity/singular-reference.toml")
worth_nnue_pair() {
  local dir=$1 name=$2 setting=$3 key without with
  key=${setting%%=*}
  shift 3
  case $name in
    singular) without=preset=nnue with=preset=nnue,singular=on ;;
    singular_reference) without=preset=nnue with=preset=nnue,$setting ;;
    *) without=preset=nnue,$key=off with=preset=nnue ;;
  esac
  play "$dir/$name" --player "without:$without" --player "with:$with" --baseline p00 \
    --limit nodes=10000 "$@"
}
part_worth_nnue() {
  local entry
  for entry in "${SHARED[@]}" "${NNUE_ONLY[@]}"; do
    worth_nnue_pair worth-nnue "${entry%%=*}" "${entry#*=}" --pairs 400 --seed 1000
  done
}
part_worth_nnue_confirm() {
  local entry name significant
  significant=$(python3 scripts/strength_table.py --nnue-significant "$out")
  for entry in "${SHARED[@]}" "${NNUE_ONLY[@]}"; do
    name=${entry%%=*}
    grep -qx "$name" <<<"$significant" || continue
    worth_nnue_pair worth-nnue-confirm "$name" "${entry#*=}" --pairs 500 --seed 500 \
      --openings results/eval/labelled/gate-openings.epd
  done
}

# The 2² design of the two switches worth most inside `gated` at 10,000 nodes, at two budgets.
part_ladder() {
  local two
  two=$(python3 scripts/strength_table.py --largest-two "$out")
  [ -f "$out/ladder/ladder.csv" ] || "$harness" match --quiet --out "$out/ladder" --preset gated \
    --factorial "$two" --pairs 20 --ladder nodes=10000,40000 --seed 1000
}

# NPS of `gated` beside `modern` (and `fischerle`): `harness bench --depth 8`, REPS interleaved
# rounds; speed.csv has every round, the table script takes medians and per-round ratios.
part_speed() {
  local rep preset nps
  echo "round,preset,nodes,nps" >"$out/speed.csv"
  for rep in $(seq "${REPS:-7}"); do
    for preset in modern gated fischerle; do
      "$harness" bench --preset "$preset" --depth 8 >"$work/bench.txt"
      nps=$(sed -n 's/^Nodes\/second *: //p' "$work/bench.txt")
      echo "$rep,$preset,$(sed -n 's/^Nodes searched *: //p' "$work/bench.txt"),$nps" >>"$out/speed.csv"
    done
  done
}

# The tables, then the study made light (as results/eval): matches keep games.csv, the clock-use
# runs their moves.csv too (the clock table reads it), gzipped; reports rebuilt from what is kept.
part_table() {
  python3 scripts/strength_table.py "$out" --readme >"$out/table.md"
  # Every study's strength note is read from the gauntlet.csv just written.
  local script dir
  while read -r script dir <&3; do
    case $script in '#'* | '') continue ;; esac
    if grep -q '<!-- strength-note -->' "$dir/README.md"; then
      python3 "scripts/$script" "$dir" --readme >/dev/null
    fi
  done 3<scripts/studies.txt
  find "$out" -name 'games.pgn' -delete
  find "$out" -name 'moves.csv' -not -path '*/clock-use/*' -delete
  compress_tables "$out"
  for dir in $(find "$out" -name manifest.json -printf '%h\n'); do
    "$harness" report "$dir" >/dev/null
  done
  du -sh "$out"
}

run_parts "clock_use design book gates design2 fit_mobility gates2 ltc gauntlet worth worth_clock ladder speed gates3 lean_eval gates4 gauntlet_ltc gauntlet_ltc_modern gates5 gauntlet_ltc_fischerle worth_fitted worth_fitted_confirm worth_nnue worth_nnue_confirm table" "$@"

#!/usr/bin/env bash
# Does every committed report regenerate from its committed tables? For each run directory under
# results/ (one with a manifest.json or a ladder.json; a ladder's rungs are rebuilt with it, and
# each compared too), `harness report` on a copy, then the copy's report.md against the committed
# one. Prints one line per directory (identical, differs, or
# failed with the error's first line) and the counts; exit 1 if any directory differs or fails
# that results/regenerate-exceptions.txt does not list (a line: DIR, a tab, why).
#
#   scripts/regenerate_check.sh                 # every run directory
#   scripts/regenerate_check.sh results/eval    # those under one study
#
# HARNESS names the binary to use (default: the release build, built first); REGENERATE_WORK the
# scratch directory (default target/regenerate). The test `report_cli.rs` runs it with both.
source "$(dirname "$0")/lib.sh"
harness=${HARNESS:-}
if [ -z "$harness" ]; then
  cargo build --release -p harness
  harness=$PWD/target/release/harness
fi
work=${REGENERATE_WORK:-target/regenerate}
rm -rf "$work"
mkdir -p "$work"
exceptions=results/regenerate-exceptions.txt
roots=("${@:-results}")
same=0 differ=0 failed=0 unexplained=0
# FILE without its "The searches, per move" section (to the next heading).
without_per_move() {
  awk '/^## The searches, per move/ { skip = 1; next } /^## / { skip = 0 } !skip' "$1"
}
# DIR COPY: how the regenerated COPY/report.md compares with the committed DIR/report.md.
compare() {
  local dir=$1 copy=$2
  if ! sed -i "s#$copy#$dir#g" "$copy/report.md"; then
    echo "failed: the copy's paths could not be rewritten"
  elif cmp -s "$dir/report.md" "$copy/report.md"; then
    echo identical
  elif [ ! -e "$dir/moves.csv" ] && [ ! -e "$dir/moves.csv.gz" ] &&
    cmp -s <(without_per_move "$dir/report.md") <(without_per_move "$copy/report.md"); then
    # A match whose moves.csv was left out for size: its committed report keeps the per-move table
    # the regeneration cannot rebuild (it says so instead); every other line must be the same.
    echo "identical but the per-move table (moves.csv not kept)"
  else
    echo "differs ($( (diff "$dir/report.md" "$copy/report.md" || true) | grep -c '^[<>]') lines)"
  fi
}
# DIR STATUS: counted, checked against the exceptions, printed.
record() {
  local dir=$1 status=$2
  case $status in
    identical*) same=$((same + 1)) ;;
    failed*) failed=$((failed + 1)) ;;
    *) differ=$((differ + 1)) ;;
  esac
  if [[ $status != identical* ]] && ! grep -q "^$dir	" "$exceptions" 2>/dev/null; then
    unexplained=$((unexplained + 1))
    status="$status — not in $exceptions"
  fi
  echo "$dir: $status"
}
while read -r dir; do
  copy=$work/${dir//\//_}
  cp -r "$dir" "$copy"
  # No option: a grid reported against another baseline than its first configuration records it
  # in its manifest, and `harness report DIR` alone writes the committed report.
  # A tune's report names its own directory in the commands it suggests: the copy's is made the
  # original's before comparing.
  if ! err=$("$harness" report "$copy" 2>&1 >/dev/null); then
    record "$dir" "failed: $(echo "$err" | grep -m1 -v '^$' || true)"
  else
    record "$dir" "$(compare "$dir" "$copy")"
    # A ladder's report rebuilds its rungs' reports too: each is compared as well.
    if [ -f "$dir/ladder.json" ]; then
      for rung in "$dir"/*/; do
        rung=${rung%/}
        [ -f "$rung/manifest.json" ] || continue
        record "$rung" "$(compare "$rung" "$copy/$(basename "$rung")")"
      done
    fi
  fi
  rm -rf "$copy"
done < <(find "${roots[@]}" \( -name manifest.json -o -name ladder.json \) -printf '%h\n' |
  sort -u | while read -r d; do [ -f "$(dirname "$d")/ladder.json" ] || echo "$d"; done)
echo "identical $same, differ $differ, failed $failed; not explained: $unexplained"
[ "$unexplained" -eq 0 ]

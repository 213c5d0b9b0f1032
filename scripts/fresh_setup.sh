#!/usr/bin/env bash
# What a newcomer waits for on a fresh machine: the README's two commands in a fresh clone of HEAD
# with an empty cargo home (every crate downloaded) and an empty target directory.
#   scripts/fresh_setup.sh
# The installs of scripts/test.sh (PyPI and Debian packages) happen only where they are missing: on
# a machine that has them, the second figure leaves them out (say so when quoting it).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet . "$work/clone"
export CARGO_HOME="$work/cargo-home" CARGO_TARGET_DIR="$work/clone/target"
export FISCHERLE_SUITES="${FISCHERLE_SUITES:-$(cd ../shared/suites 2>/dev/null && pwd || echo ../shared/suites)}"
cd "$work/clone"
secs() { local start=$SECONDS; "$@" >"$work/log" 2>&1 || { tail -30 "$work/log" >&2; exit 1; }; echo $((SECONDS - start)); }
# The main command in its two parts (cargo run = build, then run): the download and build, then
# the default experiment itself.
build=$(secs cargo build --release -p harness)
run=$(secs cargo run --release -p harness -- grid --quiet)
main=$((build + run))
tests=$(secs ./scripts/test.sh)
echo "main command (cargo run --release -p harness -- grid), from an empty cargo home and target: $main s ($build s download and build, $run s the default experiment)"
echo "test command (./scripts/test.sh) right after: $tests s"
echo "both: $((main + tests)) s"

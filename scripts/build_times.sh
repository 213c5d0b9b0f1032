#!/usr/bin/env bash
# Measures what a newcomer waits for: the README's two commands' builds from cold (a fresh target
# directory, the crates already downloaded), and the rebuild after touching the search.
#   scripts/build_times.sh [TARGET_DIR]     (default: a fresh temporary directory, removed after)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-$(mktemp -d)}"
export CARGO_TARGET_DIR="$target"
cargo fetch --quiet
secs() { local start=$SECONDS; "$@" > /dev/null 2>&1; echo $((SECONDS - start)); }
main=$(secs cargo build --release -p harness)
tests=$(secs cargo test --release --workspace --no-run)
touch engine/src/search/alphabeta.rs
incremental=$(secs cargo build --release -p harness)
echo "cold build of the main command (cargo run --release -p harness): $main s"
echo "then the test command's build (cargo test --release --workspace --no-run): $tests s"
echo "cold total: $((main + tests)) s"
echo "rebuild after touching engine/src/search/alphabeta.rs: $incremental s"
[ -n "${1:-}" ] || rm -rf "$target"

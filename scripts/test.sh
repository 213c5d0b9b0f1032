#!/usr/bin/env bash
# The whole test suite, on a fresh machine too: installs what the tests need when it is missing
# (python-chess, the notebook's packages and statsmodels from PyPI, Debian's stockfish, toga2, gaviotatb, chromium,
# slurm-wlm and munge), then runs every Rust test of the workspace with cargo-nextest where it is
# installed, else with cargo test (the Slurm tests start their own single-node cluster with
# scripts/slurm/start-cluster.sh).
# Tests that need the public suites in ../shared/suites (or $FISCHERLE_SUITES) say plainly when
# they were not run; set FISCHERLE_REQUIRE_SUITES=1 to make their absence a failure (CI does).
source "$(dirname "$0")/lib.sh"

# The installs wait on the network and the disk, the test build on the CPU: on a fresh machine
# they run side by side (about 1.5 min of installs hidden behind the build), and the tests start
# once both are done. An install's failure fails the script.
install_missing() {
  python3 -c "import chess" 2>/dev/null || pip_install chess
  python3 -c "import polars, matplotlib, nbclient, nbformat, ipykernel" 2>/dev/null ||
    pip_install -r notebooks/requirements.txt
  # The independent implementations the study library's statistics are checked against.
  python3 -c "import statsmodels, scipy" 2>/dev/null || pip_install statsmodels scipy
  local debs=()
  # The Gaviota tables for the KPK cross-check.
  [ -f /usr/share/gaviotatb/gtb4/kpk.gtb.cp4 ] || debs+=(gaviotatb)
  command -v stockfish >/dev/null || [ -x /usr/games/stockfish ] || debs+=(stockfish)
  # Toga II: an engine that declares its heuristics (combo, check and spin options) and an own book.
  [ -x /usr/games/toga2 ] || debs+=(toga2)
  # The real browser the tree viewer's test loads its page in (headless).
  [ -x /usr/bin/chromium ] || debs+=(chromium)
  # A single-node cluster for the scale-out tests.
  { command -v slurmctld && command -v munged; } >/dev/null || debs+=(slurm-wlm munge)
  if [ ${#debs[@]} -gt 0 ]; then debian_install "${debs[@]}"; fi
}

install_log=$(mktemp)
install_missing >"$install_log" 2>&1 &
installs=$!
# The release profile, like the main command: the two commands share one build (see
# harness/Cargo.toml on feature unification), and searches in tests run at full speed.
cargo test --release --workspace --no-run "$@"
if ! wait "$installs"; then
  cat "$install_log" >&2
  echo "installing the tests' tools failed" >&2
  exit 1
fi
cat "$install_log"
rm -f "$install_log"

export FISCHERLE_REQUIRE_TOOLS=1
if ! cargo nextest --version >/dev/null 2>&1; then
  cargo test --release --workspace "$@"
  exit
fi
# cargo-nextest (on the project's machines) runs every test as its own process, the binaries side
# by side: the Slurm, browser and engine-peer tests wait on other processes, and with `cargo test`
# each binary's slowest test held up the next binary. It builds with the `cargo test --no-run`
# above (nothing is compiled again) and does not run doc tests: `cargo test --doc` does, first, so
# that nextest's summary of every other test is the run's closing line. It captures each test
# whole, so the tests' `NOT RUN:` lines also go to a log printed at the end.
# Arguments go to both runners: cargo's package and test-name filters are understood by both, but
# flags after `--` differ (cargo test's `--ignored` is nextest's `--run-ignored only`).
export FISCHERLE_NOT_RUN_LOG="$(mktemp)"
status=0
cargo test --release --workspace --doc "$@" || status=$?
cargo nextest run --release --workspace --no-fail-fast "$@" || status=$?
cat "$FISCHERLE_NOT_RUN_LOG" >&2
rm -f "$FISCHERLE_NOT_RUN_LOG"
exit "$status"

#!/usr/bin/env bash
# The whole test suite, on a fresh machine too: installs what the tests need when it is missing
# (python-chess and the notebook's packages from PyPI, Debian's stockfish, gaviotatb, slurm-wlm and
# munge), then runs every Rust test of the workspace (the Slurm tests start their own single-node
# cluster with scripts/slurm/start-cluster.sh).
# Tests that need the public suites in ../shared/suites (or $FISCHERLE_SUITES) say plainly when
# they were not run; set FISCHERLE_REQUIRE_SUITES=1 to make their absence a failure (CI does).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import chess" 2>/dev/null; then
  echo "installing python-chess (PyPI)"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore chess
fi
if ! python3 -c "import polars, matplotlib, nbclient, nbformat, ipykernel" 2>/dev/null; then
  echo "installing the notebook's packages (PyPI: notebooks/requirements.txt)"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r notebooks/requirements.txt
fi
if [ ! -f /usr/share/gaviotatb/gtb4/kpk.gtb.cp4 ]; then
  echo "installing gaviotatb (Debian: the Gaviota tables for the KPK cross-check)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gaviotatb >/dev/null
fi
if ! command -v stockfish >/dev/null && [ ! -x /usr/games/stockfish ]; then
  echo "installing stockfish (Debian)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq stockfish >/dev/null
fi

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "installing slurm-wlm and munge (Debian: a single-node cluster for the scale-out tests)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq slurm-wlm munge >/dev/null
fi

export FISCHERLE_REQUIRE_TOOLS=1
# The release profile, like the main command: the two commands share one build (see
# harness/Cargo.toml on feature unification), and searches in tests run at full speed.
cargo test --release --workspace "$@"

#!/usr/bin/env bash
# Submits a sharded grid or match and its merge, and prints the two job ids:
#   scripts/slurm/submit.sh N OUTBASE grid|match ARGS...
# e.g. scripts/slurm/submit.sh 8 results/sts-d10 grid --grid my.toml --depth 10
# N array tasks run the shards (scripts/slurm/shard.sbatch); the merge job waits for all of them
# (afterok) and writes OUTBASE/merged with its report. Extra sbatch options: SBATCH_ARGS.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="$1"; base="$2"; shift 2
export HARNESS="${HARNESS:-$(pwd)/target/release/harness}"
mkdir -p "$base"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir "$(pwd)" --output "$base/slurm-%A_%a.out" \
  --array="0-$((n - 1))" scripts/slurm/shard.sbatch "$base" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir "$(pwd)" --output "$base/slurm-merge-%j.out" \
  --dependency="afterok:$array" scripts/slurm/merge.sbatch "$base")
echo "$array $merge"

#!/usr/bin/env bash
# Reproduces results/kpk-validation/: the 1989 validation over all 331 352 KPK positions with
# the text's rules, then with each deliberately wrong rule in front of them (≈ 2.5 min each on
# 2 cores; validation.csv gzipped). Usage: scripts/kpk-validation.sh [OUT_DIR]
source "$(dirname "$0")/lib.sh"
out=${1:-results/kpk-validation}
work=target/kpk-validation
snapshot_harness
"$harness" kpk validate --out "$out/text-rules" >/dev/null
for mutant in front-draws eager-square; do
  "$harness" kpk validate --mutant "$mutant" --compare-every 1000 --compare-depth 1 \
    --out "$out/mutant-$mutant" >/dev/null
done
# validation.csv is 23 MB a run, the comparison 1.3 MB; compressed they are small enough to commit.
gzip -9nf "$out"/*/validation.csv "$out"/text-rules/comparison.csv
echo "results: $out"

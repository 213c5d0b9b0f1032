#!/usr/bin/env bash
# Regenerates results/match-baseline/: what fischerle is worth against plain, and SEE against the
# attack-count classification, in play at 5,000 nodes per move (deterministic games), each to an
# SPRT decision or to its pair limit. A killed run continues where it stopped (--resume).
source "$(dirname "$0")/lib.sh"
out=results/match-baseline
work=target/match-baseline
snapshot_harness

# As played (before `match` refused it): more pairs than the book's 432 openings at fixed nodes,
# so a pair past the 432nd replays an earlier pair's games; the README counts each opening once.
# plain is p00 (the baseline), fischerle p01: the statistics are fischerle's.
play fischerle-vs-plain --name fischerle-vs-plain --set preset=plain,fischerle \
  --limit nodes=5000 --pairs 2000 --sprt 0,5 --model normalized --repeat-openings
# SEE off is p00, on is p01: the statistics are SEE's.
play see --name see --preset fischerle --set see=false,true \
  --limit nodes=5000 --pairs 1500 --sprt -5,5 --model normalized --repeat-openings
# Large per-row tables are committed gzipped (see results/README.md).
compress_tables "$out"

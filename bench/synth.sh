#!/usr/bin/env bash
# `tdcone synth` speed: each profile, plain and zstd, PAIRS pairs (default
# 2.8M, the Twitter URL corpus's size). Prints one JSON object: seconds, MB
# written and MB/s per run. Usage: bench/synth.sh [PAIRS]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}
runs=""
for profile in twitter paraphrase; do
  for name in corpus.tsv corpus.tsv.zst; do
    start=$(now)
    "$tdcone" synth --profile "$profile" --pairs "$pairs" --seed 1 --output "$work/$name" --force 2>/dev/null
    run=$(awk -v s="$(echo "$(now) - $start" | bc)" -v b="$(stat -c %s "$work/$name")" \
      'BEGIN { printf "\"seconds\": %.2f, \"mb\": %.1f, \"mb_per_s\": %.1f", s, b / 1e6, b / 1e6 / s }')
    runs="$runs${runs:+, }{\"profile\": \"$profile\", \"file\": \"$name\", $run}"
    rm -f "$work/$name"
  done
done
echo "{\"bench\": \"synth\", \"pairs\": $pairs, \"runs\": [$runs]}"

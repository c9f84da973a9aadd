#!/usr/bin/env bash
# Tokenizer throughput, one core, on ~50 MB of mixed English text
# (bench/micro/tokenizer_throughput.cpp): ns per token and MB/s for each
# tokenizer and case setting. Prints one JSON object. With BASELINE=DIR (the
# build directory of an older commit), that build's figures too.
# Usage: bench/tokenizer.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
[ -x "$build/tdcone_bench_tokenizer" ] || cmake --build "$build" --target tdcone_bench_tokenizer >&2
echo "{\"bench\": \"tokenizer\", \"runs\": $("$build/tdcone_bench_tokenizer")"
if [ -n "${BASELINE:-}" ]; then
  echo ", \"baseline\": $("$BASELINE/tdcone_bench_tokenizer")"
fi
echo "}"

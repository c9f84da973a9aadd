#!/usr/bin/env bash
# The read path of one rank, without MPI (bench/micro/read_throughput.cpp):
# a TSV corpus (src, tgt, score, id) read, parsed, tokenized and interned as
# `tdcone score --score-col 3 --id-col 4` does on one rank; the best of PASSES.
# Prints one JSON object. With BASELINE=DIR (the build directory of an older
# commit with this benchmark), that build's figures too. With SHARES=N, N
# processes read the shares of N ranks at once, each with its wall and CPU
# seconds (builds before i20-read3 ignore SHARES and read one share).
# Usage: [SHARES=N] bench/read.sh CORPUS.tsv [PASSES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
corpus=${1:?usage: bench/read.sh CORPUS.tsv [PASSES]}
passes=${2:-3}
shares=${SHARES:-1}
[ -x "$build/tdcone_bench_read" ] || cmake --build "$build" --target tdcone_bench_read >&2
echo "{\"bench\": \"read\", \"run\": $("$build/tdcone_bench_read" "$corpus" "$passes" "$shares")"
if [ -n "${BASELINE:-}" ]; then
  echo ", \"baseline\": $("$BASELINE/tdcone_bench_read" "$corpus" "$passes" "$shares")"
fi
echo "}"

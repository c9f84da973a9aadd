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
source "$(dirname "$0")/micro_common.sh"
corpus=${1:?usage: bench/read.sh CORPUS.tsv [PASSES]}
passes=${2:-3}
shares=${SHARES:-1}
micro_bench read run tdcone_bench_read "$corpus" "$passes" "$shares"

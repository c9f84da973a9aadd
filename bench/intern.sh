#!/usr/bin/env bash
# Interning alone, one core (bench/micro/intern_throughput.cpp): the sides of
# a TSV corpus (src, tgt, score, id; a line with a bad score or id skipped,
# as `tdcone score --score-col 3 --id-col 4` skips it) tokenized, then
# tokenized and interned; ns per word interned, on the corpus's vocabulary and
# on a hot one (its first HOT_LINES lines repeated to as many words: a table
# in the L1 cache, the per-word work alone). Prints one JSON object. With
# BASELINE=DIR (the build directory of an older commit with this benchmark),
# that build's figures too.
# Usage: bench/intern.sh CORPUS.tsv [PASSES] [HOT_LINES]
set -euo pipefail
source "$(dirname "$0")/micro_common.sh"
corpus=${1:?usage: bench/intern.sh CORPUS.tsv [PASSES] [HOT_LINES]}
passes=${2:-3}
hot_lines=${3:-1000}
micro_bench intern run tdcone_bench_intern "$corpus" "$passes" "$hot_lines"

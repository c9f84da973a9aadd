#!/usr/bin/env bash
# Tokenizer throughput, one core, on ~50 MB of mixed English text
# (bench/micro/tokenizer_throughput.cpp): ns per token and MB/s for each
# tokenizer and case setting. Prints one JSON object. With BASELINE=DIR (the
# build directory of an older commit), that build's figures too.
# Usage: bench/tokenizer.sh
set -euo pipefail
source "$(dirname "$0")/micro_common.sh"
micro_bench tokenizer runs tdcone_bench_tokenizer

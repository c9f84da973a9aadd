#!/usr/bin/env bash
# Builds tdcone and the tests with AddressSanitizer and UBSan (clang, build-asan/)
# and runs the unit and multi-rank tests (not the e2e/fault scripts): any
# sanitizer report fails its test. Extra arguments go to ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
# Open MPI leaks by design, so no leak checks; UB stops the process with its
# stack. Exported before the build too: it runs the unit tests to list them.
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
CC=clang CXX=clang++ cmake -S "$root" -B "$root/build-asan" -DTDCONE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build-asan" -j"$(nproc)" --target tdcone_unit_tests tdcone_mpi_tests tdcone
cd "$root/build-asan"
ctest --output-on-failure -j"$(nproc)" -E '^(e2e|fault)_' "$@"

#!/usr/bin/env bash
# Installs, builds and runs every test (unit, multi-rank on 1-4 ranks, end-to-end).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j1 "$@"

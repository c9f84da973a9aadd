#!/usr/bin/env bash
# Installs the Debian packages, configures and builds tdcone into build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
echo "build: $root/build/tdcone"

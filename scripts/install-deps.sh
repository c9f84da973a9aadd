#!/usr/bin/env bash
# Installs every Debian package tdcone needs to build, test, benchmark and run
# its SLURM workflow. Safe to run again; needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  openmpi-bin libopenmpi-dev
  libboost-mpi-dev libboost-serialization-dev
  libhdf5-openmpi-dev hdf5-tools
  libzstd-dev zstd
  libdeflate-dev libisal-dev  # the deflate filter of the output files (ISA-L: igzip)
  zlib1g-dev liblzma-dev libbz2-dev gzip xz-utils bzip2  # compressed input (the tools: tests)
  libgtest-dev
  libcli11-dev libtomlplusplus-dev libutf8proc-dev libxxhash-dev libsimdjson-dev libfmt-dev libabsl-dev
  clang libclang-rt-14-dev llvm  # sanitizer and fuzz builds: ASan/UBSan/libFuzzer runtimes, llvm-symbolizer
  python3 python3-h5py python3-numpy python3-matplotlib python3-pandas python3-xxhash
  time bc
  valgrind  # callgrind: bench/instructions.sh, bench/asm_costs.py
  cmark  # renders README.md as a reader sees it (tests/e2e/readme_blocks.sh)
  slurm-wlm munge
)

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi

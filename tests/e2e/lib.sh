# Shared helpers for the end-to-end tests: $1 = tdcone binary, $2 = build dir.
set -euo pipefail
PY=/usr/bin/python3  # Debian's, with h5py (a pyenv python3 may come first on PATH)
TDCONE=$(realpath "$1")
BUILD=$(realpath "$2")
export HDF5_PLUGIN_PATH="$BUILD/plugins"  # for --compression zstd files
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tdcone-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
source "$HERE/../../scripts/mpi-env.sh"
run_mpi() { local n=$1; shift; ${TDCONE_MPIRUN:-mpirun} -n "$n" --oversubscribe "$TDCONE" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_failure STATUS PATTERN -- command...: the command must exit with
# STATUS and print PATTERN on stderr.
expect_failure() {
  local status=$1 pattern=$2; shift 3
  local rc=0
  "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
  [ "$rc" -eq "$status" ] || fail "expected exit $status, got $rc: $* ($(cat "$WORK/err.txt"))"
  grep -q -- "$pattern" "$WORK/err.txt" || fail "stderr of '$*' lacks '$pattern': $(cat "$WORK/err.txt")"
}

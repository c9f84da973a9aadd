# Shared helpers for the end-to-end tests: $1 = tdcone binary, $2 = build dir.
set -euo pipefail
PY=/usr/bin/python3  # Debian's, with h5py (a pyenv python3 may come first on PATH)
TDCONE=$(realpath "$1")
BUILD=$(realpath "$2")
export HDF5_PLUGIN_PATH="$BUILD/plugins"  # for --compression zstd files
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tdcone-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Open MPI's session directories under the test's own: concurrent tests (ctest
# -j) otherwise share /tmp/ompi.HOST.UID, and one's cleanup can remove it
# while another singleton is creating its own inside.
mkdir "$WORK/tmp"
export TMPDIR="$WORK/tmp"
source "$HERE/../../scripts/mpi-env.sh"
run_mpi() { local n=$1; shift; ${TDCONE_MPIRUN:-mpirun} -n "$n" --oversubscribe "$TDCONE" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# check_ranks NAME COMMAND OPTIONS...: runs `tdcone COMMAND` on 1-4 ranks into
# $WORK/NAME-N.h5 and fails unless every result equals the 1-rank one.
check_ranks() {
  local name=$1; shift
  for n in 1 2 3 4; do
    run_mpi "$n" "$@" --output "$WORK/$name-$n.h5" >/dev/null 2>"$WORK/$name-$n.log" \
      || { cat "$WORK/$name-$n.log"; fail "$name on $n ranks"; }
    [ "$n" = 1 ] || "$PY" "$HERE/compare_h5.py" "$WORK/$name-1.h5" "$WORK/$name-$n.h5" || fail "$name: $n ranks differ from 1"
  done
  echo "ok: $name identical on 1-4 ranks"
}
# expect_failure STATUS PATTERN -- command...: the command must exit with
# STATUS and print PATTERN on stderr.
expect_failure() {
  local status=$1 pattern=$2; shift 3
  local rc=0
  "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
  [ "$rc" -eq "$status" ] || fail "expected exit $status, got $rc: $* ($(cat "$WORK/err.txt"))"
  grep -q -- "$pattern" "$WORK/err.txt" || fail "stderr of '$*' lacks '$pattern': $(cat "$WORK/err.txt")"
}

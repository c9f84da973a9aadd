# Shared helpers for the fault tests: those of tests/e2e/lib.sh, plus bounded runs.
source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
# bounded SECONDS STATUS PATTERN -- command...: like expect_failure, but the
# command is killed after SECONDS and a timeout fails the test as a hang.
# The command may be `run_mpi N ARGS...`.
bounded() {
  local seconds=$1 status=$2 pattern=$3; shift 4
  if [ "$1" = run_mpi ]; then  # timeout runs programs, not shell functions
    local n=$2; shift 2
    set -- "${TDCONE_MPIRUN:-mpirun}" -n "$n" --oversubscribe "$TDCONE" "$@"
  fi
  local rc=0
  timeout -k 5 "$seconds" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "hang: '$*' still running after ${seconds}s ($(tail -3 "$WORK/err.txt"))"
  [ "$rc" -eq "$status" ] || fail "expected exit $status, got $rc: $* ($(cat "$WORK/err.txt"))"
  grep -q -- "$pattern" "$WORK/err.txt" || fail "stderr of '$*' lacks '$pattern': $(cat "$WORK/err.txt")"
}
# MPI=(... -n): run_mpi as a command `timeout` can start: "${MPI[@]}" N "$TDCONE" ARGS...
MPI=("${TDCONE_MPIRUN:-mpirun}" --oversubscribe -n)
# succeeds SECONDS command...: the command must exit 0 within SECONDS (a
# successful run prints nothing on stderr, which `bounded` wants to match).
# The command may be `run_mpi N ARGS...`; its output is in $WORK/out.txt.
succeeds() {
  local seconds=$1 rc=0; shift
  if [ "$1" = run_mpi ]; then
    local n=$2; shift 2
    set -- "${TDCONE_MPIRUN:-mpirun}" -n "$n" --oversubscribe "$TDCONE" "$@"
  fi
  timeout -k 5 "$seconds" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "hang: '$*' still running after ${seconds}s"
  [ "$rc" -eq 0 ] || fail "exit $rc: $* ($(cat "$WORK/err.txt"))"
}

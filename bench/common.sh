# Shared set-up of the benchmark scripts (sourced): the tdcone binary (built
# if missing), a scratch directory (kept when BENCH_DIR is given), MPI settings.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tdcone=${TDCONE:-$root/build/tdcone}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tdcone-bench.XXXXXX")}
trap '[ -n "${BENCH_DIR:-}" ] || rm -rf "$work"' EXIT
[ -x "$tdcone" ] || bash "$root/scripts/build.sh" >&2
source "$root/scripts/mpi-env.sh"
now() { date +%s.%N; }

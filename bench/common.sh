# Shared set-up of the benchmark scripts (sourced): the tdcone binary (built
# if missing), a scratch directory (kept when BENCH_DIR is given), MPI as root.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tdcone=${TDCONE:-$root/build/tdcone}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tdcone-bench.XXXXXX")}
trap '[ -n "${BENCH_DIR:-}" ] || rm -rf "$work"' EXIT
[ -x "$tdcone" ] || bash "$root/scripts/build.sh" >&2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
now() { date +%s.%N; }

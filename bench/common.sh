# Shared set-up of the benchmark scripts (sourced): the tdcone binary (built
# if missing), a scratch directory (kept when BENCH_DIR is given), MPI settings.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tdcone=${TDCONE:-$root/build/tdcone}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tdcone-bench.XXXXXX")}
mkdir -p "$work"
trap '[ -n "${BENCH_DIR:-}" ] || rm -rf "$work"' EXIT
[ -x "$tdcone" ] || bash "$root/scripts/build.sh" >&2
source "$root/scripts/mpi-env.sh"
now() { date +%s.%N; }
# timed_mpi RANKS LABEL ARGS...: `tdcone ARGS` on RANKS ranks into $work/LABEL.h5;
# prints "seconds rss_mb_rank0,rss_mb_rank1,..." (peak RSS of each rank).
timed_mpi() {
  local n=$1 label=$2
  shift 2
  local rss="$work/rss-$label" start seconds mbs=""
  rm -f "$rss".*
  start=$(now)
  mpirun -n "$n" --oversubscribe --bind-to none \
    bash -c '/usr/bin/time -f "%M" -o "'"$rss"'.$OMPI_COMM_WORLD_RANK" "$0" "$@"' \
    "$tdcone" "$@" --output "$work/$label.h5" --force >"$work/$label.log" 2>&1 \
    || { cat "$work/$label.log" >&2; exit 1; }
  seconds=$(echo "$(now) - $start" | bc)
  for f in $(ls "$rss".* | sort -t. -k2 -n); do mbs="$mbs${mbs:+,}$(( $(tail -n1 "$f") / 1024 ))"; done
  echo "$seconds $mbs"
}

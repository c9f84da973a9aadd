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
# baseline_binary COMMIT|BINARY: a binary as given, or the tdcone of a commit,
# built once with git worktree into ${BASELINE_DIR:-/tmp/tdcone-baseline-COMMIT}.
# These two run in $(...), where set -e does not hold: each step returns on failure.
baseline_binary() {
  local given=$1 commit dir
  if [ -x "$given" ]; then
    echo "$given"
    return
  fi
  commit=$(git -C "$root" rev-parse --short "$given^{commit}") || return 1
  dir=${BASELINE_DIR:-/tmp/tdcone-baseline-$commit}
  if [ ! -x "$dir/build/tdcone" ]; then
    [ -d "$dir" ] || git -C "$root" worktree add --detach "$dir" "$commit" >&2 || return 1
    cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >&2 || return 1
    cmake --build "$dir/build" -j "$(nproc)" --target tdcone >&2 || return 1
  fi
  echo "$dir/build/tdcone"
}
# synth_corpus PROFILE PAIRS: the path of a synthetic corpus in $work, made once.
synth_corpus() {
  local corpus="$work/$1-$2.tsv"
  if [ ! -s "$corpus" ]; then
    "$tdcone" synth --profile "$1" --pairs "$2" --seed 1 --output "$corpus.partial" --force >/dev/null 2>"$corpus.log" ||
      { cat "$corpus.log" >&2; return 1; }
    mv "$corpus.partial" "$corpus" || return 1  # a corpus cut short by an interrupted run is never reused
  fi
  echo "$corpus"
}

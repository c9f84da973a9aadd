#!/usr/bin/env bash
# Submits slurm/sweep.sbatch as a job array (one task per config or threshold
# set) and a collect job that runs when every task succeeded. Prints the
# collect job's id. Usage: slurm/submit-sweep.sh OUTDIR CONFIG... [-- SBATCH OPTIONS]
# Tasks are named after their config or threshold set (OUTDIR/sweep-NAME.h5,
# .log, .done); submitting again reruns only the tasks not done (FORCE=1: all).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
outdir=${1:?usage: submit-sweep.sh OUTDIR CONFIG...}
shift
configs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do configs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ -n "${THRESHOLD_SETS:-}" ]; then
  n=$(awk -F';' '{print NF}' <<<"$THRESHOLD_SETS")
else
  n=${#configs[@]}
fi
mkdir -p "$outdir"
array=$(sbatch --parsable --array=0-$((n - 1)) "$@" "$here/sweep.sbatch" "$outdir" "${configs[@]}")
sbatch --parsable --dependency=afterok:"$array" --ntasks=1 --export=ALL,SWEEP_COLLECT=1 "$@" \
  "$here/sweep.sbatch" "$outdir" "${configs[@]}"

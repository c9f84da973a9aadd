#!/usr/bin/env bash
# mpirun with the settings this project needs on a workstation or CI box
# (scripts/mpi-env.sh), and more ranks than cores accepted.
#
# Open MPI ends every job in which a rank exits with a non-zero status with a
# banner ("Primary job terminated normally, but 1 process returned a non-zero
# exit code. Per user-direction, the job has been aborted.", sometimes also
# "mpirun detected that one or more processes exited with non-zero status").
# tdcone has already said what happened in one line (an error, or a selection
# stopped by SIGUSR1/SIGTERM that wrote its checkpoint and exits 75), so this wrapper
# drops those banners (and mpirun's "Forwarding signal 10 to job"), and only
# them, from mpirun's standard error; the exit status and every other message
# are kept. (Plain mpirun: `mpirun --quiet`,
# or OMPI_MCA_orte_execute_quiet=1, drops the banner too, but also Open MPI's
# other help messages, e.g. why a launch failed.)
#
# SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 sent to this script go on to
# mpirun, which forwards SIGUSR1/SIGUSR2 to the ranks.
#
# A selection stopped by a signal exits 75 on every rank (a requeue keys on
# it). mpirun returns 75 then, except after a SIGTERM of its own: it passes
# SIGTERM to the ranks and returns 1. So this script returns 75 whenever
# mpirun failed and the ranks said they stopped with a checkpoint (tdcone's
# line "... checkpoint of N ranked lines written to ... (exit status 75)").
# (After a SIGTERM mpirun also kills the ranks that still run a moment later;
# SIGUSR1 leaves them all the time they need to write the checkpoint.)
set -euo pipefail
source "$(dirname "$0")/mpi-env.sh"

drop_banner() {
  local line held="" skip=0
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$skip" = 1 ]; then
      [[ $line =~ ^-+$ ]] && skip=0
      continue
    fi
    if [ -n "$held" ]; then
      if [[ $line =~ ^Primary\ job\ +terminated\ normally,\ but\ [0-9]+\ process ]] ||
         [[ $line =~ ^mpirun\ detected\ that\ one\ or\ more\ processes\ exited\ with\ non-zero\ status ]]; then
        held="" skip=1
        continue
      fi
      printf '%s\n' "$held"
      held=""
    fi
    [[ $line =~ ^mpirun:\ Forwarding\ signal\ [0-9]+\ to\ job$ ]] && continue  # tdcone says what the signal did
    [[ $line =~ ^tdcone\ select:\ stopped\ by\ a\ signal:\ checkpoint\ .*\(exit\ status\ 75\)$ ]] && : >"$fifo_dir/stopped"
    if [[ $line =~ ^-{20,}$ ]]; then
      held=$line  # a banner starts with a rule: wait for its first line
      continue
    fi
    printf '%s\n' "$line"
  done
  [ -z "$held" ] || printf '%s\n' "$held"
}

fifo_dir=$(mktemp -d "${TMPDIR:-/tmp}/tdcone-mpirun.XXXXXX")
trap 'rm -rf "$fifo_dir"' EXIT
mkfifo "$fifo_dir/stderr"
(trap '' INT TERM HUP USR1 USR2; drop_banner) <"$fifo_dir/stderr" >&2 &
filter=$!
mpirun --oversubscribe "$@" <&0 2>"$fifo_dir/stderr" &
launcher=$!
for signal in INT TERM HUP USR1 USR2; do
  trap "kill -$signal $launcher 2>/dev/null || true" "$signal"
done
status=0
while :; do
  status=0
  wait "$launcher" || status=$?
  kill -0 "$launcher" 2>/dev/null || break  # `wait` also returns when a trapped signal arrives
done
wait "$filter" || true
[ "$status" -eq 0 ] || [ ! -e "$fifo_dir/stopped" ] || status=75
exit "$status"

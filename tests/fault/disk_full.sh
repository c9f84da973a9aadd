#!/usr/bin/env bash
# A disk that fills up while the HDF5 result is written: on every rank count a
# clear error, exit 1, in bounded time, and neither the output nor its
# .partial left behind. Writes that Open MPI's collective I/O drops without
# an error (3+ ranks) are caught by reading the file back before the rename.
# The full disk is a small tmpfs: mounted as root, or as an unprivileged user
# inside a user and mount namespace of its own (unshare -rm). A file size
# limit is no substitute: Open MPI's start-up itself writes larger files.
if [ "$(id -u)" != 0 ]; then
  unshare -rm true 2>/dev/null || { echo "skip: not root and no user namespaces for a tmpfs"; exit 77; }
  # Inside, we are "root": Open MPI's session directory must not be real root's.
  TMPDIR=$(mktemp -d) exec unshare -rm bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 20000 --output corpus.tsv --progress-every 0 2>/dev/null
mkdir full
mount -t tmpfs -o size=60k tmpfs full || fail "cannot mount a tmpfs"
trap 'umount "$WORK/full"; rm -rf "$WORK"' EXIT
for compression in none deflate; do
  for n in 1 2 3; do
    bounded 180 1 "error: .*full/out.h5" -- run_mpi "$n" score --input corpus.tsv --compression "$compression" \
      --output full/out.h5 --progress-every 0
    grep -q "Segmentation\|signal" "$WORK/err.txt" && fail "a crash on $n ranks: $(cat "$WORK/err.txt")"
    [ -z "$(ls -A full)" ] || fail "$n ranks, $compression: left $(ls full) on the full disk"
  done
done
echo "ok: a full disk (a 60 KiB tmpfs) stops 1-3 ranks cleanly, nothing left behind"

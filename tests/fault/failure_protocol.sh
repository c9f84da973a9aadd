#!/usr/bin/env bash
# An error on some ranks only stops every rank in bounded time with that
# rank's message: a damaged zstd frame read by one rank (the others were in a
# collective call), and the last resort when the others never come.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 20000 --output good.zst --progress-every 0 2>/dev/null
# One flipped byte three quarters in: the frame some rank other than 0 reads (with 3 and 4 ranks).
"$PY" - <<'PY'
data = bytearray(open("good.zst", "rb").read())
data[len(data) * 3 // 4] ^= 0x55
open("damaged.zst", "wb").write(data)
PY
for n in 1 2 3 4; do
  bounded 120 1 "corrupt zstd data in frame" -- run_mpi "$n" score --input damaged.zst --output s$n.h5 --progress-every 0
  [ ! -e s$n.h5 ] && ! ls s$n.h5.partial* >/dev/null 2>&1 || fail "score on $n ranks left an output behind"
done
bounded 120 1 "corrupt zstd data in frame" -- run_mpi 3 sweep --input damaged.zst --score-col 3 --thresholds 0.5 \
  --output w.h5 --progress-every 0
bounded 120 1 "corrupt zstd data in frame" -- run_mpi 3 select --available damaged.zst \
  --representative good.zst --output c.h5 --progress-every 0
bounded 120 1 "corrupt zstd data in frame" -- run_mpi 3 score --input good.zst --reference damaged.zst \
  --output r.h5 --progress-every 0
echo "ok: a read error on some ranks stops every rank with its message"

# Last resort: rank 1 fails, rank 0 never reaches the failure check.
touch partial.h5
bounded 60 3 "the other ranks did not reach the failure check within 2 s" -- \
  "${TDCONE_MPIRUN:-mpirun}" -n 2 --oversubscribe "$BUILD/tests/tdcone_fault_probe" partial.h5 2
grep -q "rank 1: error: the probe failed on purpose" "$WORK/err.txt" || fail "the failing rank's message is missing"
[ ! -e partial.h5 ] || fail "the abort cleanup did not run"
echo "ok: a rank whose partners never come stops the job after its patience"

#!/usr/bin/env bash
# Select checkpoints a hostile user tampers with: 40 single-bit flips of a real
# checkpoint are each refused (exit 2, a message, the file untouched) or give
# the uninterrupted result, never a crash, a hang or another result; AVAIL in
# another order is refused; a --checkpoint that is not a checkpoint (a TSV, a
# directory, a pipe) is refused before any input is read and left as it is;
# a checkpoint written on 2 ranks resumes on 1-3 to the uninterrupted result.
source "$(dirname "$0")/lib.sh"

MPIRUN=(${TDCONE_MPIRUN:-mpirun} --oversubscribe)
"$TDCONE" synth --pairs 200000 --seed 7 --output "$WORK/avail.tsv"
"$TDCONE" synth --pairs 3000 --seed 7 --first-pair 9000000 --junk-fraction 0 --output "$WORK/repr.tsv"
args=(select --representative "$WORK/repr.tsv" --available "$WORK/avail.tsv" --side tgt)
timeout -k 5 600 "${MPIRUN[@]}" -n 2 "$TDCONE" "${args[@]}" --output "$WORK/whole.h5" >/dev/null 2>&1 \
  || fail "uninterrupted run (or a hang)"

# A real checkpoint: SIGUSR1 to mpirun once the selection shows progress.
"${MPIRUN[@]}" -n 2 "$TDCONE" "${args[@]}" --output "$WORK/cut.h5" --progress-every 0.5 >/dev/null 2>"$WORK/cut.err" &
launcher=$!
for ((tenths = 0; tenths < 3000; ++tenths)); do
  grep -q '^\[select\] [0-9.]*[kM]* lines' "$WORK/cut.err" && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.1
done
kill -USR1 "$launcher" 2>/dev/null || true
status=0
wait "$launcher" || status=$?
[ "$status" -eq 75 ] || fail "interrupted run exited $status, not 75: $(tail -3 "$WORK/cut.err")"
cp "$WORK/cut.h5.ckpt" "$WORK/good.ckpt"
echo "ok: $(grep -o "checkpoint of [0-9]* ranked lines" "$WORK/cut.err")"

# resume CHECKPOINT RANKS OUTPUT [OPTIONS...]: resumes from CHECKPOINT; its exit status, or a failed hang.
resume() {
  local checkpoint=$1 ranks=$2 output=$3; shift 3
  local rc=0
  timeout -k 5 300 "${MPIRUN[@]}" -n "$ranks" "$TDCONE" "${args[@]}" --output "$output" --checkpoint "$checkpoint" \
    --resume "$@" >/dev/null 2>"$WORK/resume.err" || rc=$?
  [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "hang: resuming from $checkpoint"
  return "$rc"
}

# 40 bit flips: 4 in the magic and version, 4 in the checksum, 32 over the fingerprint and the compressed state.
size=$(stat -c %s "$WORK/good.ckpt")
refused=0 identical=0
for bit in $("$PY" -c "
import random
r = random.Random(11)
size = $size
bits = [r.randrange(0, 20 * 8) for _ in range(4)] + [r.randrange(20 * 8, 36 * 8) for _ in range(4)]
bits += [r.randrange(36 * 8, size * 8) for _ in range(32)]
print(*bits)"); do
  "$PY" -c "
import sys
data = bytearray(open('$WORK/good.ckpt', 'rb').read())
data[$bit // 8] ^= 1 << ($bit % 8)
open('$WORK/flip.ckpt', 'wb').write(data)"
  cp "$WORK/flip.ckpt" "$WORK/flip.copy"
  rc=0
  resume "$WORK/flip.ckpt" 2 "$WORK/flip.h5" || rc=$?
  if [ "$rc" -eq 2 ]; then
    grep -q "checkpoint" "$WORK/resume.err" || fail "bit $bit: exit 2 without a message about the checkpoint: $(cat "$WORK/resume.err")"
    cmp -s "$WORK/flip.ckpt" "$WORK/flip.copy" || fail "bit $bit: a refused checkpoint was changed"
    refused=$((refused + 1))
  elif [ "$rc" -eq 0 ]; then
    "$PY" "$HERE/compare_h5.py" "$WORK/whole.h5" "$WORK/flip.h5" || fail "bit $bit: accepted, and the result differs"
    rm -f "$WORK/flip.h5"
    identical=$((identical + 1))
  else
    fail "bit $bit: exit $rc (a crash?): $(tail -5 "$WORK/resume.err")"
  fi
done
echo "ok: 40 bit flips of a $size-byte checkpoint: $refused refused, $identical identical results"

# The same AVAIL lines, two of them swapped: another selection.
"$PY" -c "
lines = open('$WORK/avail.tsv').readlines()
lines[10], lines[150000] = lines[150000], lines[10]
open('$WORK/swapped.tsv', 'w').writelines(lines)"
cp "$WORK/good.ckpt" "$WORK/swapped.ckpt"
rc=0
resume "$WORK/swapped.ckpt" 2 "$WORK/swapped.h5" --available "$WORK/swapped.tsv" || rc=$?
[ "$rc" -eq 2 ] || fail "reordered AVAIL: exit $rc, not 2"
grep -q "belongs to another selection: its --available lines differ" "$WORK/resume.err" \
  || fail "reordered AVAIL: $(cat "$WORK/resume.err")"
cmp -s "$WORK/swapped.ckpt" "$WORK/good.ckpt" || fail "reordered AVAIL: the checkpoint was changed"
echo "ok: reordered AVAIL refused"

# Not checkpoints: refused before any input is read (AVAIL does not even exist), and left as they are.
cp "$WORK/repr.tsv" "$WORK/existing.tsv"
mkdir "$WORK/folder" && touch "$WORK/folder/keep"
mkfifo "$WORK/pipe"
missing=(select --representative "$WORK/repr.tsv" --available "$WORK/no-such.tsv" --output "$WORK/never.h5")
for resuming in "" --resume; do
  bounded 120 2 "existing.tsv is not a tdcone checkpoint" -- \
    "${MPIRUN[@]}" -n 2 "$TDCONE" "${missing[@]}" --checkpoint "$WORK/existing.tsv" $resuming
  bounded 120 2 "folder is a directory or special file" -- \
    "${MPIRUN[@]}" -n 2 "$TDCONE" "${missing[@]}" --checkpoint "$WORK/folder" $resuming
  bounded 120 2 "pipe is a directory or special file" -- \
    "${MPIRUN[@]}" -n 2 "$TDCONE" "${missing[@]}" --checkpoint "$WORK/pipe" $resuming
done
cmp -s "$WORK/existing.tsv" "$WORK/repr.tsv" || fail "existing.tsv changed"
[ -f "$WORK/folder/keep" ] && [ -p "$WORK/pipe" ] || fail "the directory or the pipe changed"
# A whole run with a TSV as --checkpoint is refused too (the TSV used to be deleted at its end).
bounded 120 2 "not a tdcone checkpoint" -- \
  "$TDCONE" "${args[@]}" --output "$WORK/never.h5" --checkpoint "$WORK/existing.tsv"
cmp -s "$WORK/existing.tsv" "$WORK/repr.tsv" || fail "existing.tsv changed"
[ ! -e "$WORK/never.h5" ] || fail "output written despite a refused --checkpoint"
echo "ok: a TSV, a directory and a pipe as --checkpoint are refused and left as they are"

# The 2-rank checkpoint resumes on 1-3 ranks to the uninterrupted result, and is removed when done.
for n in 1 2 3; do
  cp "$WORK/good.ckpt" "$WORK/resume-$n.ckpt"
  resume "$WORK/resume-$n.ckpt" "$n" "$WORK/resume-$n.h5" || fail "resume on $n ranks: $(tail -5 "$WORK/resume.err")"
  "$PY" "$HERE/compare_h5.py" "$WORK/whole.h5" "$WORK/resume-$n.h5" || fail "resumed on $n ranks: the result differs"
  [ ! -e "$WORK/resume-$n.ckpt" ] || fail "checkpoint left after the resumed run on $n ranks"
done
echo "ok: resumed on 1-3 ranks to the uninterrupted result"

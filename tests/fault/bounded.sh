#!/usr/bin/env bash
# Bounded everything: a --where of any length is refused in a moment with a
# message naming its length and the limit (export, and select and balance on
# every rank: no rank dies of a signal); a result's tdcone_version of any
# length is read without a crash; synth --first-pair has a bound that runs in
# seconds; synth writes under a temporary name, so a killed synth leaves no
# cut-off corpus and --force keeps the old file until the new one is whole; a
# synth .zst carries content checksums, so a flipped byte is an error.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 600 --seed 3 --labels --junk-fraction 0 --output c.tsv 2>/dev/null || fail "synth"
"$TDCONE" synth --pairs 200 --seed 3 --first-pair 900000 --junk-fraction 0 --output repr.tsv 2>/dev/null \
  || fail "synth repr"
"$TDCONE" score --input c.tsv --output r.h5 >/dev/null 2>&1 || fail "score"

# --where: 30,000 and 100,000 characters, a long column name, many leading spaces.
ones=$(printf '1%.0s' $(seq 30000))
letters=$(printf 'a%.0s' $(seq 30000))
spaces=$(printf ' %.0s' $(seq 30000))
long_text="tdcone=='$(printf 'x%.0s' $(seq 100000))'"
conditions=("tdcone<$ones" "${letters}<1" "${spaces}tdcone<1" "$long_text")
limit="--where: a condition has at most 4096 characters; this one has"
no_signal() {
  ! grep -qiE "signal 11|segmentation|signal: *11|core dumped" "$WORK/err.txt" || fail "$1: a rank died: $(head -c 600 "$WORK/err.txt")"
}
for condition in "${conditions[@]}"; do
  bounded 30 2 "$limit ${#condition} " -- "$TDCONE" export r.h5 --where "$condition" --output x.tsv
  no_signal "export --where of ${#condition} characters"
  [ "$(wc -c <"$WORK/err.txt")" -lt 2000 ] || fail "the refusal repeats the whole condition"
done
[ ! -e x.tsv ] || fail "a refused export wrote x.tsv"
at_limit="$(printf ' %.0s' $(seq 4088))tdcone<2"
"$TDCONE" export r.h5 --where "$at_limit" --output limit.tsv >/dev/null 2>&1 || fail "a 4096-character --where refused"
[ "$(wc -l <limit.tsv)" -gt 500 ] || fail "a 4096-character --where chose $(wc -l <limit.tsv) rows"
echo "ok: export refuses a --where over 4096 characters (30,000 and 100,000 long, a long column name, leading spaces)"

for n in 2 3; do
  for condition in "tdcone<$ones" "$long_text"; do
    bounded 60 2 "$limit ${#condition} " -- run_mpi "$n" select --representative repr.tsv --available c.tsv \
      --where "$condition" --where-result r.h5 --output s.h5
    no_signal "select --where on $n ranks"
    padded="$spaces$condition"
    bounded 60 2 "$limit ${#padded} " -- run_mpi "$n" balance --input c.tsv --label-cols 5,6 \
      --label-buckets col5=0.5 --where "$padded" --where-result r.h5 --output b.h5
    no_signal "balance --where on $n ranks"
  done
done
[ ! -e s.h5 ] && [ ! -e b.h5 ] || fail "a refused --where left an output"
echo "ok: select and balance --where over 4096 characters stop every rank with the message (2 and 3 ranks)"

# A result file's tdcone_version of any length is read without recursion.
"$PY" - <<'PY'
import shutil
import h5py
for name, version in (("long-suffix.h5", "0.1-" + "x" * 100000), ("many-parts.h5", "7" + ".1" * 50000)):
    shutil.copy("r.h5", name)
    with h5py.File(name, "a") as f:
        f.attrs["tdcone_version"] = version
PY
rc=0
timeout -k 5 30 "$TDCONE" info long-suffix.h5 >/dev/null 2>info.err || rc=$?
[ "$rc" = 0 ] || fail "info of a result with a 100,004-character tdcone_version: exit $rc ($(head -c 300 info.err))"
bounded 30 1 "many-parts.h5 was written by tdcone 7.1.1.1.*\.\.\., a newer major version" -- "$TDCONE" info many-parts.h5
echo "ok: a tdcone_version of 100,000 characters is read, and quoted in part"

# --first-pair: the largest accepted value in seconds, a larger one refused naming the bound.
bounded 30 2 "0 to 1000000000" -- "$TDCONE" synth --pairs 1 --first-pair 100000000000 --output far.tsv
bounded 90 0 "" -- "$TDCONE" synth --pairs 2 --first-pair 1000000000 --output far.tsv
[ "$(wc -l <far.tsv)" = 2 ] && grep -q "syn-1-1000000001" far.tsv || fail "--first-pair 1000000000: $(cat far.tsv)"
echo "ok: synth --first-pair is bounded (1,000,000,000 runs in seconds; more is refused)"

# synth killed while writing: nothing under the final name (SIGTERM: no
# temporary file either; SIGKILL: a temporary file may stay), and with
# --force the old file stays whole. wait_writing FILE SIZE: until FILE has
# bytes and not SIZE of them, or a temporary file beside it has bytes.
wait_writing() {
  local before=$2
  for _ in $(seq 600); do
    for f in "$1" "$1".partial-*; do
      [ -f "$f" ] && [ "$f" != "$1" -o "$(stat -c %s "$f")" != "$before" ] && [ -s "$f" ] && return 0
    done
    sleep 0.05
  done
  fail "synth did not start writing $1"
}
pid=""
trap 'if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT  # no writer outlives a failure
for sig in TERM KILL; do
  rm -f big.tsv big.tsv.*
  "$TDCONE" synth --pairs 30000000 --output big.tsv 2>/dev/null &
  pid=$!
  wait_writing big.tsv 0
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null || true
  [ ! -e big.tsv ] || fail "SIG$sig during synth left big.tsv of $(stat -c %s big.tsv) bytes under the final name"
  if [ "$sig" = TERM ]; then
    leftover=$(ls big.tsv.* 2>/dev/null || true)
    [ -z "$leftover" ] || fail "SIGTERM during synth left $leftover"
  fi

  "$TDCONE" synth --pairs 1000 --seed 9 --output old.tsv --force 2>/dev/null || fail "synth old.tsv"
  sum=$(md5sum <old.tsv) size=$(stat -c %s old.tsv)
  "$TDCONE" synth --pairs 30000000 --output old.tsv --force 2>/dev/null &
  pid=$!
  wait_writing old.tsv "$size"
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null || true
  [ "$(md5sum <old.tsv)" = "$sum" ] || fail "SIG$sig during synth --force changed old.tsv ($(stat -c %s old.tsv) bytes)"
  rm -f old.tsv.partial-* old.tsv.lock big.tsv.partial-* big.tsv.lock
done
"$TDCONE" synth --pairs 300 --output whole.tsv 2>/dev/null || fail "synth whole.tsv"
[ "$(wc -l <whole.tsv)" = 300 ] && [ -z "$(ls whole.tsv.* 2>/dev/null)" ] || fail "synth left $(ls whole.tsv*)"
echo "ok: a killed synth leaves no cut-off corpus, and --force keeps the old file until the new one is whole"

# zstd checksums: each frame has one; a byte flipped where a reader without
# checksums decodes silently is an error naming the file.
"$TDCONE" synth --pairs 15000 --seed 4 --output z.tsv.zst 2>/dev/null || fail "synth z.tsv.zst"
"$TDCONE" synth --pairs 15000 --seed 4 --output z.tsv 2>/dev/null || fail "synth z.tsv"
zstd -dcq z.tsv.zst | cmp -s - z.tsv || fail "z.tsv.zst does not hold the text of z.tsv"
"$PY" - z.tsv.zst flipped.tsv.zst z.tsv <<'PY' || fail "a frame without a checksum, or no byte to flip"
import ctypes, subprocess, sys
zstd = ctypes.CDLL("libzstd.so.1")
zstd.ZSTD_findFrameCompressedSize.restype = ctypes.c_size_t
zstd.ZSTD_findFrameCompressedSize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
data, text = open(sys.argv[1], "rb").read(), open(sys.argv[3], "rb").read()
at, frames = 0, 0
while at < len(data):  # each frame's header: its Content_Checksum_flag
    assert data[at + 4] & 0x04, f"the frame at byte {at} has no content checksum"
    at += zstd.ZSTD_findFrameCompressedSize(data[at:], len(data) - at)
    frames += 1
assert at == len(data) and frames >= 2, (at, len(data), frames)
for offset in range(len(data) // 2, len(data) - 8, 7):
    flipped = bytearray(data)
    flipped[offset] ^= 0x10
    open(sys.argv[2], "wb").write(flipped)
    unchecked = subprocess.run(["zstd", "-dcq", "--no-check", sys.argv[2]], capture_output=True)
    if unchecked.returncode == 0 and unchecked.stdout != text:
        sys.exit(0)  # a reader that skips the checksum reads other text, silently
sys.exit("no byte to flip that decodes without the checksum")
PY
bounded 30 1 "flipped.tsv.zst: corrupt zstd data.*checksum" -- "$TDCONE" score --input flipped.tsv.zst --output f.h5
[ ! -e f.h5 ] || fail "a corrupt input gave f.h5"
echo "ok: synth .zst frames carry checksums; a flipped byte is an error naming the file"

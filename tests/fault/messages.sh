#!/usr/bin/env bash
# Messages that name the thing and the fix: a size without its unit, a
# mistyped command, another command's option, a file of the wrong kind, an
# output that will not be what its name says, lines that are blank or Latin-1.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 40 --output c.tsv 2>/dev/null || fail "synth"

# --memory: units in any case, with B or iB; a bare number that small lost its unit.
bounded 20 2 "tdcone: error: --memory: 10 is 10 bytes; did you mean 10M or 10G?" -- \
  "$TDCONE" score --input c.tsv --output x.h5 --memory 10
for size in 2GB 2GiB 2gib 512MB 1t; do
  "$TDCONE" score --input c.tsv --output m.h5 --force --memory $size >/dev/null 2>"$WORK/err.txt" \
    || fail "--memory $size: $(cat "$WORK/err.txt")"
done
echo "ok: --memory takes 2GB, 2GiB, 1t; a bare 10 asks whether 10G was meant"

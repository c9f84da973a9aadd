#!/usr/bin/env bash
# The same corpus as plain text, zstd, gzip (one member and several), xz and
# bzip2 scores bitwise alike on 1-4 ranks; a truncated gzip, xz or bzip2 file
# stops every rank with exit 1 and a message naming the file, in bounded time,
# and leaves no output behind.
source "$(dirname "$0")/../fault/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 30000 --seed 5 --vocabulary 4000 --junk-fraction 0.01 --output c.tsv --progress-every 0 2>/dev/null
zstd -q -19 -k c.tsv -o c.tsv.zst
gzip -k c.tsv
xz -k c.tsv
bzip2 -k c.tsv
# Several members and streams, cut mid-line: as zcat / xzcat / bzcat read them.
head -c 700001 c.tsv > part1
tail -c +700002 c.tsv > part2
{ gzip -c part1; gzip -c </dev/null; gzip -c part2; } > multi.gz
{ xz -c part1; xz -c part2; } > multi.xz
{ bzip2 -c part1; bzip2 -c part2; } > multi.bz2
cmp <(zcat multi.gz) c.tsv && cmp <(xzcat multi.xz) c.tsv && cmp <(bzcat multi.bz2) c.tsv || fail "the test's own files"

for n in 1 2 3 4; do
  run_mpi "$n" score --input c.tsv --score-col 3 --id-col 4 --output plain-$n.h5 --progress-every 0 >/dev/null 2>plain-$n.log \
    || { cat plain-$n.log; fail "plain on $n ranks"; }
  "$PY" "$HERE/compare_h5.py" plain-1.h5 plain-$n.h5 || fail "plain: $n ranks differ from 1"
  for f in c.tsv.zst c.tsv.gz c.tsv.xz c.tsv.bz2 multi.gz multi.xz multi.bz2; do
    run_mpi "$n" score --input "$f" --score-col 3 --id-col 4 --output "$f-$n.h5" --progress-every 0 >/dev/null 2>"$f-$n.log" \
      || { cat "$f-$n.log"; fail "$f on $n ranks"; }
    "$PY" "$HERE/compare_h5.py" plain-1.h5 "$f-$n.h5" || fail "$f on $n ranks differs from the plain file"
  done
done
echo "ok: plain, zstd, gzip, xz, bzip2 and concatenated members score alike on 1-4 ranks"

# A compressed file among plain ones keeps its lines in place (pair_id), whichever rank reads it.
for n in 1 3; do
  run_mpi "$n" score --input part1 c.tsv.gz part2 --output mixed-$n.h5 --progress-every 0 >/dev/null 2>mixed.log \
    || { cat mixed.log; fail "mixed files on $n ranks"; }
done
run_mpi 2 score --input part1 c.tsv part2 --output mixed-plain.h5 --progress-every 0 >/dev/null 2>mixed.log || fail "mixed plain"
"$PY" "$HERE/compare_h5.py" mixed-plain.h5 mixed-1.h5 || fail "mixed: a gzip file among plain ones, 1 rank"
"$PY" "$HERE/compare_h5.py" mixed-plain.h5 mixed-3.h5 || fail "mixed: a gzip file among plain ones, 3 ranks"
echo "ok: a gzip file among plain files keeps its place"

# Truncated: the rank reading it fails, all stop with its message, no output.
for f in c.tsv.gz c.tsv.xz c.tsv.bz2; do
  ext=${f##*.}
  head -c $(( $(stat -c %s "$f") * 2 / 3 )) "$f" > "cut.$ext"
  name=$(case $ext in gz) echo gzip;; bz2) echo bzip2;; *) echo "$ext";; esac)
  for n in 1 2 3 4; do
    bounded 120 1 "cut.$ext: corrupt $name data" -- run_mpi "$n" score --input part1 "cut.$ext" --output t.h5 --progress-every 0
    [ ! -e t.h5 ] && ! ls t.h5.partial* >/dev/null 2>&1 || fail "truncated $ext on $n ranks left an output behind"
  done
done
bounded 120 1 "cut.gz: corrupt gzip data" -- run_mpi 2 score --input c.tsv --reference cut.gz --output t.h5 --progress-every 0
[ ! -e t.h5 ] || fail "a truncated reference left an output behind"
echo "ok: truncated gzip, xz and bzip2 input stops every rank with exit 1, naming the file"

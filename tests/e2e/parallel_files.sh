#!/usr/bin/env bash
# A parallel two-file corpus (--src-file/--tgt-file, paths or globs, any
# compression) scores on 1-4 ranks bitwise like the pasted TSV on one rank;
# line-count mismatches, --input with --src-file, and unmatched file lists are
# refused with messages naming what is wrong; the recorded config re-runs it.
source "$(dirname "$0")/../fault/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 24000 --seed 8 --vocabulary 4000 --junk-fraction 0.01 --output c.tsv --progress-every 0 2>/dev/null
cut -f1 c.tsv > src.txt
cut -f2 c.tsv > tgt.txt
printf 'caf\xc3\xa9 ok\nbroken \xff here\n' >> src.txt   # a bad src line, then...
printf 'fine\nalso fine\n' >> tgt.txt
printf 'good\n' >> src.txt
printf 'bad \xfe tgt\n' >> tgt.txt                       # ...a bad tgt line
paste src.txt tgt.txt > pasted.tsv
run_mpi 1 score --input pasted.tsv --output pasted.h5 --progress-every 0 >/dev/null 2>pasted.log || { cat pasted.log; fail "pasted"; }
same() { "$PY" "$HERE/compare_h5.py" pasted.h5 "$1" || fail "$2 differs from the pasted TSV"; }

# Three files a side (globs, sorted), the tgt side compressed three ways (gzip, multi-frame zstd, xz).
split -d -l 9000 src.txt s.
split -d -l 9000 tgt.txt t.
gzip -c t.00 > t.00.gz
split -l 500 t.01 t01chunk. && for f in t01chunk.*; do zstd -q -c "$f"; done > t.01.zst
xz -c t.02 > t.02.xz
mkdir tz && mv t.00.gz t.01.zst t.02.xz tz/

for n in 1 2 3 4; do
  run_mpi "$n" score --src-file src.txt --tgt-file tgt.txt --output one-$n.h5 --progress-every 0 >/dev/null 2>one-$n.log \
    || { cat one-$n.log; fail "one file a side on $n ranks"; }
  same one-$n.h5 "one file a side on $n ranks"
  run_mpi "$n" score --src-file 's.0*' --tgt-file 'tz/t.0*' --output globs-$n.h5 --progress-every 0 >/dev/null 2>globs-$n.log \
    || { cat globs-$n.log; fail "globs on $n ranks"; }
  same globs-$n.h5 "three compressed tgt files (globs) on $n ranks"
done
grep -q "src.txt:.*invalid UTF-8" one-3.log && grep -q "tgt.txt:.*invalid UTF-8" one-3.log \
  || fail "the bad lines are not reported in the file of their side: $(cat one-3.log)"
echo "ok: --src-file/--tgt-file score like the pasted TSV on 1-4 ranks (plain, gzip, zstd, xz; globs)"

# A gzip tgt beside a plain src, with --reverse and --shards by file.
gzip -k tgt.txt
run_mpi 1 score --input pasted.tsv --reverse --shards 2 --shard-by block --output rev-pasted.h5 --progress-every 0 >/dev/null 2>&1
run_mpi 3 score --src-file src.txt --tgt-file tgt.txt.gz --reverse --shards 2 --shard-by block --output rev.h5 \
  --progress-every 0 >/dev/null 2>rev.log || { cat rev.log; fail "gzip tgt, --reverse"; }
"$PY" "$HERE/compare_h5.py" rev-pasted.h5 rev.h5 || fail "gzip tgt with --reverse and shards differs from the pasted TSV"
echo "ok: a gzip tgt file with a plain src file, --reverse and shards"

# Export joins the text of a two-file run like that of the pasted TSV: the
# same JSON lines (a pair's raw line is its two lines pasted), the same
# --lines-only bytes; every file is recorded with a fingerprint that does not
# depend on the rank count, and a changed tgt file is refused.
"$TDCONE" export pasted.h5 --to jsonl --text --output pasted.jsonl || fail "export of the pasted run"
for n in 1 4; do
  "$TDCONE" export globs-$n.h5 --to jsonl --text --output globs-$n.jsonl || fail "export --text of the globs on $n ranks"
  cmp -s pasted.jsonl globs-$n.jsonl || fail "export --text of a two-file run on $n ranks differs from the pasted TSV's"
done
"$TDCONE" export globs-4.h5 --lines-only | cmp -s - pasted.tsv || fail "--lines-only of a two-file run is not the pasted TSV"
"$PY" - globs-1.h5 globs-4.h5 <<'PY' || fail "recorded inputs of the two-file runs"
import sys, h5py
a, b = (h5py.File(f, "r")["inputs"] for f in sys.argv[1:])
assert len(a["path"]) == 6, a["path"][()]
for key in ("size", "lines", "fingerprint"):
    assert list(a[key]) == list(b[key]) and len(a[key]) == 6, (key, a[key][()], b[key][()])
PY
cp tz/t.02.xz saved.xz && xz -dc saved.xz | sed '1s/^./#/' | xz -c > tz/t.02.xz
bounded 60 2 "t.02.xz is not the input" -- "$TDCONE" export globs-4.h5 --text --output changed.tsv
mv saved.xz tz/t.02.xz
echo "ok: export --text and --lines-only of a two-file run equal the pasted TSV's; inputs checked"

# The recorded config names the files: --config re-runs the same corpus.
"$PY" - <<'PY'
import h5py
config = h5py.File("one-2.h5", "r").attrs["config"]
open("run.toml", "w").write(config.decode() if isinstance(config, bytes) else config)
PY
grep -q "^src-file = \[ 'src.txt' \]" run.toml && grep -q "^tgt-file = \[ 'tgt.txt' \]" run.toml || fail "config lacks src-file/tgt-file: $(cat run.toml)"
run_mpi 2 score --config run.toml --output again.h5 --progress-every 0 >/dev/null 2>again.log || { cat again.log; fail "--config of the recorded run"; }
same again.h5 "the run from the recorded config"
echo "ok: the recorded config holds src-file and tgt-file"

# Different line counts: exit 1 naming both files and both counts, on any rank count, no output.
head -n 23000 tgt.txt > short.txt
for n in 1 3; do
  bounded 120 1 "src.txt has 24003 line(s) but its --tgt-file short.txt has 23000" -- \
    run_mpi "$n" score --src-file src.txt --tgt-file short.txt --output bad.h5 --progress-every 0
  [ ! -e bad.h5 ] || fail "a line-count mismatch left an output behind"
done
bounded 120 1 "s.01 has 9000 line(s) but its --tgt-file t.02 has 6003" -- \
  run_mpi 2 score --src-file s.00 s.01 --tgt-file t.00 t.02 --output bad.h5 --progress-every 0
echo "ok: different line counts name both files and counts"

# Usage errors (exit 2): both forms, neither, one side only, unmatched file lists, options that do not apply.
expect_failure 2 "--input and --src-file/--tgt-file both name a corpus" -- \
  "$TDCONE" score --input pasted.tsv --src-file src.txt --tgt-file tgt.txt --output u.h5
expect_failure 2 "no corpus: give --input" -- "$TDCONE" score --output u.h5
expect_failure 2 "--src-file needs --tgt-file" -- "$TDCONE" score --src-file src.txt --output u.h5
expect_failure 2 "--src-file names 3 file(s) and --tgt-file 2" -- \
  "$TDCONE" score --src-file 's.0*' --tgt-file t.00 t.01 --output u.h5
expect_failure 2 "--score-col does not apply to --src-file" -- \
  "$TDCONE" score --src-file src.txt --tgt-file tgt.txt --score-col 3 --output u.h5
expect_failure 2 "must be regular files" -- "$TDCONE" score --src-file src.txt --tgt-file <(cat tgt.txt) --output u.h5
expect_failure 2 "tdcone sweep needs a score, and --src-file/--tgt-file have none" -- \
  "$TDCONE" sweep --src-file src.txt --tgt-file tgt.txt --thresholds 0.5 --output u.h5
[ ! -e u.h5 ] || fail "a usage error left an output behind"
echo "ok: usage errors of --src-file/--tgt-file"

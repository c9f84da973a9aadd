#!/usr/bin/env bash
# A reference in two sets of one-sided files (--reference-src-file/
# --reference-tgt-file: globs, compression) gives bitwise the figures of
# --reference on the pasted TSV, on 1-4 ranks, for score and sweep and for a
# corpus given either way; misuse is refused, and a one-sided file given as
# --input or --reference stops with a hint to the two-file options.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 6000 --seed 41 --vocabulary 3000 --output corpus.tsv 2>/dev/null
"$TDCONE" synth --pairs 900 --seed 42 --vocabulary 3000 --junk-fraction 0 --output ref.tsv 2>/dev/null
cut -f1 ref.tsv | split -d -l 400 - ref-src.
cut -f2 ref.tsv | split -d -l 400 - ref-tgt.
gzip ref-tgt.01
cut -f1,2 ref.tsv >pasted.tsv  # the reference as two columns: what paste of the sides gives
cut -f1 corpus.tsv >src.txt && cut -f2 corpus.tsv >tgt.txt
TWO_FILES=(--reference-src-file 'ref-src.*' --reference-tgt-file 'ref-tgt.*')

run_mpi 1 score --input corpus.tsv --reference pasted.tsv --output tsv.h5 >/dev/null 2>&1 || fail "--reference"
check_ranks files score --input corpus.tsv "${TWO_FILES[@]}"
for n in 2 4; do
  "$PY" "$HERE/compare_h5.py" tsv.h5 "files-$n.h5" || fail "--reference-src-file/--reference-tgt-file differ from --reference on $n ranks"
done
run_mpi 2 score --src-file src.txt --tgt-file tgt.txt --reference pasted.tsv --output sides-tsv.h5 >/dev/null 2>&1 \
  || fail "two-file corpus, --reference"
run_mpi 3 score --src-file src.txt --tgt-file tgt.txt "${TWO_FILES[@]}" --output sides-files.h5 >/dev/null 2>&1 \
  || fail "two-file corpus, two-file reference"
"$PY" "$HERE/compare_h5.py" sides-tsv.h5 sides-files.h5 || fail "two-file corpus: the two-file reference differs"
awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3 }' ref.tsv >scored-ref.tsv  # sweep reads a reference with its score column
run_mpi 2 sweep --input corpus.tsv --score-col 3 --thresholds 0.5 --reference scored-ref.tsv --output sweep-tsv.h5 >/dev/null 2>&1 \
  || fail "sweep --reference"
run_mpi 2 sweep --input corpus.tsv --score-col 3 --thresholds 0.5 "${TWO_FILES[@]}" --output sweep-files.h5 >/dev/null 2>&1 \
  || fail "sweep with a two-file reference"
"$PY" "$HERE/compare_h5.py" sweep-tsv.h5 sweep-files.h5 || fail "sweep: the two-file reference differs"
"$TDCONE" info files-1.h5 >info.txt
grep -q "^    reference-src-file = \[ 'ref-src\.\*' \]$" info.txt && grep -q "^    reference-tgt-file = \[ 'ref-tgt\.\*' \]$" info.txt \
  || fail "the run's config does not record the reference files: $(grep reference info.txt)"
echo "ok: a two-file reference scores as --reference on the pasted TSV (score, sweep; 1-4 ranks; recorded in the config)"

expect_failure 2 "both name a reference" -- "$TDCONE" score --input corpus.tsv --reference pasted.tsv "${TWO_FILES[@]}" --output x.h5
expect_failure 2 "needs --reference-tgt-file" -- "$TDCONE" score --input corpus.tsv --reference-src-file ref-src.00 --output x.h5
expect_failure 2 "needs --reference-src-file" -- "$TDCONE" score --input corpus.tsv --reference-tgt-file ref-tgt.00 --output x.h5
expect_failure 1 "ref-src.02 has 100 line(s) but its .*ref-tgt.00 has 400" -- \
  "$TDCONE" score --input corpus.tsv --reference-src-file ref-src.02 --reference-tgt-file ref-tgt.00 --output x.h5
echo "ok: --reference with the two-file form, one side alone, and unequal line counts are refused"

# One-sided files where pairs are expected: the run stops with a hint.
expect_failure 1 "is $WORK/ref-src.00 a one-sided file (one sentence a line)? for parallel files use --reference-src-file/--reference-tgt-file" -- \
  "$TDCONE" score --input corpus.tsv --reference "$WORK/ref-src.00" --output x.h5
expect_failure 1 "? for parallel files use --src-file/--tgt-file" -- "$TDCONE" score --input src.txt --output x.h5
mkdir plays && cp src.txt plays/a_modern.txt && cp tgt.txt plays/a_original.txt
expect_failure 1 "is plays/a_modern.txt a one-sided file" -- "$TDCONE" score --input 'plays/*' --output x.h5
expect_failure 1 "missing column 3" -- "$TDCONE" score --input corpus.tsv --reference pasted.tsv --score-col 3 --output x.h5
grep -q "one-sided" "$WORK/err.txt" && fail "a missing third column is no sign of a one-sided file"
echo "ok: a one-sided --input or --reference gets the hint"

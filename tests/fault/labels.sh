#!/usr/bin/env bash
# Bad labels and label options: a clear message naming the file, line or
# option; lines without a usable label flagged 16 and kept in every table;
# no output (and no .partial) when a run stops; never a hang.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 2000 --seed 31 --vocabulary 1500 --junk-fraction 0 --output "$WORK/raw.tsv" 2>/dev/null
awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3, $4, (NR % 5) / 5, (NR % 2 ? "formal" : "casual") }' "$WORK/raw.tsv" >"$WORK/c.tsv"
LABELS=(--label-cols 5,6 --label-names formality,register --label-buckets formality=0.5)
no_output() { [ ! -e "$WORK/o.h5" ] && [ -z "$(ls "$WORK" | grep partial || true)" ] || fail "a stopped run left $(ls "$WORK")"; }

# A label column missing on some lines: flagged 16, scored, listed with file:line; nothing lost.
awk -F'\t' 'BEGIN { OFS = "\t" } NR % 100 == 7 { print $1, $2, $3, $4, $5; next } { print }' "$WORK/c.tsv" >"$WORK/missing.tsv"
bounded 60 0 "missing.tsv:7: missing label column 6" -- run_mpi 3 balance --input "$WORK/missing.tsv" --score-col 3 "${LABELS[@]}" \
  --rank-by random --output "$WORK/m.h5"
grep -q "20 line(s) of .*missing.tsv (the corpus, --input) have no usable label: flagged 16" "$WORK/err.txt" || fail "count of unlabelled lines: $(cat "$WORK/err.txt")"
"$PY" - "$WORK/m.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    b = f["balance"]
    assert len(b["pair_id"]) == 2000                       # every line has its row
    flags, comb, kept = b["flags"][()], b["combination"].asstr()[()], b["kept"][()]
    assert ((flags & 16) != 0).sum() == 20 and (comb[(flags & 16) != 0] == "").all() and kept[(flags & 16) != 0].sum() == 0
    assert f["combinations/before"][()].sum() == 1980
PY
echo "ok: a missing label column flags 16 and keeps the line"

# Not a number under --label-buckets: flagged the same way, the value quoted.
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 11 { $5 = "abc" } { print }' "$WORK/c.tsv" >"$WORK/nonnumeric.tsv"
bounded 60 0 "nonnumeric.tsv:11: label formality: 'abc' is not a number (--label-buckets)" -- \
  run_mpi 2 score --input "$WORK/nonnumeric.tsv" --score-col 3 "${LABELS[@]}" --by-label --output "$WORK/n.h5"
# ... and a categorical label with words is fine without buckets.
timeout 60 "$TDCONE" score --input "$WORK/nonnumeric.tsv" --score-col 3 --label-cols 6 --by-label --quiet \
  --output "$WORK/n2.h5" >/dev/null || fail "a word label without buckets"

# A label with one value: a warning, the run goes on.
awk -F'\t' 'BEGIN { OFS = "\t" } { $6 = "formal"; print }' "$WORK/c.tsv" >"$WORK/one.tsv"
bounded 60 0 "label register has one value ('formal') on all 2000 labelled lines: it splits nothing" -- \
  run_mpi 2 balance --input "$WORK/one.tsv" --score-col 3 "${LABELS[@]}" --output "$WORK/one.h5"

# No usable label at all, or too many lines without one: exit 1, no output.
bounded 60 1 "c.tsv (the corpus, --input): no usable label: none of the 2000 usable lines has one (first: .*c.tsv:1: missing label column 9" -- \
  run_mpi 3 balance --input "$WORK/c.tsv" --score-col 3 --label-cols 9 --output "$WORK/o.h5"
no_output
awk -F'\t' 'BEGIN { OFS = "\t" } NR % 3 { $5 = "x" } { print }' "$WORK/c.tsv" >"$WORK/mostly-bad.tsv"
bounded 60 1 "usable lines have no usable label, more than --max-bad-fraction 0.5" -- \
  run_mpi 2 score --input "$WORK/mostly-bad.tsv" --score-col 3 "${LABELS[@]}" --by-label --output "$WORK/o.h5"
no_output

# Options: each mistake named, before any reading.
bounded 30 2 "--by-label needs --label-cols" -- "$TDCONE" score --input "$WORK/c.tsv" --by-label --output "$WORK/o.h5"
bounded 30 2 "labels are read for --by-label" -- "$TDCONE" score --input "$WORK/c.tsv" --label-cols 5 --output "$WORK/o.h5"
bounded 30 2 "balance needs labels" -- run_mpi 2 balance --input "$WORK/c.tsv" --output "$WORK/o.h5"
bounded 30 2 "--label-cols '5,x': 'x' is not a column number" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 5,x --output "$WORK/o.h5"
bounded 30 2 "--label-cols '0': '0' is not a column number" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 0 --output "$WORK/o.h5"
bounded 30 2 "--label-names gives 1 names for 2 labels" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 5,6 --label-names a --output "$WORK/o.h5"
bounded 30 2 "label 'a' is given twice" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 5,6 --label-names a,a --output "$WORK/o.h5"
bounded 30 2 "no label named 'tone' (the labels: formality, register)" -- "$TDCONE" balance --input "$WORK/c.tsv" \
  --label-cols 5,6 --label-names formality,register --label-buckets tone=0.5 --output "$WORK/o.h5"
bounded 30 2 "the cuts must increase" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 5 --label-buckets 5=0.5,0.2 --output "$WORK/o.h5"
bounded 30 2 "--label-fields is for --format jsonl" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-fields a --output "$WORK/o.h5"
bounded 30 2 "--size is the total of --mode skewed" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 6 --size 10 --output "$WORK/o.h5"
bounded 30 2 "--rank-by cynical takes the ranks of a select result" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 6 \
  --rank-by cynical --output "$WORK/o.h5"
bounded 60 2 "--size 5000 is more than the 2000 labelled lines" -- run_mpi 2 balance --input "$WORK/c.tsv" --label-cols 6 \
  --mode skewed --size 5000 --output "$WORK/o.h5"
bounded 30 2 "--min-share" -- "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 6 --min-share 1.5 --output "$WORK/o.h5"
bounded 30 2 "do not apply to --src-file/--tgt-file" -- "$TDCONE" balance --src-file "$WORK/c.tsv" --tgt-file "$WORK/c.tsv" \
  --label-cols 6 --output "$WORK/o.h5"
timeout 60 "$TDCONE" balance --input "$WORK/c.tsv" --label-cols 6 --rank-by random --quiet --output "$WORK/random.h5" >/dev/null \
  || fail "balance --rank-by random"
bounded 60 1 "--rank-by tdcone: .*random.h5 has no /pairs table (tdcone score writes it)" -- run_mpi 2 balance --input "$WORK/c.tsv" --label-cols 6 --ranking "$WORK/random.h5" --output "$WORK/o.h5"
no_output
echo "ok: label options and bad labels give clear messages"

#!/usr/bin/env bash
# Per-input sides in select: with a pair-file AVAIL and --side tgt, a plain
# one-sentence-per-line REPR (and SEED) is read whole ("auto": one column) and
# selects exactly as the same sentences in the tgt column of a pair file;
# 1-4 ranks identical. Explicit --representative-side line|tgt agree.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 6000 --seed 11 --vocabulary 3000 --junk-fraction 0 --output avail.tsv --progress-every 0 2>/dev/null
"$TDCONE" synth --pairs 400 --seed 11 --first-pair 9000 --vocabulary 3000 --junk-fraction 0 --output held.tsv --progress-every 0 2>/dev/null
# REPR: the held-out tgt sentences, one per line (no tab), and as the tgt column of pairs.
# (head reads the file itself: `cut | head` under pipefail fails when head closes the pipe early)
head -n 300 held.tsv | cut -f2 > repr.txt
head -n 300 held.tsv | cut -f1 | paste - repr.txt > repr-pairs.tsv
tail -n 100 held.tsv | cut -f2 > seed.txt
tail -n 100 held.tsv | cut -f1 | paste - seed.txt > seed-pairs.tsv
grep -q "$(printf '\t')" repr.txt && fail "repr.txt has a tab"

select_run() {  # select_run NAME RANKS OPTIONS... (default --side tgt)
  local name=$1 n=$2; shift 2
  case " $* " in *" --side "*) ;; *) set -- --side tgt "$@";; esac
  run_mpi "$n" select --available avail.tsv "$@" --output "$name.h5" --progress-every 0 >/dev/null 2>"$name.log" \
    || { cat "$name.log"; fail "select $name on $n ranks"; }
  ! grep -q "missing column" "$name.log" || fail "$name: bad lines: $(head -3 "$name.log")"
}
select_run pairs 1 --representative repr-pairs.tsv --seed-corpus seed-pairs.tsv
for n in 1 2 3 4; do
  select_run plain-$n "$n" --representative repr.txt --seed-corpus seed.txt
  "$PY" "$HERE/compare_h5.py" pairs.h5 plain-$n.h5 || fail "a plain REPR/SEED on $n ranks differs from the pair files"
done
select_run explicit 2 --representative repr.txt --representative-side line --seed-corpus seed-pairs.tsv --seed-side tgt
"$PY" "$HERE/compare_h5.py" pairs.h5 explicit.h5 || fail "explicit --representative-side line / --seed-side tgt differ"
echo "ok: a plain REPR and SEED with --side tgt select like their pair files, on 1-4 ranks"

# A plain REPR with --side both is also read whole (not "missing column 2").
select_run both 1 --representative repr.txt --side both
# Forcing the pair reading of a one-column file still flags its lines.
run_mpi 1 select --available avail.tsv --side tgt --representative repr.txt --representative-side tgt \
  --output forced.h5 --progress-every 0 >/dev/null 2>forced.log || true
grep -q "missing column 2" forced.log || fail "--representative-side tgt on a one-column file: $(head -3 forced.log)"
echo "ok: --side both with a plain REPR; an explicit side is obeyed"

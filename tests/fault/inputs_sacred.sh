#!/usr/bin/env bash
# Inputs are sacred (issue 23, 2): an output (or select's checkpoint, or
# export's --output) that is one of the command's inputs - the same path, another
# spelling of it, a symlink, a hard link - is refused before any work, --force
# or not, on every rank, and the input is left as it was.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 2000 --output c.tsv 2>/dev/null || fail "synth"
head -200 c.tsv > ref.tsv
cp c.tsv c.orig
ln -s c.tsv link.tsv
ln c.tsv hard.tsv
msg="is .*the corpus given with --input: tdcone never writes over its inputs"
for out in c.tsv ./c.tsv "$WORK/c.tsv" link.tsv hard.tsv; do
  for force in "" --force; do
    # shellcheck disable=SC2086
    bounded 60 2 "--output $out $msg" -- run_mpi 2 score --input c.tsv --output "$out" $force
  done
done
bounded 60 2 "--output $WORK/c.tsv is c.tsv, the corpus given with --input" -- run_mpi 3 score --input 'c*.tsv' --output "$WORK/c.tsv" --force
bounded 60 2 "--output c.tsv is link.tsv, the corpus given with --input" -- run_mpi 2 score --input link.tsv --output c.tsv --force
bounded 60 2 "--output ref.tsv is the reference given with --reference" -- \
  run_mpi 2 score --input c.tsv --reference ref.tsv --output ref.tsv --force
cut -f1 ref.tsv > ref.src
cut -f2 ref.tsv > ref.tgt
bounded 60 2 "--output ref.tgt is the reference given with --reference-tgt-file" -- \
  run_mpi 2 score --input c.tsv --reference-src-file ref.src --reference-tgt-file ref.tgt --output ref.tgt --force
bounded 60 2 "--output ref.tsv is the corpus given with --src-file" -- \
  run_mpi 2 score --src-file ref.tsv --tgt-file c.tsv --output ref.tsv --force
bounded 60 2 "--output c.tsv is the corpus given with --input" -- \
  run_mpi 2 sweep --input c.tsv --score-col 3 --thresholds 0.5 --output c.tsv --force
for opt in representative available; do
  upper=$([ $opt = representative ] && echo REPR || echo AVAIL)
  bounded 60 2 "--output ./ref.tsv is ref.tsv, $upper given with --$opt" -- \
    run_mpi 2 select --representative "$([ $opt = representative ] && echo ref.tsv || echo c.tsv)" \
    --available "$([ $opt = available ] && echo ref.tsv || echo c.tsv)" --output ./ref.tsv --force
done
bounded 60 2 "--output ref.tsv is UNAD given with --unadapted" -- \
  run_mpi 2 select --representative c.tsv --available c.tsv --unadapted ref.tsv --output ref.tsv --force
bounded 60 2 "--output ref.tsv is SEED given with --seed-corpus" -- \
  run_mpi 2 select --representative c.tsv --available c.tsv --seed-corpus ref.tsv --output ref.tsv --force
bounded 60 2 "--checkpoint ref.tsv is REPR given with --representative" -- \
  run_mpi 2 select --representative ref.tsv --available c.tsv --checkpoint ref.tsv --output s.h5
cmp -s c.tsv c.orig && cmp -s ref.tsv <(head -200 c.orig) || fail "an input was changed"
[ ! -e s.h5 ] && ! ls ./*.partial* >/dev/null 2>&1 || fail "a refused run left a file"
echo "ok: an output that is an input (path, ./path, absolute, symlink, hard link, glob) is refused, --force or not"

"$TDCONE" score --input c.tsv --score-col 3 --id-col 4 --output r.h5 >/dev/null 2>&1 || fail "score"
cp r.h5 r.orig
bounded 60 2 "--output r.h5 is the result to export:" -- "$TDCONE" export r.h5 --output r.h5 --force
bounded 60 2 "--output c.tsv is the text given with --input" -- \
  "$TDCONE" export r.h5 --text --input c.tsv --output c.tsv --force
cmp -s r.h5 r.orig && cmp -s c.tsv c.orig || fail "export changed an input"
echo "ok: export refuses to write over the result or the text it reads"
bounded 60 2 "--output c.tsv is .*/c.tsv, an input the run recorded, read for --text" -- \
  "$TDCONE" export r.h5 --text --output c.tsv --force
cmp -s c.tsv c.orig || fail "export --text changed the input the run recorded"
echo "ok: export --text refuses to write over a file the run recorded"

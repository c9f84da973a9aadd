#!/usr/bin/env bash
# What was read is what was recorded (issue 69). A plain input cut or replaced
# while it is read stops every rank naming it (it used to end with exit 0 and
# fewer lines); standard input ('-' or /dev/stdin) and a FIFO record the bytes
# they delivered (they were recorded as 0); export --text or --lines-only of a
# run whose input was a FIFO is refused instead of waiting for a writer
# forever; a FIFO given as --where-result or --ranking is refused before the
# corpus is read (it failed with "Illegal seek" after reading it).
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# recorded_size RESULT: the size /inputs records of its first input.
recorded_size() {
  timeout 60 "$PY" -c 'import h5py, sys; print(h5py.File(sys.argv[1], "r")["/inputs/size"][0])' "$1"
}

"$TDCONE" synth --pairs 20000 --seed 5 --output orig.tsv --quiet 2>/dev/null
SIZE=$(stat -c %s orig.tsv)
FIRST_LINE=$(head -1 orig.tsv)

# change_while_read N CHANGE PATTERN: score on N ranks of `--input gate c.tsv`,
# where gate is a FIFO. Rank 0 reads the FIFO first and c.tsv after it; it
# opens the FIFO in the read stage, after the job recorded c.tsv. Once it has
# (the open for writing returns), CHANGE changes c.tsv, and then the FIFO gets
# one line and ends. So rank 0 reads its part of c.tsv after the change,
# whatever the timing: the run must stop naming c.tsv.
change_while_read() {
  local n=$1 change=$2 pattern=$3
  cp orig.tsv c.tsv
  rm -f gate && mkfifo gate
  ( exec 3>gate; "$change"; printf '%s\n' "$FIRST_LINE" >&3 ) &
  local feeder=$!
  bounded 180 1 "$pattern" -- run_mpi "$n" score --input gate c.tsv --output changed.h5
  kill "$feeder" 2>/dev/null || true  # still waiting when the run never opened the FIFO
  wait "$feeder" 2>/dev/null || true
  [ ! -e changed.h5 ] || fail "a result was written from $n rank(s) after c.tsv changed ($change)"
}
cut_input() { truncate -s $((SIZE / 4)) c.tsv; }
replace_input() { cp orig.tsv new.tsv && mv new.tsv c.tsv; }  # same bytes, another inode
for n in 1 3; do
  change_while_read "$n" cut_input "c.tsv changed while the job read it: it was cut: it ends at byte $((SIZE / 4)) now, but had $SIZE bytes"
done
echo "ok: an input cut while it is read stops the job on 1 and 3 ranks, naming it"
for n in 1 2; do
  change_while_read "$n" replace_input "c.tsv changed while the job read it: it was replaced by another file"
done
echo "ok: an input replaced while it is read stops the job on 1 and 2 ranks, naming it"

# Standard input, as '-' or /dev/stdin, from a pipe: the bytes delivered are recorded.
for n in 1 2; do
  for name in - /dev/stdin; do
    succeeds 180 "${MPI[@]}" "$n" "$TDCONE" score --input "$name" --output "stdin-$n.h5" --force < <(cat orig.tsv)
    [ "$(recorded_size "stdin-$n.h5")" = "$SIZE" ] || fail "--input $name on $n rank(s) records $(recorded_size "stdin-$n.h5") bytes, not $SIZE"
  done
done
echo "ok: standard input ('-', /dev/stdin) is read on 1 and 2 ranks and records the $SIZE bytes it delivered"

# A FIFO input: recorded with its bytes; export cannot read it again and says so, at once.
rm -f feed && mkfifo feed
( timeout 120 cat orig.tsv >feed ) &
succeeds 180 "${MPI[@]}" 2 "$TDCONE" score --input feed --output fifo.h5
wait
[ "$(recorded_size fifo.h5)" = "$SIZE" ] || fail "a FIFO input records $(recorded_size fifo.h5) bytes, not $SIZE"
for mode in --text --lines-only; do
  bounded 60 2 "computed from $WORK/feed, which is a pipe or FIFO: the run read its text once, as a stream" -- \
    "$TDCONE" export fifo.h5 "$mode" --top 5 --output "export$mode.tsv"
done
# The same bytes in a file, given with --input, are the input the run read.
succeeds 60 "$TDCONE" export fifo.h5 --text --top 5 --input orig.tsv --output export-file.tsv
[ "$(wc -l <export-file.tsv)" = 6 ] || fail "export --input of the FIFO's bytes: $(wc -l <export-file.tsv) lines"
echo "ok: export of a FIFO input is refused at once; its bytes in a file are accepted"

# A FIFO as --where-result or --ranking: refused before the corpus is read (the
# corpus here is a FIFO that nobody writes: reading it first would hang).
rm -f nobody result.fifo && mkfifo nobody result.fifo
head -200 orig.tsv >repr.tsv
bounded 60 2 "--where-result result.fifo is a pipe or FIFO, not a file" -- run_mpi 2 select --representative repr.tsv \
  --available nobody --where 'flags==0' --where-result result.fifo --output sel.h5
bounded 60 2 "--where-result result.fifo is a pipe or FIFO, not a file" -- run_mpi 2 balance --input nobody \
  --label-cols 3 --where 'flags==0' --where-result result.fifo --output bal.h5
bounded 60 2 "--ranking result.fifo is a pipe or FIFO, not a file" -- run_mpi 3 balance --input nobody \
  --label-cols 3 --rank-by tdcone --ranking result.fifo --output bal.h5
bounded 60 2 "--ranking missing.h5: no such file" -- run_mpi 2 balance --input nobody \
  --label-cols 3 --rank-by tdcone --ranking missing.h5 --output bal.h5
echo "ok: a FIFO or missing file as --where-result or --ranking is refused at start"

#!/usr/bin/env bash
# Ranks agree before any work (issue 23, 1). Ranks started with other
# arguments (an MPMD launch, a config file that differs between nodes) or that
# see other files under one path (a node-local copy: here, the same relative
# path from another working directory; a per-rank mount namespace) stop the
# job before it reads, naming the rank, the host and what differs; nothing is
# written. A file still being appended to is scored as the prefix rank 0 saw,
# which /inputs records: the same result as that prefix as a file of its own.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
mkdir -p n1 n2
"$TDCONE" synth --pairs 3000 --seed 1 --output n1/c.tsv 2>/dev/null || fail "synth"
"$TDCONE" synth --pairs 3000 --seed 2 --output n2/c.tsv 2>/dev/null || fail "synth"
head -300 n1/c.tsv > ref.tsv

# Other arguments on one rank.
bounded 60 2 "rank 1: the command line differs from rank 0's: argument 3 is 'n2/c.tsv' here but 'n1/c.tsv' there" -- \
  mpirun --oversubscribe -n 1 "$TDCONE" score --input n1/c.tsv --output o.h5 : -n 1 "$TDCONE" score --input n2/c.tsv --output o.h5
bounded 60 2 "argument 4 is '--reverse' here but '--output' there (here: rank 1 on host .*; there: rank 0 on host" -- \
  mpirun --oversubscribe -n 1 "$TDCONE" score --input n1/c.tsv --output o.h5 : -n 1 "$TDCONE" score --input n1/c.tsv --reverse --output o.h5
bounded 60 2 "argument 3 is 'n1/c.tsv' here but 'ref.tsv' there" -- \
  mpirun --oversubscribe -n 1 "$TDCONE" select --representative ref.tsv --available n1/c.tsv --output s.h5 : -n 1 \
  "$TDCONE" select --representative n1/c.tsv --available n1/c.tsv --output s.h5
# Another --output on the last of 4 ranks (collective MPI-IO calls with other
# file names hang inside MPI_File_open).
bounded 60 2 "rank 3: the command line differs from rank 0's: argument 5 is 'p3.h5' here but 'p.h5' there" -- \
  mpirun --oversubscribe -n 3 "$TDCONE" score --input n1/c.tsv --output p.h5 : -n 1 "$TDCONE" score --input n1/c.tsv --output p3.h5
[ ! -e p.h5 ] && [ ! -e p3.h5 ] && ! ls ./p*.partial-* 2>/dev/null || fail "another --output per rank left a file"
# A config file that differs between nodes (here: between working directories).
printf 'reverse = false\n' > n1/job.toml
printf 'reverse = true\n' > n2/job.toml
bounded 60 2 "rank 1: the command line with the options of job.toml differs from rank 0's" -- \
  mpirun --oversubscribe -n 1 --wdir "$WORK/n1" "$TDCONE" score --config job.toml --input c.tsv --output "$WORK/o.h5" : -n 1 \
  --wdir "$WORK/n2" "$TDCONE" score --config job.toml --input c.tsv --output "$WORK/o.h5"
rm n2/job.toml
bounded 60 2 "rank 1: cannot read config file job.toml" -- \
  mpirun --oversubscribe -n 1 --wdir "$WORK/n1" "$TDCONE" score --config job.toml --input c.tsv --output "$WORK/o.h5" : -n 1 \
  --wdir "$WORK/n2" "$TDCONE" score --config job.toml --input c.tsv --output "$WORK/o.h5"
echo "ok: ranks started with other arguments or config files stop before any work"

# The same path, another file on one rank: the command lines agree, the files do not.
bounded 60 1 "rank 1: --input c.tsv: it is another file here (device .*inode .*) than there (.*); every rank must read the same files" -- \
  mpirun --oversubscribe -n 1 --wdir "$WORK/n1" "$TDCONE" score --input c.tsv --output "$WORK/o.h5" : -n 1 \
  --wdir "$WORK/n2" "$TDCONE" score --input c.tsv --output "$WORK/o.h5"
cp ref.tsv n1/ref.tsv && head -200 n1/c.tsv > n2/ref.tsv
bounded 60 1 "rank 1: --reference ref.tsv: it is another file here" -- \
  mpirun --oversubscribe -n 1 --wdir "$WORK/n1" "$TDCONE" score --input "$WORK/n1/c.tsv" --reference ref.tsv --output "$WORK/o.h5" : -n 1 \
  --wdir "$WORK/n2" "$TDCONE" score --input "$WORK/n1/c.tsv" --reference ref.tsv --output "$WORK/o.h5"
bounded 60 1 "rank 1: --representative ref.tsv: it is another file here" -- \
  mpirun --oversubscribe -n 1 --wdir "$WORK/n1" "$TDCONE" select --representative ref.tsv --available "$WORK/n1/c.tsv" --output "$WORK/s.h5" : -n 1 \
  --wdir "$WORK/n2" "$TDCONE" select --representative ref.tsv --available "$WORK/n1/c.tsv" --output "$WORK/s.h5"
mkdir -p g/n1 && ln n1/c.tsv g/n1/c.tsv  # the same file, but the glob matches one file there
bounded 60 1 "rank 1: --input names 1 file(s) here but 2 there" -- \
  mpirun --oversubscribe -n 1 --wdir "$WORK" "$TDCONE" score --input 'n*/c.tsv' --output "$WORK/o.h5" : -n 1 \
  --wdir "$WORK/g" "$TDCONE" score --input 'n*/c.tsv' --output "$WORK/o.h5"
[ ! -e o.h5 ] && [ ! -e s.h5 ] && ! ls ./*.partial-* 2>/dev/null || fail "a refused run left an output"
# A per-rank mount namespace (where unshare may mount: root, no seccomp filter).
if unshare -m --propagation private true 2>/dev/null; then
  bounded 60 1 "rank 1: --input $WORK/n1/c.tsv: it is another file here" -- \
    mpirun --oversubscribe -n 1 "$TDCONE" score --input "$WORK/n1/c.tsv" --output "$WORK/o.h5" : -n 1 \
    unshare -m --propagation private sh -c "mount --bind '$WORK/n2/c.tsv' '$WORK/n1/c.tsv' && exec \"\$0\" \"\$@\"" \
    "$TDCONE" score --input "$WORK/n1/c.tsv" --output "$WORK/o.h5"
  echo "ok: a per-rank mount namespace is refused"
else
  echo "note: unshare -m is not allowed here; the mount-namespace case is not run"
fi
echo "ok: a rank that sees another file under the same path stops the job before any work"

# A file still being appended to (a crawler writing the nightly corpus), read
# by 3 and 4 ranks: appended in odd-sized pieces, so it often ends inside a line.
"$TDCONE" synth --pairs 400000 --seed 3 --output source.tsv 2>/dev/null || fail "synth"
for n in 3 4; do
  head -c 30000000 source.tsv > grow.tsv
  "$PY" - source.tsv grow.tsv <<'EOF' &
import sys, time
src = open(sys.argv[1], "rb"); src.seek(30000000)
with open(sys.argv[2], "ab", buffering=0) as out:
    while piece := src.read(7777):
        out.write(piece)
        time.sleep(0.002)
EOF
  writer=$!
  sleep 0.3
  run_mpi "$n" score --input grow.tsv --id-col 4 --output "grow-$n.h5" --progress-every 0 >/dev/null 2>"grow-$n.log" \
    || { kill $writer; cat "grow-$n.log"; fail "score of a growing file on $n ranks"; }
  kill $writer 2>/dev/null; wait $writer 2>/dev/null || true
  size=$("$PY" -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['inputs/size'][0]))" "grow-$n.h5")
  [ "$size" -lt "$(stat -c %s grow.tsv)" ] || fail "the file did not grow during the run on $n ranks; the case tests nothing"
  head -c "$size" grow.tsv > prefix.tsv
  run_mpi 1 score --input prefix.tsv --id-col 4 --output "prefix-$n.h5" --progress-every 0 >/dev/null 2>&1 || fail "prefix"
  "$PY" "$HERE/compare_h5.py" "prefix-$n.h5" "grow-$n.h5" || fail "a growing file on $n ranks: not the recorded prefix"
  "$PY" - "prefix-$n.h5" "grow-$n.h5" <<'EOF' || fail "a growing file on $n ranks: /inputs does not describe the prefix"
import sys, h5py
a, b = (h5py.File(p)["inputs"] for p in sys.argv[1:])
for key in ("size", "lines", "fingerprint"):
    assert (a[key][()] == b[key][()]).all(), (key, a[key][()], b[key][()])
EOF
  echo "ok: a file appended to while $n ranks read it is scored as the $size-byte prefix /inputs records"
done

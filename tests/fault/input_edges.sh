#!/usr/bin/env bash
# Input edge cases: a UTF-8 byte order mark, CRLF and CR-only line ends
# (also cut between '\r' and '\n' by zstd frames), inputs of unknown size
# (FIFO, stdin, procfs), JSONL lines with invalid JSON after the fields, and
# non-finite embedding values. Results must equal those of the plain LF file
# on 1, 2 and 3 ranks; bad input must be flagged or refused with file:line.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

same() { timeout 60 "$PY" "$HERE/compare_h5.py" "$1" "$2" >&2 || fail "$2 differs from $1"; }
# zstd_frames IN OUT: IN compressed in frames cut after a '\r' (between the
# '\r' and '\n' of CRLF) or, without one, at a tenth of the file, and after
# its first byte (inside a byte order mark).
zstd_frames() {
  local cuts
  cuts=$(timeout 60 "$PY" - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
step = len(data) // 10
cuts = {1}
for k in range(1, 10):
    cr = data.find(b"\r", k * step)
    cuts.add(cr + 1 if 0 <= cr < len(data) - 1 else k * step)
print(" ".join(map(str, sorted(cuts))))
PY
)
  local previous=0
  for cut in $cuts $(stat -c %s "$1"); do
    dd if="$1" iflag=skip_bytes,count_bytes skip=$previous count=$((cut - previous)) bs=64K status=none | zstd -q -c
    previous=$cut
  done >"$2"
}

succeeds 60 "$TDCONE" synth --pairs 3000 --seed 7 --output lf.tsv
printf '\xef\xbb\xbf' | cat - lf.tsv >bom.tsv
sed 's/$/\r/' lf.tsv >crlf.tsv
tr '\n' '\r' <lf.tsv >cr.tsv
for name in bom crlf cr; do zstd_frames $name.tsv $name.zst; done

for n in 1 2 3; do
  for name in lf bom crlf cr bom.zst crlf.zst cr.zst; do
    input=$name
    [[ $name == *.zst ]] || input=$name.tsv
    succeeds 120 "${MPI[@]}" "$n" "$TDCONE" score --input "$input" --score-col 3 --id-col 4 --output "$name-$n.h5"
    same lf-1.h5 "$name-$n.h5"
  done
done
echo "ok: BOM, CRLF and CR-only corpora (plain and zstd) score like the LF one on 1-3 ranks"

# Inputs of unknown size are read whole by rank 0, in their place among the files.
mkfifo corpus.fifo
for n in 1 2 3; do
  timeout 120 bash -c 'cat lf.tsv >corpus.fifo' &
  succeeds 120 "${MPI[@]}" "$n" "$TDCONE" score --input corpus.fifo --score-col 3 --id-col 4 --output fifo-$n.h5
  wait $! || fail "nobody read the FIFO on $n ranks"
  same lf-1.h5 fifo-$n.h5
  succeeds 120 "${MPI[@]}" "$n" "$TDCONE" score --input /dev/stdin --score-col 3 --id-col 4 --output stdin-$n.h5 <cr.tsv
  same lf-1.h5 stdin-$n.h5
done
succeeds 120 "${MPI[@]}" 3 "$TDCONE" score --input lf.tsv lf.tsv lf.tsv --output three-files.h5
timeout 120 bash -c 'cat bom.zst >corpus.fifo' &
succeeds 120 "${MPI[@]}" 3 "$TDCONE" score --input lf.tsv corpus.fifo cr.zst --output fifo-between.h5
wait $! || fail "nobody read the FIFO between files"
same three-files.h5 fifo-between.h5
status_lines=$(wc -l </proc/self/status)
for n in 1 2 3; do
  succeeds 120 "${MPI[@]}" "$n" "$TDCONE" score --input /proc/self/status --output status-$n.h5
  timeout 60 "$PY" -c "
import h5py, sys
with h5py.File('status-$n.h5', 'r') as f:
    sys.exit(int(f.attrs['n_lines']) != $status_lines)" || fail "/proc/self/status on $n ranks did not give its $status_lines lines"
done
echo "ok: a FIFO, stdin and a procfs file give all their lines on 1-3 ranks"

# Every JSONL line is one complete, valid JSON object, or a flagged bad line.
{
  echo '{"src": "the cat sat", "tgt": "the cat sat down"}'
  echo '{"src": "a b", "tgt": "b c"} trailing'
  echo '{"src": "a b", "tgt": "b c",}'
  echo '{"src": "a b", "tgt": "b c", "x": [1,}'
  echo '{"src": "a b", "tgt": "b c", "x": [1,}}'
  echo '{"src": "a b", "tgt": "b c", "x": "\q"}'
  echo '{"src": "a b", "tgt": "b c", "x": tru}'
  echo '{"src": "a b", "tgt": "b c"}}'
  echo '{"src": "dogs bark", "tgt": "a dog barks", "x": [1, {"y": null}]}'
} >edges.jsonl
for n in 1 2 3; do
  bounded 120 0 "7 bad line(s)" -- "${MPI[@]}" "$n" "$TDCONE" score --format jsonl --input edges.jsonl --max-bad-fraction 1 --output jsonl-$n.h5
  for line in 2 3 4 5 6 7 8; do
    grep -q "edges.jsonl:$line: invalid JSON" "$WORK/err.txt" || fail "line $line not flagged on $n ranks: $(cat "$WORK/err.txt")"
  done
  timeout 60 "$PY" -c "
import h5py, sys
with h5py.File('jsonl-$n.h5', 'r') as f:
    sys.exit(list(f['pairs/flags'][()]) != [0, 1, 1, 1, 1, 1, 1, 1, 0])" || fail "JSONL flags on $n ranks"
done
echo "ok: JSONL lines with invalid JSON after or around the fields are flagged on 1-3 ranks"

# Non-finite embedding values are refused, with file:line.
printf 'the 0.1 0.2\ncat 0.3 0.1\nsat nan 0.5\n' >nan-vectors.txt
printf 'the 0.1 0.2\ncat inf inf\n' >inf-vectors.txt
for n in 1 2 3; do
  bounded 120 2 "nan-vectors.txt:3: not a finite number: 'nan'" -- \
    "${MPI[@]}" "$n" "$TDCONE" score --input edges.jsonl --format jsonl --max-bad-fraction 1 --align static --embeddings nan-vectors.txt --output nan.h5
  bounded 120 2 "inf-vectors.txt:2: not a finite number: 'inf'" -- \
    "${MPI[@]}" "$n" "$TDCONE" score --input edges.jsonl --format jsonl --max-bad-fraction 1 --align static --embeddings inf-vectors.txt --output inf.h5
  [ ! -e nan.h5 ] && [ ! -e inf.h5 ] || fail "output written despite bad embeddings"
done
echo "ok: NaN and infinite embedding values are refused with file:line on 1-3 ranks"

#!/usr/bin/env bash
# Any number of input files (issue 23, 5): a sharded crawl of 100,000 one-line
# files scores on 2 ranks (the list, sizes, lines and fingerprints are the
# columns of /inputs: root attributes hold at most 64 KiB), and `info` and
# `export --text` read the result.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

mkdir shards
awk 'BEGIN { for (i = 0; i < 100000; i++) { f = sprintf("shards/s%06d.tsv", i); printf "w%d a b\tx%d y\n", i % 50, i % 70 > f; close(f) } }'
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "w%d a b\tx%d y\n", i % 50, i % 70 }' > all.tsv
timeout -k 5 300 "${TDCONE_MPIRUN:-mpirun}" -n 2 --oversubscribe "$TDCONE" score --input 'shards/*.tsv' --output r.h5 \
  >/dev/null 2>score.err || fail "score of 100,000 files on 2 ranks: $(tail -3 score.err)"
"$TDCONE" score --input all.tsv --output one.h5 >/dev/null 2>&1 || fail "score of the pasted corpus"
"$PY" "$HERE/compare_h5.py" one.h5 r.h5 || fail "100,000 files score differently from their concatenation"
timeout 60 "$TDCONE" info r.h5 > info.txt || fail "info"
grep -q "^  inputs (100000)$" info.txt || fail "info lists no 100000 inputs: $(head -20 info.txt)"
grep -q "shards/s099999.tsv  (.* bytes, 1 lines, fingerprint " info.txt || fail "info lacks the last file"
timeout 60 "$TDCONE" export r.h5 --text --output text.tsv || fail "export --text"
text_columns=$(head -1 text.tsv | tr '\t' '\n' | grep -nx 'src\|tgt' | cut -d: -f1 | paste -sd,)  # by name: /pairs grows
tail -n +2 text.tsv | cut -f "$text_columns" | cmp -s - all.tsv || fail "export --text of 100,000 files is not their text"
echo "ok: 100,000 input files score on 2 ranks; info and export --text read the result"

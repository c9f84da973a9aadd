#!/usr/bin/env bash
# A careless choice of column gives a believable number: each is warned about
# once (by rank 0, from global counts: the same on 1 and 2 ranks), the run and
# its results unchanged. A normal run warns of nothing.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# Columns: 1 src, 2 tgt, 3 score, 4 a unique id, 5 formality, 6 aroused/calm,
# 7 a URL shared by a run of 10 lines (the Twitter URL corpus's column 4).
"$TDCONE" synth --pairs 2000 --seed 7 --labels --junk-fraction 0 --output raw.tsv 2>/dev/null || fail "synth"
awk -F'\t' -v OFS='\t' '{ print $0, "https://t.co/x" int((NR - 1) / 10) }' raw.tsv > c.tsv
head -3 c.tsv > small.tsv

# run N NAME COMMAND ARGS...: runs on N ranks (exit status 0), stderr in NAME-N.err.
run() {
  local n=$1 name=$2; shift 2
  run_mpi "$n" "$@" --output "$name-$n.h5" --force >/dev/null 2>"$name-$n.err" || fail "$name on $n ranks: $(cat "$name-$n.err")"
}
# warned NAME TEXT: every rank count's stderr has TEXT once, and the same warnings.
warned() {
  for n in 1 2; do
    [ "$(grep -c -F -- "$2" "$1-$n.err")" = 1 ] || fail "$1 on $n ranks: not one '$2': $(cat "$1-$n.err")"
  done
  diff <(grep warning "$1-1.err") <(grep warning "$1-2.err") >/dev/null || fail "$1: 1 and 2 ranks warn differently"
}

for n in 1 2; do
  run $n plain score --input c.tsv --label-cols 6 --by-label
  run $n plain-balance balance --input c.tsv --label-cols 6
  run $n label-col score --input c.tsv --tgt-col 6
  run $n label-src sweep --input c.tsv --src-col 6 --reverse --score-col 3 --thresholds 0.5
  run $n same-col score --input c.tsv --src-col 2 --tgt-col 2
  run $n same-small score --input small.tsv --src-col 1 --tgt-col 1
  run $n url-label balance --input c.tsv --label-cols 7 --rank-by random
  run $n id-label score --input c.tsv --label-cols 6,4 --label-names arousal,id --by-label
done
for name in plain plain-balance; do
  ! grep -q "warning" $name-1.err $name-2.err || fail "$name warned: $(cat $name-1.err)"
done
echo "ok: a normal score and balance warn of nothing (1 and 2 ranks)"

warned label-col "tdcone: warning: the output side (column 6, --tgt-col) has 2 word types over 2000 usable lines, too few for text: a label or a score? check --tgt-col"
warned label-src "tdcone: warning: the output side (column 6, --src-col) has 2 word types over 2000 usable lines, too few for text: a label or a score? check --src-col"
echo "ok: a label column read as a side is warned about, naming the column and the option (--reverse too)"

warned same-col "tdcone: warning: --src-col and --tgt-col are both column 2: every line is paired with itself (a TD-CONE near 0 that means nothing); give the output side with --tgt-col"
warned same-small "--src-col and --tgt-col are both column 1"
echo "ok: the same column on both sides is warned about, on any corpus size"

warned url-label "tdcone: warning: label col7 (column 7) has 200 values over 2000 labelled lines, 10.0 lines a value: an id, a URL or text, not a label? check --label-cols"
! grep -q "lower --min-share" url-label-1.out url-label-1.err 2>/dev/null || fail "URL labels: advice to lower --min-share"
run_mpi 1 balance --input c.tsv --label-cols 7 --rank-by random --output url.h5 > url.out 2>/dev/null || fail "balance URL labels"
grep -q "nothing was down-sampled; a label looks like ids, not a label (see its warning)" url.out || fail "URL labels: $(tail -3 url.out)"
! grep -q "lower --min-share" url.out || fail "URL labels: advice to lower --min-share: $(tail -3 url.out)"
warned id-label "tdcone: warning: label id (column 4) has 2000 values over 2000 labelled lines, 1.0 lines a value"
! grep -q "label arousal" id-label-1.err || fail "arousal warned about: $(cat id-label-1.err)"
echo "ok: an id or URL column used as a label is warned about, naming the label and column, without min-share advice"

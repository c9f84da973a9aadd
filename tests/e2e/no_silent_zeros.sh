#!/usr/bin/env bash
# No silent zeros (docs/spec.md §9, issue 10): an input with no usable line, or with
# more bad lines than --max-bad-fraction, stops every rank with exit status 1
# and a message naming the file and the first reasons; scores that do not
# exist (bad lines, empty shards, empty sweep subsets) are NaN in the file and
# "nan" in the summary, with a warning, and the same bits on 1-4 ranks.
# --quiet keeps errors, warnings and the summary, and drops the rest.
source "$(dirname "$0")/../fault/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 200 --seed 3 --output c.tsv 2>/dev/null
"$TDCONE" synth --pairs 100 --seed 3 --first-pair 5000000 --junk-fraction 0 --output ref.tsv 2>/dev/null
"$TDCONE" synth --pairs 300 --seed 4 --junk-fraction 0.05 --output d.tsv 2>/dev/null  # a few bad lines

# An input with no usable line: every rank stops, exit 1, file and first reasons named, no output.
for n in 1 3; do
  bounded 60 1 "c.tsv (the corpus, --input): no usable line: all 200 lines are bad (first: c.tsv:1: invalid JSON" -- \
    run_mpi "$n" score --input c.tsv --format jsonl --output o.h5
  grep -q "check --format (jsonl here" "$WORK/err.txt" || fail "no hint about --format: $(cat "$WORK/err.txt")"
  bounded 60 1 "c.tsv (the corpus, --input): no usable line: all 200 lines are bad" -- \
    run_mpi "$n" sweep --input c.tsv --format jsonl --score-field score --thresholds 0.5 --output o.h5
done
# A score column that is not a number (a word label; a judgement "(4,6)" is the number 4/6).
awk -F'\t' 'BEGIN { OFS = "\t" } { $3 = NR % 2 ? "paraphrase" : "other"; print }' c.tsv >labels.tsv
bounded 60 1 "labels.tsv (the corpus, --input): no usable line: all 200 lines are bad (first: labels.tsv:1: unparsable score 'paraphrase'" -- \
  run_mpi 2 score --input labels.tsv --score-col 3 --output o.h5
: >empty.tsv
bounded 60 1 "empty.tsv (the corpus, --input): no usable line: the input is empty" -- run_mpi 2 score --input empty.tsv --output o.h5
# A reference whose lines are all bad (one column where the corpus has two): not TD-CONE_REL 0.
cut -f1 ref.tsv >ref-one-column.tsv
bounded 60 1 "ref-one-column.tsv (the reference, --reference): no usable line: all 100 lines are bad (first: ref-one-column.tsv:1: missing column 2" -- \
  run_mpi 2 score --input c.tsv --reference ref-one-column.tsv --output o.h5
[ ! -e o.h5 ] && ! ls o.h5.partial* >/dev/null 2>&1 || fail "output written for an input without usable lines"
echo "ok: corpus, score column and reference without a usable line stop every rank (exit 1, reasons named)"

# Selection: REPR, AVAIL, and an explicitly given UNAD or SEED, each must have a usable line.
sel=(select --representative ref.tsv --available c.tsv --side tgt --output s.h5)
sed 's/\t/\t\xff/' c.tsv >latin1.tsv  # every line invalid UTF-8 in column 2
bounded 60 1 "latin1.tsv (AVAIL, --available): no usable line: all 200 lines are bad (first: latin1.tsv:1: invalid UTF-8" -- \
  run_mpi 2 select --representative ref.tsv --available latin1.tsv --side tgt --output s.h5
grep -q -- "--side (tgt here)" "$WORK/err.txt" || fail "select hint lacks --side: $(cat "$WORK/err.txt")"
# (A one-column REPR or UNAD is read one sentence a line by default: asked
# for its tgt column, it has none.)
bounded 60 1 "ref-one-column.tsv (REPR, --representative): no usable line: all 100 lines are bad" -- \
  run_mpi 2 select --representative ref-one-column.tsv --representative-side tgt --available c.tsv --side tgt --output s.h5
bounded 60 1 "ref-one-column.tsv (UNAD, --unadapted): no usable line" -- \
  run_mpi 2 "${sel[@]}" --unadapted ref-one-column.tsv --unadapted-side tgt
bounded 60 1 "empty.tsv (SEED, --seed-corpus): no usable line: the input is empty" -- run_mpi 2 "${sel[@]}" --seed-corpus empty.tsv
[ ! -e s.h5 ] || fail "selection written despite an input without usable lines"
echo "ok: select refuses REPR, AVAIL, UNAD and SEED without a usable line"

# --max-bad-fraction: more bad lines than that fraction of the lines read stops the run.
{
  printf 'the cat sat\tthe cat sat down\t0.9\n'
  printf 'only one column\n'
  printf 'a b\tc d\tnot-a-number\n'
  printf 'dogs bark\ta dog barks\t0.4\n'
  printf 'x\n'
} >mostly-bad.tsv  # 3 of 5 bad
bounded 60 1 "mostly-bad.tsv (the corpus, --input): 3 of 5 lines are bad (60.0%), more than --max-bad-fraction 0.5 (first: mostly-bad.tsv:2: missing column 2; mostly-bad.tsv:3: unparsable score 'not-a-number'; mostly-bad.tsv:5: missing column 2)" -- \
  run_mpi 2 score --input mostly-bad.tsv --score-col 3 --output o.h5
grep -q "raise --max-bad-fraction" "$WORK/err.txt" || fail "no advice to raise --max-bad-fraction"
bounded 60 0 "3 bad line(s)" -- run_mpi 2 score --input mostly-bad.tsv --score-col 3 --max-bad-fraction 0.6 --output ok.h5
bounded 60 1 "1 of 300 lines are bad\|of 300 lines are bad" -- run_mpi 2 score --input d.tsv --score-col 3 --max-bad-fraction 0 --output o.h5
bounded 60 1 "all 5 lines are bad" -- run_mpi 2 score --input mostly-bad.tsv --score-col 5 --max-bad-fraction 1 --output o.h5
bounded 60 1 "ref-one-column.tsv (the reference, --reference): no usable line" -- \
  run_mpi 2 score --input c.tsv --reference ref-one-column.tsv --max-bad-fraction 1 --output o.h5
for value in -0.1 1.5 nan; do
  bounded 20 2 "tdcone: error: --max-bad-fraction: $value is not a number from 0 to 1" -- \
    "$TDCONE" score --input c.tsv --max-bad-fraction=$value --output o.h5
done
printf 'max-bad-fraction = 2\n' >cfg.toml
bounded 20 2 "cfg.toml: max-bad-fraction = 2: --max-bad-fraction takes a number from 0 to 1" -- \
  "$TDCONE" select --config cfg.toml --representative ref.tsv --available c.tsv --output s.h5
[ ! -e o.h5 ] || fail "output written over --max-bad-fraction"
echo "ok: --max-bad-fraction (default 0.5, 0 to 1) stops runs with too many bad lines"

# Bad lines: tdcone NaN, ranked after every scored pair, by pair_id; the same bits on 1-4 ranks.
check_ranks badlines score --input d.tsv --score-col 3 --id-col 4
"$PY" - badlines-3.h5 <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    p = f["pairs"]
    bad = (p["flags"][()] & 1) == 1
    tdcone, rank = p["tdcone"][()], p["rank"][()].astype(np.int64)
    assert bad.sum() == f.attrs["n_flagged"] > 0, bad.sum()
    assert np.isnan(tdcone[bad]).all() and not np.isnan(tdcone[~bad]).any()
    assert rank[~bad].max() < rank[bad].min(), "a bad line ranks before a scored pair"
    assert list(rank[bad]) == list(range(int((~bad).sum()) + 1, len(rank) + 1)), "bad lines not in pair_id order"
    assert sorted(rank) == list(range(1, len(rank) + 1))
print("ok: bad lines have tdcone NaN and rank after every scored pair, by pair_id")
PY

# Empty shards (--shard-by file with fewer files than shards): n_pairs 0, every score NaN.
check_ranks emptyshards score --input c.tsv d.tsv --reference ref.tsv --shards 4 --shard-by file
run_mpi 2 score --input c.tsv d.tsv --reference ref.tsv --shards 4 --shard-by file --output shards.h5 >shards.out 2>/dev/null \
  || fail "shards run"
grep -q "warning: 2 of 4 shards are empty (no usable line): TD-CONE, KL and TD-CONE_REL NaN" shards.out \
  || fail "no empty-shard warning: $(cat shards.out)"
grep -qE "^  2 +0 +nan +nan" shards.out || fail "empty shard not printed as nan: $(cat shards.out)"
grep -q "^  [01] .*<- lowest TD-CONE_REL" shards.out || fail "the best shard is not a real one: $(cat shards.out)"
"$PY" - shards.h5 <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    s = f["shards"]
    assert list(s["n_pairs"][()]) [2:] == [0, 0], list(s["n_pairs"][()])
    for name in ("tdcone", "kl_pq", "kl_pu", "tdcone_rel"):
        v = s[name][()]
        assert np.isnan(v[2:]).all() and not np.isnan(v[:2]).any(), (name, v)
print("ok: empty shards are NaN in /shards and 'nan' in the summary, with a warning")
PY

# Empty sweep subsets (a threshold above every score), with and without --sample.
check_ranks emptysweep sweep --input d.tsv --score-col 3 --reference ref.tsv --thresholds 0.2,0.5,2,7 --sample 50 --seed 2
run_mpi 2 sweep --input d.tsv --score-col 3 --thresholds 0.2,0.5,2,7 --output sweep.h5 >sweep.out 2>/dev/null || fail "sweep run"
grep -q "warning: 2 of 4 thresholds select no pair (|S_t| = 0, no score >= t): TD-CONE NaN" sweep.out \
  || fail "no empty-subset warning: $(cat sweep.out)"
grep -qE "^  2 +0 +0 +nan" sweep.out || fail "empty subset not printed as nan: $(cat sweep.out)"
"$PY" - emptysweep-1.h5 sweep.h5 <<'PY'
import sys, h5py, numpy as np
for path in sys.argv[1:]:
    with h5py.File(path, "r") as f:
        s = f["sweep"]
        assert list(s["n_pairs"][()])[2:] == [0, 0] and list(s["n_sampled"][()])[2:] == [0, 0]
        for name in [k for k in ("tdcone", "kl_pq", "kl_pu", "tdcone_rel") if k in s]:
            v = s[name][()]
            assert np.isnan(v[2:]).all() and not np.isnan(v[:2]).any(), (path, name, v)
print("ok: empty sweep subsets are NaN in /sweep and 'nan' in the summary, with a warning")
PY

# --quiet: no progress, no bad-line list (one line counts them); errors and the summary stay.
run_mpi 2 score --input d.tsv --score-col 3 --quiet --progress-every 0.001 --output q.h5 >q.out 2>q.err || fail "--quiet run"
[ "$(wc -l <q.err)" -eq 1 ] && grep -q "bad line(s) of d.tsv (the corpus, --input) flagged and skipped (not listed: --quiet)" q.err \
  || fail "--quiet stderr: $(cat q.err)"
grep -q "TD-CONE " q.out || fail "--quiet dropped the summary"
bounded 60 1 "no usable line" -- run_mpi 2 score --input c.tsv --format jsonl --quiet --output o.h5
run_mpi 2 sweep --input d.tsv --score-col 3 --thresholds 7 --quiet --output q2.h5 >q2.out 2>/dev/null || fail "--quiet sweep"
grep -q "warning: 1 of 1 thresholds" q2.out || fail "--quiet dropped a warning"
run_mpi 2 select --representative ref.tsv --available d.tsv --side tgt --quiet --progress-every 0.001 --output qs.h5 \
  >qs.out 2>qs.err || fail "--quiet select"
[ "$(wc -l <qs.err)" -le 1 ] && ! grep -q "^\[" qs.err || fail "--quiet select stderr: $(cat qs.err)"
"$TDCONE" synth --pairs 1000 --quiet --output q.tsv 2>/dev/null || fail "--quiet synth"
echo "ok: --quiet keeps errors, warnings and summaries only"

# Progress lines say whose count and rate they give: rank 0's share with an
# estimate for the job, or the job's; one rank needs no scope.
"$TDCONE" synth --pairs 150000 --seed 5 --quiet --output p.tsv 2>/dev/null
run_mpi 2 score --input p.tsv --progress-every 0.001 --output p2.h5 >/dev/null 2>p2.err || fail "progress run"
grep -q "^\[read corpus\] rank 0: [0-9.]*[kM]* lines ([0-9]*%), [0-9.]*[kM]* lines/s, about [0-9.]*[kM]* lines/s on all 2 ranks, elapsed" p2.err \
  || fail "read progress: $(grep -m2 '^\[read' p2.err)"
grep -q "^\[align\] all ranks: [0-9.]*[kM]* pairs ([0-9]*%), [0-9.]*[kM]* pairs/s, elapsed" p2.err || fail "align progress: $(grep -m2 '^\[align' p2.err)"
"$TDCONE" score --input p.tsv --progress-every 0.001 --output p1.h5 >/dev/null 2>p1.err || fail "1-rank progress run"
grep -q "^\[read corpus\] [0-9.]*[kM]* lines ([0-9]*%), [0-9.]*[kM]* lines/s, elapsed" p1.err || fail "1-rank read progress: $(grep -m2 '^\[read' p1.err)"
! grep -q "on rank 0\|lines on" p1.err p2.err || fail "old progress wording"
echo "ok: progress lines name rank 0's share and the job's rate"

#!/usr/bin/env bash
# Replicates (docs/spec.md §5 replicates): every replicate's TD-CONE and
# TD-CONE_REL equal a separate run on exactly the pairs the documented hash
# picks, computed by an independent script (corpus, shards, labels, lengths,
# sweep thresholds); the same bits on 1-4 ranks; a subset smaller than the
# sample is named and gets no verdict; unequal sizes without replicates get
# the size caveat; subsets of one distribution get no "best" in at least 18
# of 20 seeds, and a subset built to cover the reference better is clearly
# best in at least 18 of 20, though it is the smallest.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
"$PY" -c "import h5py, numpy, xxhash" 2>/dev/null ||
  fail "needs python3-h5py, python3-numpy and python3-xxhash (scripts/install-deps.sh installs them)"

"$TDCONE" synth --pairs 3000 --labels --output c.tsv 2>/dev/null || fail "synth"
"$TDCONE" synth --pairs 600 --seed 7 --output ref.tsv 2>/dev/null || fail "synth ref"
SCORE=(score --input c.tsv --score-col 3 --shards 3 --label-cols 6 --by-label --length-buckets 12,20 --reference ref.tsv
       --sample 250 --replicates 3 --seed 5)
check_ranks rep "${SCORE[@]}"
SWEEP=(sweep --input c.tsv --score-col 3 --thresholds 0.3,0.6,0.9 --reference ref.tsv --sample 200 --replicates 3 --seed 4)
check_ranks swp "${SWEEP[@]}"
mkdir separate
"$PY" "$HERE/replicate_check.py" "$TDCONE" c.tsv ref.tsv rep-1.h5 swp-1.h5 separate ||
  fail "a replicate differs from a separate run on its pairs"
echo "ok: replicates equal separate runs on the hash's pairs, and the same on 1-4 ranks"
"$TDCONE" export rep-1.h5 --group intervals --where "table=='shards'" --where "metric=='tdcone_rel'" --output iv.tsv ||
  fail "export /intervals"
[ "$(head -1 iv.tsv)" = "$(printf 'table\trow\tmetric\tvalue\tmean\tsd\tlo\thi')" ] && [ "$(wc -l <iv.tsv)" = 4 ] ||
  fail "export of /intervals: $(cat iv.tsv)"
"$TDCONE" export rep-1.h5 --group replicates --to jsonl --output rp.jsonl || fail "export /replicates"
[ "$(wc -l <rp.jsonl)" = $(((1 + 3 + 2 + 3) * 3)) ] || fail "/replicates: a row per subset and replicate: $(wc -l <rp.jsonl)"
"$PY" - rep-1.h5 "$HERE/../../scripts" <<'PY' || fail "read_frame of /intervals and p_best"
import sys
sys.path.insert(0, sys.argv[2])
from tdcone_frame import read_frame
intervals = read_frame(sys.argv[1], "intervals")
assert set(intervals["metric"]) == {"tdcone", "kl_pq", "kl_pu", "tdcone_rel", "bleu", "unigram_precision"}
assert (intervals["lo"] <= intervals["mean"]).all() and (intervals["mean"] <= intervals["hi"]).all()
assert intervals.attrs["/intervals"]["ranked_by"] == "tdcone_rel"
shards = read_frame(sys.argv[1], "shards")
assert abs(shards["p_best"].sum() - 1) < 1e-12 and list(shards["n_sampled"]) == [250, 250, 250], shards
PY
echo "ok: /intervals and /replicates export, read_frame reads them, shards carry p_best and n_sampled"

# The length bucket "> 20" has fewer pairs than the sample: named, sampled whole, no verdict.
run_mpi 2 "${SCORE[@]}" --output short.h5 >out.txt 2>err.txt || { cat err.txt; fail "score with a short subset"; }
grep -q "warning: 1 subset has fewer than the 250 pairs of a sample, sampled whole (n_sampled): > 20 (189)" out.txt ||
  fail "no shortfall warning: $(cat out.txt)"
grep -q "no verdict: > 20 has fewer pairs than a sample" out.txt || fail "a verdict over a short subset: $(cat out.txt)"
"$PY" - short.h5 <<'PY' || fail "n_sampled does not show the shortfall"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert list(f["lengths"]["n_sampled"][()]) == [250, 250, 189], f["lengths"]["n_sampled"][()]
    assert list(f["lengths"]["n_pairs"][()]) == [349, 2461, 189]
PY
echo "ok: a subset smaller than the sample is named and gets no verdict"

# Three files of one generator, of 600, 1500 and 3900 pairs, against a
# reference from the same generator: the full values fall with size.
"$TDCONE" synth --profile paraphrase --pairs 6000 --seed 3 --junk-fraction 0 --output p.tsv 2>/dev/null || fail "synth p"
"$TDCONE" synth --profile paraphrase --pairs 800 --seed 3 --first-pair 500000 --junk-fraction 0 --output pref.tsv \
  2>/dev/null || fail "synth pref"
"$TDCONE" synth --profile paraphrase --pairs 5400 --seed 9 --junk-fraction 0 --output q.tsv 2>/dev/null || fail "synth q"
sed -n 1,600p p.tsv >a.tsv; sed -n 601,2100p p.tsv >b.tsv; sed -n 2101,6000p p.tsv >c3.tsv
"$TDCONE" score --input a.tsv --input b.tsv --input c3.tsv --shard-by file --reference pref.tsv --output plain.h5 \
  >out.txt 2>/dev/null || fail "score by file"
grep -q "note: these shards hold 600 to 3900 pairs (6.5x). TD-CONE and TD-CONE_REL depend on how many pairs" out.txt ||
  fail "no size caveat: $(cat out.txt)"
! grep -q "lowest TD-CONE_REL" out.txt || fail "a lowest value marked across sizes 6.5x apart: $(cat out.txt)"
echo "ok: shards of unequal sizes get the size caveat, and no mark"

# verdicts FILES...: how many of 20 seeds call each file clearly best (file:count ...).
verdicts() {
  local inputs=() f seed
  for f in "$@"; do inputs+=(--input "$f"); done
  for seed in $(seq 20); do
    "$TDCONE" score "${inputs[@]}" --shard-by file --reference pref.tsv --sample auto --replicates 20 --seed "$seed" \
      --output v.h5 --force 2>/dev/null | grep -o "clearly best: [a-z0-9.]*" || true
  done | sort | uniq -c
}
same=$(verdicts a.tsv b.tsv c3.tsv)
[ "$(echo "$same" | awk '{n += $1} END {print n + 0}')" -le 2 ] || fail "one distribution, yet a clear best: $same"
echo "ok: subsets of one distribution: no clear best in at least 18 of 20 seeds (${same:-none at all})"

# ma: two thirds from the reference's generator, 600 pairs; mb and mc: one third, 1500 and 3900.
{ sed -n 1,400p p.tsv; sed -n 1,200p q.tsv; } >ma.tsv
{ sed -n 401,900p p.tsv; sed -n 201,1200p q.tsv; } >mb.tsv
{ sed -n 901,2200p p.tsv; sed -n 1201,3800p q.tsv; } >mc.tsv
better=$(verdicts ma.tsv mb.tsv mc.tsv)
[ "$(echo "$better" | awk '$4 == "ma.tsv" {print $1}')" -ge 18 ] 2>/dev/null || fail "the better subset was not clearly best: $better"
echo "ok: the subset that covers the reference better is clearly best in $(echo "$better" | awk '$4 == "ma.tsv" {print $1}') of 20 seeds"

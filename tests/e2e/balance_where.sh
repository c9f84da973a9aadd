#!/usr/bin/env bash
# tdcone balance --where COND --where-result SCORE.h5: only the lines whose
# /pairs row passes every condition are balanced; the others are flagged 128
# (left_out) and in no combination, the same on 1-4 ranks; misuse is refused.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 6000 --seed 31 --labels --output base.tsv 2>/dev/null
{ cat base.tsv; head -400 base.tsv; } >corpus.tsv  # 400 later copies
"$TDCONE" score --input corpus.tsv --dedup tokens --output dedup.h5 >/dev/null 2>&1 || fail "score --dedup"
labels=(--label-cols 5,6 --label-buckets col5=0.5)
check_ranks where balance --input corpus.tsv "${labels[@]}" --where 'flags.duplicate==0' --where 'markers==0' \
  --where-result dedup.h5
run_mpi 2 balance --input corpus.tsv "${labels[@]}" --where 'flags.duplicate==0' --where 'markers==0' \
  --where-result dedup.h5 --output shown.h5 >shown.out 2>/dev/null || fail "balance --where on 2 ranks"

"$PY" - dedup.h5 where-1.h5 shown.out <<'PY' || fail "the lines left out"
import collections, re, sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    flags, markers = f["pairs/flags"][()], f["pairs/markers"][()]
want = [bool(not f & 1 and (f & 32 or m != 0)) for f, m in zip(flags, markers)]
with h5py.File(sys.argv[2], "r") as f:
    b = f["balance"]
    out = (b["flags"][()] & 128) != 0
    combination, kept = b["combination"].asstr()[()], b["kept"][()]
    c = f["combinations"]
    before = dict(zip(c["combination"].asstr()[()], c["before"][()].tolist()))
assert list(out) == want and 0 < sum(want) < len(want), (sum(out), sum(want))
assert all(combination[i] == "" and kept[i] == 0 for i in range(len(out)) if out[i])
counted = collections.Counter(x for x in combination if x)
assert {k: v for k, v in before.items() if v} == dict(counted), (before, counted)
shown = re.search(r"left out +(\d+) lines", open(sys.argv[3]).read())
assert shown and int(shown.group(1)) == sum(want), open(sys.argv[3]).read()
print(f"ok: {sum(want)} lines (copies, or a marker) left out, flagged 128, in no combination; the rest balanced")
PY

"$TDCONE" synth --pairs 600 --seed 32 --labels --output other.tsv 2>/dev/null
"$TDCONE" score --input other.tsv --output other.h5 >/dev/null 2>&1 || fail "score other.tsv"
expect_failure 2 "give it with --where-result" -- "$TDCONE" balance --input corpus.tsv "${labels[@]}" \
  --where 'markers==0' --output x.h5
expect_failure 2 "is read by --where" -- "$TDCONE" balance --input corpus.tsv "${labels[@]}" \
  --where-result dedup.h5 --output x.h5
expect_failure 2 "was not computed on this corpus" -- "$TDCONE" balance --input corpus.tsv "${labels[@]}" \
  --where 'markers==0' --where-result other.h5 --output x.h5
expect_failure 2 "has no column 'dup_off' in /pairs" -- "$TDCONE" balance --input corpus.tsv "${labels[@]}" \
  --where 'dup_off==0' --where-result dedup.h5 --output x.h5
expect_failure 2 "no flags bit is named" -- "$TDCONE" balance --input corpus.tsv "${labels[@]}" \
  --where 'flags.dupe==0' --where-result dedup.h5 --output x.h5
[ ! -e x.h5 ] || fail "a refused balance left an output"
echo "ok: --where without a result, a result without --where, another corpus's result and bad conditions are refused"

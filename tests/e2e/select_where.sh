#!/usr/bin/env bash
# tdcone select --where COND --where-result SCORE.h5: the AVAIL lines whose
# /pairs row fails a condition are flagged 128 (left_out), ranked after the
# selectable lines and before junk, and count nowhere: the ranked lines, their
# figures and the lexicon are bitwise those of a selection from a file without
# those lines. The same on 1-4 ranks; misuse is refused.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 5000 --seed 41 --output base.tsv 2>/dev/null
{ cat base.tsv; head -600 base.tsv; } >corpus.tsv  # 600 later copies
"$TDCONE" synth --pairs 300 --seed 41 --first-pair 900000 --junk-fraction 0 --output repr.tsv 2>/dev/null
"$TDCONE" score --input corpus.tsv --dedup tokens --output dedup.h5 >/dev/null 2>&1 || fail "score --dedup"
where=(--where 'flags.duplicate==0' --where 'tgt_len>=4' --where-result dedup.h5)
select=(select --representative repr.tsv --available corpus.tsv --side tgt)
check_ranks where "${select[@]}" "${where[@]}"
"$TDCONE" "${select[@]}" "${where[@]}" --output shown.h5 >shown.out 2>/dev/null || fail "select --where"

# The same selection from a file of the lines that pass (bad lines kept: they stay bad, never left out).
"$PY" - dedup.h5 corpus.tsv kept.tsv kept-ids.txt <<'PY' || fail "the kept lines"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    flags, tgt_len = f["pairs/flags"][()], f["pairs/tgt_len"][()]
lines = open(sys.argv[2], "rb").read().split(b"\n")[: len(flags)]
keep = [i for i in range(len(flags)) if flags[i] & 1 or (not flags[i] & 32 and tgt_len[i] >= 4)]
open(sys.argv[3], "wb").write(b"".join(lines[i] + b"\n" for i in keep))
open(sys.argv[4], "w").write("\n".join(map(str, keep)) + "\n")
PY
"$TDCONE" select --representative repr.tsv --available kept.tsv --side tgt --output kept.h5 >/dev/null 2>&1 \
  || fail "select on the kept lines"

"$PY" - where-1.h5 kept.h5 kept-ids.txt dedup.h5 shown.out <<'PY' || fail "--where against the kept lines"
import re, sys
import h5py, numpy as np
keep = np.array([int(x) for x in open(sys.argv[3]).read().split()])
with h5py.File(sys.argv[4], "r") as f:
    score_flags, tgt_len = f["pairs/flags"][()], f["pairs/tgt_len"][()]
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    sa, sb = a["selection"], b["selection"]
    for name in ("stop_rank", "h_initial", "repr_tokens", "lexicon"):
        assert sa.attrs[name] == sb.attrs[name], (name, sa.attrs[name], sb.attrs[name])
    ranked = int(np.isfinite(sb["delta_h"][()]).sum())
    assert ranked == int(np.isfinite(sa["delta_h"][()]).sum()) and ranked > 1000, ranked
    assert (sa["pair_id"][:ranked] == keep[sb["pair_id"][:ranked]]).all(), "ranked lines differ"
    for name in ("delta_h", "penalty", "gain", "cross_entropy", "wge"):
        assert sa[name][:ranked].tobytes() == sb[name][:ranked].tobytes(), name
    assert (sa["root_word"][:ranked] == sb["root_word"][:ranked]).all()
    # After them: the lines left out (128), in input order, then junk and bad lines.
    flags, ids = sa["flags"][()], sa["pair_id"][()]
    out = ~(score_flags & 1).astype(bool) & ((score_flags & 32 != 0) | (tgt_len < 4))
    left = ids[ranked : ranked + int(out.sum())]
    assert (left == np.flatnonzero(out)).all() and (flags[ranked : ranked + len(left)] == 128).all()
    assert not (flags[ranked + len(left) :] & 128).any() and int(sa.attrs["left_out"]) == len(left) > 600
    assert int(sb.attrs["left_out"]) == 0
shown = re.search(r"left out +(\d+) AVAIL lines", open(sys.argv[5]).read())
assert shown and int(shown.group(1)) == len(left), open(sys.argv[5]).read()
print(f"ok: {len(left)} lines left out (flags 128, after the {ranked} ranked lines); the ranking is the kept file's, bit for bit")
PY

"$TDCONE" synth --pairs 600 --seed 42 --output other.tsv 2>/dev/null
"$TDCONE" score --input other.tsv --output other.h5 >/dev/null 2>&1 || fail "score other.tsv"
expect_failure 2 "give it with --where-result" -- "$TDCONE" "${select[@]}" --where 'markers==0' --output x.h5
expect_failure 2 "is read by --where" -- "$TDCONE" "${select[@]}" --where-result dedup.h5 --output x.h5
expect_failure 2 "was not computed on this corpus" -- "$TDCONE" "${select[@]}" --where 'markers==0' \
  --where-result other.h5 --output x.h5
expect_failure 2 "has no column 'dup_off' in /pairs" -- "$TDCONE" "${select[@]}" --where 'dup_off==0' \
  --where-result dedup.h5 --output x.h5
expect_failure 2 "where-result" -- "$TDCONE" "${select[@]}" --where 'markers==0' --where-result dedup.h5 \
  --output dedup.h5 --force
[ ! -e x.h5 ] && "$PY" -c "import h5py; h5py.File('dedup.h5', 'r')['pairs/flags']" || fail "a refused select wrote or lost a file"
echo "ok: --where without a result, a result without --where, another corpus's result, bad conditions and the result as --output are refused"

#!/usr/bin/env bash
# score --dedup exact|tokens|letters: hand-made pairs that are duplicates under
# one key and not another, their first occurrences, source groups and
# reference overlap, on 1-4 ranks (rank boundaries fall between the copies);
# a synthetic corpus checked against an independent exact grouping and bitwise
# on 1-4 ranks in every mode (and sweep); export --where on the new columns
# and flags.duplicate; a bad --dedup value refused.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# Line 5 has no tab (a bad line). Tokens: punct, lowercase (the defaults).
printf '%s\n' $'The cat.\tA dog' $'The cat.\tA dog' $'the  cat .\ta DOG' $'The cat!\tA dog' $'Thec at\tAdog' \
  'bad line no tab' $'The cat.\tA bird' $'The cat\tA dog.' $'A dog\tThe cat.' $'Thecat\tadog' >tiny.tsv
printf '%s\n' $'the cat.\ta dog' $'A dog\tThe cat.' $'x y\tz' >ref.tsv

for mode in exact tokens letters; do
  check_ranks "tiny-$mode" score --input tiny.tsv --reference ref.tsv --dedup "$mode"
  for n in 1 2 3 4; do
    "$PY" - "$WORK/tiny-$mode-$n.h5" "$mode" <<'PY' || fail "tiny corpus, --dedup $mode, $n ranks"
import sys, h5py
path, mode = sys.argv[1:]
# By hand (README: dup_of and src_group of a first occurrence and of a bad line are its own pair_id).
expected = {
    "exact": dict(dup_of=[0, 0, 2, 3, 4, 5, 6, 7, 8, 9], src_group=[0, 0, 2, 3, 4, 5, 0, 7, 8, 9],
                  src_group_size=[3, 3, 1, 1, 1, 0, 3, 1, 1, 1], in_reference=[8]),
    # "the  cat ." / "a DOG" has the tokens of line 0; "The cat!" does not
    "tokens": dict(dup_of=[0, 0, 0, 3, 4, 5, 6, 7, 8, 9], src_group=[0, 0, 0, 3, 4, 5, 0, 7, 8, 9],
                   src_group_size=[4, 4, 4, 1, 1, 0, 4, 1, 1, 1], in_reference=[0, 1, 2, 8]),
    # letters only: "thecat" / "adog" but for lines 6 (abird) and 8 (the sides swapped)
    "letters": dict(dup_of=[0, 0, 0, 0, 0, 5, 6, 0, 8, 0], src_group=[0, 0, 0, 0, 0, 5, 0, 0, 8, 0],
                    src_group_size=[8, 8, 8, 8, 8, 0, 8, 8, 1, 8], in_reference=[0, 1, 2, 3, 4, 7, 8, 9]),
}[mode]
with h5py.File(path, "r") as f:
    p = f["pairs"]
    for column in ("dup_of", "src_group", "src_group_size"):
        got = p[column][()].tolist()
        assert got == expected[column], (column, got, expected[column])
    flags = p["flags"][()]
    dup_of = expected["dup_of"]
    assert [i for i in range(10) if flags[i] & 32] == [i for i in range(10) if dup_of[i] != i], flags
    assert [i for i in range(10) if flags[i] & 64] == expected["in_reference"], flags
    assert flags[5] & 1 and not flags[5] & (32 | 64)
    assert f["corpus"].attrs["n_duplicates"] == sum(d != i for i, d in enumerate(dup_of))
    assert f["corpus"].attrs["n_in_reference"] == len(expected["in_reference"])
    assr = p["tdcone"][()]
    assert (assr[[1, 2]] == assr[0]).all(), "a duplicate is still scored"
PY
  done
done
echo "ok: tiny corpus, every mode, by hand"

# The summary prints both counts.
"$TDCONE" score --input tiny.tsv --reference ref.tsv --dedup letters --output s.h5 >out.txt 2>/dev/null || fail "score"
grep -q "^  duplicates   6 " out.txt || fail "summary: $(cat out.txt)"
grep -q "^  in reference 8 " out.txt || fail "summary: $(cat out.txt)"
# Without --dedup, no duplicate columns.
"$TDCONE" score --input tiny.tsv --output plain.h5 >/dev/null 2>&1 || fail "score"
"$PY" -c "import h5py, sys; f = h5py.File('plain.h5'); assert 'dup_of' not in f['pairs'] and 'n_duplicates' not in f['corpus'].attrs"

# A synthetic corpus with copies of its own lines, and a reference drawn from it.
"$TDCONE" synth --pairs 6000 --seed 5 --output base.tsv >/dev/null 2>&1
{ cat base.tsv; echo 'a bad line'; sed -n '1,400p' base.tsv; sed -n '3000,3100p' base.tsv | tr 'a-z' 'A-Z'; } >tw.tsv
{ sed -n '50,150p' base.tsv; "$TDCONE" synth --pairs 100 --seed 6 --first-pair 900000 --output - 2>/dev/null; } >twref.tsv
for mode in exact tokens letters; do
  check_ranks "tw-$mode" score --input tw.tsv --score-col 3 --reference twref.tsv --dedup "$mode"
done
check_ranks "sweep-tokens" sweep --input tw.tsv --score-col 3 --thresholds 0.3,0.6 --dedup tokens

# The exact mode against a grouping of its own: raw bytes of columns 1 and 2.
"$PY" - tw.tsv twref.tsv "$WORK/tw-exact-1.h5" "$WORK/tw-tokens-1.h5" "$WORK/tw-letters-1.h5" <<'PY' || fail "exact grouping"
import sys, h5py, numpy as np
corpus, reference, exact, tokens, letters = sys.argv[1:]
lines = open(corpus, "rb").read().split(b"\n")[:-1]
ref_lines = open(reference, "rb").read().split(b"\n")[:-1]
with h5py.File(exact, "r") as f:
    p = {k: f["pairs"][k][()] for k in ("flags", "dup_of", "src_group", "src_group_size")}
    n_dup, n_ref = f["corpus"].attrs["n_duplicates"], f["corpus"].attrs["n_in_reference"]
bad = (p["flags"] & 1).astype(bool)
assert bad[6000] and bad.sum() >= 1, "a bad line"
ref_keys = {tuple(l.split(b"\t")[:2]) for l in ref_lines if b"\t" in l}
first, first_src, size = {}, {}, {}
dup_of, src_group, in_ref = [], [], []
for i, line in enumerate(lines):
    if bad[i]:
        dup_of.append(i); src_group.append(i); in_ref.append(False)
        continue
    cols = line.split(b"\t")
    key = (cols[0], cols[1])
    dup_of.append(first.setdefault(key, i))
    src_group.append(first_src.setdefault(cols[0], i))
    size[cols[0]] = size.get(cols[0], 0) + 1
    in_ref.append(key in ref_keys)
src_size = [0 if bad[i] else size[lines[i].split(b"\t")[0]] for i in range(len(lines))]
assert p["dup_of"].tolist() == dup_of
assert p["src_group"].tolist() == src_group
assert p["src_group_size"].tolist() == src_size
assert (((p["flags"] & 32) != 0) == (np.array(dup_of) != np.arange(len(lines)))).all()
assert (((p["flags"] & 64) != 0) == np.array(in_ref)).all()
assert n_dup == sum(d != i for i, d in enumerate(dup_of)) >= 400 and n_ref == sum(in_ref) >= 100, (n_dup, n_ref)
# A looser key finds every copy a stricter one finds.
def dups(path):
    with h5py.File(path, "r") as f:
        return (f["pairs/flags"][()] & 32) != 0, f["corpus"].attrs["n_duplicates"]
(d_exact, c_exact), (d_tokens, c_tokens), (d_letters, c_letters) = dups(exact), dups(tokens), dups(letters)
assert not (d_exact & ~d_tokens).any() and not (d_tokens & ~d_letters).any()
assert c_exact < c_tokens <= c_letters, (c_exact, c_tokens, c_letters)  # the upper-cased copies are tokens duplicates
print(f"ok: exact grouping checked independently ({n_dup} duplicates, {n_ref} in the reference; tokens {c_tokens}, letters {c_letters})")
PY

# A parallel corpus in two files groups as the same pairs in one TSV.
grep -P '\t' tw.tsv | cut -f1,2 >good.tsv
cut -f1 good.tsv >good.src
cut -f2 good.tsv >good.tgt
"$TDCONE" score --input good.tsv --dedup tokens --output good-tsv.h5 >/dev/null 2>&1 || fail "score good.tsv"
run_mpi 2 score --src-file good.src --tgt-file good.tgt --dedup tokens --output good-files.h5 >/dev/null 2>&1 || fail "score files"
"$PY" - good-tsv.h5 good-files.h5 <<'PY' || fail "--src-file/--tgt-file groups differ from the TSV's"
import sys, h5py
a, b = (h5py.File(name, "r") for name in sys.argv[1:])
for column in ("flags", "dup_of", "src_group", "src_group_size"):
    assert (a["pairs"][column][()] == b["pairs"][column][()]).all(), column
assert a["corpus"].attrs["n_duplicates"] == b["corpus"].attrs["n_duplicates"] > 0
PY
echo "ok: --src-file/--tgt-file group as the TSV"

# export --where on the new columns and bits.
"$TDCONE" export "$WORK/tiny-letters-1.h5" --where 'flags.duplicate==0' --output - | cut -f1 | tail -n +2 | tr '\n' ' ' >kept.txt
[ "$(cat kept.txt)" = "0 5 6 8 " ] || fail "--where flags.duplicate==0 kept $(cat kept.txt)"
"$TDCONE" export "$WORK/tiny-letters-1.h5" --where 'flags.in_reference==1' --where 'src_group_size<8' --output - |
  cut -f1 | tail -n +2 | tr '\n' ' ' >kept.txt
[ "$(cat kept.txt)" = "8 " ] || fail "--where flags.in_reference==1 and src_group_size<8 kept $(cat kept.txt)"
"$TDCONE" export "$WORK/tiny-letters-1.h5" --where 'dup_of==0' --where 'flags.duplicate!=0' --output - | cut -f1 |
  tail -n +2 | tr '\n' ' ' >kept.txt
[ "$(cat kept.txt)" = "1 2 3 4 7 9 " ] || fail "--where dup_of==0 kept $(cat kept.txt)"
expect_failure 2 "no flags bit is named 'dup'" -- "$TDCONE" export "$WORK/tiny-letters-1.h5" --where 'flags.dup==0' --output -
expect_failure 2 "a bit is 0 or 1" -- "$TDCONE" export "$WORK/tiny-letters-1.h5" --where 'flags.duplicate>=32' --output -
echo "ok: export --where on dup_of, src_group_size and flags bits"

expect_failure 2 "dedup: fuzzy is not one of none, exact, tokens, letters" -- \
  "$TDCONE" score --input tiny.tsv --dedup fuzzy --output bad.h5
echo "ok: a bad --dedup is refused"

#!/usr/bin/env bash
# No value stands in for a missing or wrong one (issue 69, faults 4, 11, 12 and
# the checks of result files written by others):
# - a bad line's score (empty line, nan, inf, 1e309...) is NaN in /pairs, in
#   export and in tdcone_frame.py, and `--where 'score<x'` does not return it;
# - a pair's TD-CONE lies in [0, 1]: rounding noise above 1 (uniform) and
#   below 0 (static) is clamped;
# - `export --selected` writes rank order, with --lines-only too;
# - a result with a column of the wrong type, a dataspace larger than its
#   n_lines, or an out-of-range or repeated pair_id is refused, naming the
#   file and the dataset;
# - `--memory 1k` is shown as 1 KiB, not as 0 MiB.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
FRAME="$HERE/../../scripts/tdcone_frame.py"
# ---- NaN scores of bad lines, at 1 and 3 ranks ----
# Good lines with scores (some below 0.34), each bad form of a score, and an empty line.
{
  for k in $(seq 1 12); do printf 'the cat %d sat\tle chat %d\t0.%02d\n' "$k" "$k" $((k * 7)); done
  printf '\n'
  for bad in nan NaN inf -inf 1e309 -1e999 'n/a' ''; do printf 'some words\tdes mots\t%s\n' "$bad"; done
  for k in $(seq 13 20); do printf 'a dog %d ran\tun chien %d\t0.%02d\n' "$k" "$k" $((k * 4)); done
} > scores.tsv
for n in 1 2 3 4; do
  succeeds 120 run_mpi "$n" score --input scores.tsv --score-col 3 --max-bad-fraction 1 --output "s$n.h5"
  "$PY" - "s$n.h5" <<'PY' || fail "/pairs/score of bad lines on $n rank(s)"
import math, sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    score, flags = f["pairs/score"][()], f["pairs/flags"][()]
lines = open("scores.tsv", encoding="utf-8").read().split("\n")[:-1]
assert len(score) == len(lines), (len(score), len(lines))
for i, line in enumerate(lines):
    cols = line.split("\t")
    bad = flags[i] & 1
    good_score = len(cols) == 3 and cols[2].startswith("0.")
    assert bool(bad) != good_score, (i, line, flags[i])
    if bad:
        assert math.isnan(score[i]), f"line {i + 1} ({line!r}): score {score[i]}, not NaN"
    else:
        assert score[i] == float(cols[2]), (i, score[i], cols[2])  # good lines' values unchanged
PY
done
for n in 2 3 4; do "$PY" "$HERE/../e2e/compare_h5.py" s1.h5 "s$n.h5" || fail "1 and $n ranks differ"; done

succeeds 60 "$TDCONE" export s1.h5
awk -F'\t' 'NR > 1 && $4 % 2 == 1 && $7 != "nan" { bad = 1 } END { exit bad }' out.txt || fail "a bad line's score is not nan in TSV"
succeeds 60 "$TDCONE" export s1.h5 --to jsonl
"$PY" - out.txt <<'PY' || fail "a bad line's score is not null in JSON lines"
import json, sys
for line in open(sys.argv[1]):
    row = json.loads(line)
    assert (row["flags"] & 1) == 0 or row["score"] is None, row
PY
succeeds 60 "$TDCONE" export s1.h5 --where 'score<0.34'
expected=$(awk -F'\t' 'NF == 3 && $3 ~ /^0\./ && $3 < 0.34' scores.tsv | wc -l)
got=$(($(wc -l < out.txt) - 1))
[ "$got" = "$expected" ] || fail "--where 'score<0.34' gave $got rows, not the $expected good lines below 0.34: $(cat out.txt)"
awk -F'\t' 'NR > 1 && $4 % 2 == 1 { exit 1 }' out.txt || fail "--where 'score<0.34' returned bad lines: $(cat out.txt)"
"$PY" - "$FRAME" <<'PY' || fail "tdcone_frame.py: a bad line's score is not NaN"
import sys
sys.path.insert(0, __import__("os").path.dirname(sys.argv[1]))
from tdcone_frame import read_frame, FLAGS
pairs = read_frame("s1.h5")
bad = (pairs["flags"] & FLAGS["bad_line"]) != 0
assert bad.sum() == 9, bad.sum()
assert pairs["score"][bad].isna().all(), pairs[bad]
assert not pairs["score"][~bad].isna().any()
PY
# JSONL: a score that is not a finite number (a string "inf", a number too large) makes a bad line too.
printf '%s\n' '{"src": "a b", "tgt": "c d", "s": 0.5}' '{"src": "a b", "tgt": "c d", "s": "inf"}' \
  '{"src": "a b", "tgt": "c d", "s": 1e309}' '{"src": "a b", "tgt": "c d", "s": "nan"}' > scores.jsonl
succeeds 120 run_mpi 3 score --input scores.jsonl --format jsonl --score-field s --max-bad-fraction 1 --output j.h5
succeeds 60 "$TDCONE" export j.h5 --where 'flags.bad_line==1'
[ "$(awk -F'\t' 'NR > 1 && $7 == "nan"' out.txt | wc -l)" = 3 ] || fail "JSONL: bad scores are not 3 NaN bad lines: $(cat out.txt)"
echo "ok: a bad line's score is NaN in /pairs, export and the DataFrame; --where score<x does not return it"

# ---- pair TD-CONE in [0, 1] ----
# Three input words spread over all five output words and NULL: 1 in exact
# arithmetic, one ulp above in doubles; one word over one word and NULL: 1
# exactly. Static alignment with an opposite vector: a similarity at its
# floor, a share just above 1, -p ln p just below 0.
for k in $(seq 1 9); do printf 'a b c\td e f g h\n'; printf 'x\ty\n'; done > uniform.tsv
for k in $(seq 1 9); do printf 'up\tdown\n'; printf 'left right\tleft\n'; done > static.tsv
printf 'up 1 0\ndown -1 0\nleft 0 1\nright 1 1\n' > vectors.txt
in_unit_interval() {
  "$PY" - "$1" <<'PY'
import math, sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    tdcone = f["pairs/tdcone"][()]
outside = [repr(float(t)) for t in tdcone if not math.isnan(t) and not 0 <= t <= 1]
if outside:
    sys.exit(f"{sys.argv[1]}: pair TD-CONE outside [0, 1]: {outside[:4]}")
PY
}
for n in 1 2 3 4; do
  succeeds 120 run_mpi "$n" score --input uniform.tsv --output "u$n.h5"
  in_unit_interval "u$n.h5" || fail "uniform alignment on $n rank(s)"
  succeeds 120 run_mpi "$n" score --input static.tsv --align static --embeddings vectors.txt --output "st$n.h5"
  in_unit_interval "st$n.h5" || fail "static alignment on $n rank(s)"
  for kind in u st; do
    "$PY" "$HERE/../e2e/compare_h5.py" "${kind}1.h5" "$kind$n.h5" || fail "$kind: 1 and $n ranks differ"
  done
done
for n in 1 2 3 4; do
  succeeds 60 "$TDCONE" export "u$n.h5" --where 'tdcone<=1' --where 'tdcone>=1'
  [ "$(($(wc -l < out.txt) - 1))" = 18 ] || fail "tdcone<=1 and >=1 do not keep the 18 pairs of TD-CONE 1: $(cat out.txt)"
  # Equal values rank by pair_id: the ranking reads the clamped values.
  awk -F'\t' 'NR > 1 { print $3 }' out.txt | sort -n -c || fail "pairs of TD-CONE 1 do not rank by pair_id: $(cat out.txt)"
  succeeds 60 "$TDCONE" export "st$n.h5" --where 'tdcone>=0' --where 'tdcone<=0'
  [ "$(($(wc -l < out.txt) - 1))" = 18 ] || fail "tdcone>=0 and <=0 do not keep the 18 pairs of TD-CONE 0: $(cat out.txt)"
done
echo "ok: every pair's TD-CONE lies in [0, 1] under uniform and static alignment, the same at 1-4 ranks"

# ---- export --selected: rank order ----
"$TDCONE" synth --pairs 600 --seed 5 --junk-fraction 0 --output avail.tsv 2>/dev/null || fail "synth"
succeeds 120 run_mpi 2 select --representative avail.tsv --available avail.tsv --output sel.h5
succeeds 60 "$TDCONE" export sel.h5 --group selection --selected --top 40
awk -F'\t' 'NR > 1 { print $2 }' out.txt > ranks.txt
sort -n -c ranks.txt 2>/dev/null || fail "--selected: rows not in rank order: $(head -5 ranks.txt | tr '\n' ' ')"
awk -F'\t' 'NR > 1 { print $1 }' out.txt > ids.txt
awk 'NR == FNR { line[FNR - 1] = $0; next } { print line[$1] }' avail.tsv ids.txt > expected.txt
sort -n -c ids.txt 2>/dev/null && fail "the test needs a selection whose top lines are not in file order"
succeeds 60 "$TDCONE" export sel.h5 --group selection --selected --top 40 --lines-only
cmp -s out.txt expected.txt || fail "--selected --lines-only is not in rank order: $(diff out.txt expected.txt | head -6)"
succeeds 60 "$TDCONE" export sel.h5 --group selection --selected --sort-by pair_id --top 40
awk -F'\t' 'NR > 1 { print $1 }' out.txt | awk 'NR == FNR { line[FNR - 1] = $0; next } { print line[$1] }' avail.tsv - \
  > by_id.txt
succeeds 60 "$TDCONE" export sel.h5 --group selection --selected --sort-by pair_id --top 40 --lines-only
cmp -s out.txt by_id.txt || fail "--sort-by pair_id no longer orders --selected --lines-only"
echo "ok: export --selected writes rank order, with --lines-only too; --sort-by still orders"

# ---- result files written by others ----
"$TDCONE" synth --pairs 400 --seed 7 --junk-fraction 0 --output raw.tsv 2>/dev/null || fail "synth"
awk -F'\t' 'BEGIN { OFS = "\t" } { print $1, $2, $3, $4, (NR % 2 ? "formal" : "casual") }' raw.tsv > c.tsv
succeeds 120 "$TDCONE" score --input c.tsv --output r.h5
"$PY" - <<'PY' || fail "hostile copies"
import shutil
import h5py
import numpy as np

def altered(source, name, change):
    shutil.copy(source, name)
    with h5py.File(name, "a") as f:
        change(f)

def replace(f, path, **dataset):
    del f[path]
    f.create_dataset(path, **dataset)

def strings(f):
    values = f["pairs/tdcone"][()]
    replace(f, "pairs/tdcone", data=np.array([repr(float(v)).encode() for v in values]))

def huge(f):  # a dataspace of 10^12 rows in a small file: no chunk is written
    replace(f, "pairs/tdcone", shape=(10**12,), dtype="f8", chunks=(4096,))

def long(f):  # every column 10^12 rows, n_lines 400
    for name in list(f["pairs"]):
        replace(f, "pairs/" + name, shape=(10**12,), dtype=f["pairs"][name].dtype, chunks=(4096,))

def all_huge(f):  # every column and n_lines agree on 10^12 rows
    for name in list(f["pairs"]):
        replace(f, "pairs/" + name, shape=(10**12,), dtype=f["pairs"][name].dtype, chunks=(4096,))
    f.attrs["n_lines"] = np.uint64(10**12)

def pair_id_of(group, row, value_of):  # row `row` of group's pair_id becomes value_of(the column)
    def change(f):
        ids = f[group + "/pair_id"][()]
        ids[row] = value_of(ids)
        f[group + "/pair_id"][...] = ids
    return change

altered("r.h5", "strings.h5", strings)
altered("r.h5", "huge.h5", huge)
altered("r.h5", "long.h5", long)
altered("r.h5", "allhuge.h5", all_huge)
altered("r.h5", "outside.h5", pair_id_of("pairs", 5, lambda ids: 10**6))
altered("r.h5", "twice.h5", pair_id_of("pairs", 5, lambda ids: 4))
altered("sel.h5", "sel-twice.h5", pair_id_of("selection", 1, lambda ids: ids[0]))
with h5py.File("sel-twice.h5", "r") as f:
    first = int(f["selection/pair_id"][0])
open("sel-twice.id", "w").write(str(first))
PY
STRINGS="strings.h5: /pairs/tdcone is stored as string (.*), not f64 as tdcone writes it"
HUGE="huge.h5: the columns of /pairs differ in length (rows: pair_id 400, .*tdcone 1000000000000)"
LONG="long.h5: the columns of /pairs have 1000000000000 rows, not one for each of the n_lines 400 lines"
ALLHUGE="allhuge.h5: dataset /pairs/.* claims 1000000000000 rows"
OUTSIDE="outside.h5: /pairs/pair_id holds 1000000 at row 5, out of range"
TWICE="twice.h5: /pairs/pair_id holds 4 twice (rows 4 and 5)"
for case in strings:STRINGS:1 huge:HUGE:2 long:LONG:1 outside:OUTSIDE:1 twice:TWICE:1; do
  IFS=: read -r file var status <<< "$case"
  file=$file.h5
  bounded 60 "$status" "${!var}" -- "$TDCONE" export "$file" --text --input c.tsv
  [ ! -s out.txt ] || fail "export of $file wrote rows"
  bounded 60 "$status" "${!var}" -- "$TDCONE" export "$file" --lines-only --input c.tsv
  [ ! -s out.txt ] || fail "export --lines-only of $file wrote lines"
done
bounded 60 1 "$ALLHUGE" -- "$TDCONE" export allhuge.h5
# The Python helpers check the same before they read.
bounded 60 1 "strings.h5: /pairs/tdcone is stored as .*, not f64 as tdcone writes it" -- "$PY" "$FRAME" strings.h5
bounded 60 1 "long.h5: /pairs/.* has 1000000000000 rows, not one for each of the n_lines 400" -- "$PY" "$FRAME" long.h5
! grep -q Traceback err.txt || fail "tdcone_frame.py: a traceback: $(cat err.txt)"
# select and balance read a share of /pairs on each rank: the rank whose rows
# hold the repeated pair_id finds it.
SHARE="twice.h5: /pairs/pair_id holds 4 at row 5, where tdcone writes pair_id 5"
for case in strings:STRINGS:1 huge:HUGE:2 long:LONG:1 twice:SHARE:1; do
  IFS=: read -r file var status <<< "$case"
  file=$file.h5
  bounded 120 "$status" "${!var}" -- run_mpi 2 select --representative c.tsv --available c.tsv --where 'tdcone<=1' \
    --where-result "$file" --output w.h5
  bounded 120 "$status" "${!var}" -- run_mpi 3 balance --input c.tsv --label-cols 5 --ranking "$file" --output b.h5
done
[ ! -e b.h5 ] && [ ! -e w.h5 ] || fail "a refused result file left an output"
first=$(cat sel-twice.id)
bounded 60 1 "sel-twice.h5: /selection/pair_id holds $first twice (rows 0 and 1)" -- \
  "$TDCONE" export sel-twice.h5 --group selection --lines-only
echo "ok: a column of strings, a dataspace past n_lines, an out-of-range or repeated pair_id are refused, naming the file and dataset"

# ---- --memory 1k: the size as given, not 0 MiB ----
bounded 120 2 "does not fit --memory 1 KiB" -- run_mpi 1 score --input c.tsv --memory 1k --output m.h5
! grep -q " 0 MiB" err.txt || fail "--memory 1k shown as 0 MiB: $(cat err.txt)"
echo "ok: --memory 1k is shown as 1 KiB"

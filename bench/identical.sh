#!/usr/bin/env bash
# Are two tdcone binaries' results identical bit for bit? Runs the same jobs
# (score, sweep, select, balance; shards, labels, references, static
# alignment, small --memory/--round-size budgets that force many rounds) with
# both on 1-4 ranks and compares every dataset and attribute of /pairs,
# /corpus, /shards, /sweep, /labels, /lengths, /selection, /balance and
# /combinations (run attributes such as phase times aside; COMPARE_GROUPS="pairs
# corpus" compares those only, e.g. against a binary older than a deliberate
# change of another group). For engine work: the outputs must not move.
# Prints one line per job and rank count; exit 1 on any difference.
# EXPECTED_CHANGES="bad-line-scores clamped-tdcone" against a binary older
# than those two deliberate changes accepts exactly them and nothing else: a
# /pairs/score that differs only where the base stored 0 and the new binary
# NaN for a bad line; a /pairs/tdcone that differs only where the base was
# outside [0, 1] and the new value is the base clamped; a /pairs/rank that is
# the order of the new TD-CONE (lowest first, ties by pair_id, bad lines
# last), as the base's is of its own, and a /balance/rank_in_combination
# that follows it. Such datasets print as EXPLAINED.
# Usage: [COMPARE_GROUPS="..."] [EXPECTED_CHANGES="..."] bench/identical.sh BASE_TDCONE NEW_TDCONE [PAIRS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=$(realpath "$1") new=$(realpath "$2") pairs=${3:-20000}
# Not GROUPS: bash sets that (the user's group ids) and ignores assignments to it.
groups=${COMPARE_GROUPS:-pairs corpus shards sweep labels lengths selection balance combinations}
work=$(mktemp -d "${TMPDIR:-/tmp}/tdcone-identical.XXXXXX")
trap 'rm -rf "$work"' EXIT
source "$root/scripts/mpi-env.sh"
export OMPI_MCA_rmaps_base_oversubscribe=1
cd "$work"
"$new" synth --pairs "$pairs" --seed 1 --output tw.tsv --quiet
"$new" synth --pairs "$pairs" --seed 2 --profile paraphrase --output pp.tsv --quiet
"$new" synth --pairs "$pairs" --seed 3 --labels --output lab.tsv --quiet
"$new" synth --pairs 1000 --first-pair "$pairs" --seed 1 --output ref.tsv --quiet
cut -f2 ref.tsv >repr.txt
split -n l/2 -d tw.tsv part-
for f in part-0?; do cut -f1 "$f" >"$f.src"; cut -f2 "$f" >"$f.tgt"; done
/usr/bin/python3 - tw.tsv vectors.txt <<'PY'
import random, sys
random.seed(4)
words = sorted({w.lower() for line in open(sys.argv[1], encoding="utf-8") if "\t" in line for w in line.split("\t")[1].split()})  # synth writes some bad lines: no tab
with open(sys.argv[2], "w") as out:
    for w in words[: len(words) // 2]:
        out.write(w + " " + " ".join("%.4f" % random.uniform(-1, 1) for _ in range(8)) + "\n")
PY
jobs=(
  "score --input tw.tsv --score-col 3 --id-col 4"
  "score --input tw.tsv --score-col 3 --id-col 4 --memory 48M --round-size 64k"
  "score --src-file part-00.src part-01.src --tgt-file part-00.tgt part-01.tgt --shards 2 --shard-by file --reference ref.tsv"
  "score --input part-00 part-01 --shards 3 --shard-by file --score-col 3"
  "score --input pp.tsv --reference ref.tsv --shards 4 --round-size 256k"
  "score --input tw.tsv --reverse --tokenizer whitespace --no-lowercase"
  "score --input tw.tsv --align static --embeddings vectors.txt --shards 3"
  "score --input lab.tsv --label-cols 5,6 --label-buckets col5=0.5 --by-label --reference ref.tsv"
  "score --input lab.tsv --label-cols 5,6 --label-buckets col5=0.5 --by-label --shards 2 --length-buckets 5,10,20,40"
  "sweep --input tw.tsv --score-col 3 --thresholds 0.4,0.6,0.8 --reference ref.tsv"
  "sweep --input tw.tsv --score-col 3 --thresholds 0.5 --sample 3000 --seed 7"
  "select --representative repr.txt --available tw.tsv --side tgt"
  "select --representative repr.txt --available pp.tsv --side both --stop --no-batch"
  "balance --input lab.tsv --label-cols 5,6 --label-buckets col5=0.2,0.4,0.6,0.8"
  "balance --input lab.tsv --label-cols 5,6 --label-buckets col5=0.5 --mode marginal --rank-by random --seed 3"
)
# A base binary older than --length-buckets runs its jobs without it (its
# result then has no /lengths, and the other groups are compared).
base_supports_lengths=0
"$base" score --help 2>/dev/null | grep -q -- "--length-buckets" && base_supports_lengths=1
status=0
for i in "${!jobs[@]}"; do
  for n in 1 2 3 4; do
    for side in base new; do
      binary=$base job=${jobs[$i]}
      [ "$side" = new ] && binary=$new
      [ "$side" = base ] && [ $base_supports_lengths = 0 ] && job=$(sed -E 's/ --length-buckets [^ ]+//' <<<"$job")
      # shellcheck disable=SC2086  # a job is its words
      mpirun -n "$n" "$binary" $job --quiet --output "$side-$i-$n.h5" >/dev/null 2>"$side-$i-$n.log" ||
        { echo "FAILED ($side) ${jobs[$i]} on $n ranks:"; cat "$side-$i-$n.log"; exit 1; }
    done
    /usr/bin/python3 - "base-$i-$n.h5" "new-$i-$n.h5" "${jobs[$i]} ($n ranks)" "$groups" "${EXPECTED_CHANGES:-}" <<'PY' || status=1
import sys, h5py, numpy as np
a, b, what, groups, expected = sys.argv[1:]
GROUPS, EXPECTED = groups.split(), set(expected.split())
BAD_LINE = 1  # the bad_line flag bit
def rank_of(tdcone, pair_id):
    order = np.lexsort((pair_id, tdcone, np.isnan(tdcone)))  # lowest first, ties by pair_id, NaN last
    rank = np.empty(len(order), dtype=np.uint64)
    rank[order] = np.arange(1, len(order) + 1)
    return rank
def rank_in_combination(F):
    """Each combination's pairs numbered 1, 2, ... in the order of /pairs/rank (0: no combination)."""
    ids, combos = F["balance/pair_id"][()], F["balance/combination"][()]
    global_rank = F["pairs/rank"][()][ids]
    rank = np.zeros(len(ids), dtype=np.uint64)
    for combo in set(combos) - {b""}:
        members = np.flatnonzero(combos == combo)
        rank[members[np.argsort(global_rank[members])]] = np.arange(1, len(members) + 1)
    return rank
def explained(g, name, A, B):
    """Whether the difference of /g/name is one of the EXPECTED changes, and only that."""
    if g == "balance" and name == "rank_in_combination" and "clamped-tdcone" in EXPECTED:
        return all(np.array_equal(F[g][name][()], rank_in_combination(F)) for F in (A, B))
    if g != "pairs": return False
    x, y = A[g][name][()], B[g][name][()]
    if name == "score" and "bad-line-scores" in EXPECTED:
        moved = ~((x == y) | (np.isnan(x) & np.isnan(y)))
        bad = (B[g]["flags"][()] & BAD_LINE) != 0
        return bool(np.all((x[moved] == 0) & np.isnan(y[moved]) & bad[moved]) and np.all(np.isnan(y[bad])))
    if name == "tdcone" and "clamped-tdcone" in EXPECTED:
        moved = ~((x == y) | (np.isnan(x) & np.isnan(y)))
        outside = (x[moved] < 0) | (x[moved] > 1)
        return bool(np.all(outside & (y[moved] == np.clip(x[moved], 0, 1))) and np.all((y[~np.isnan(y)] >= 0) & (y[~np.isnan(y)] <= 1)))
    if name == "rank" and "clamped-tdcone" in EXPECTED:
        ids = A[g]["pair_id"][()]
        return bool(np.array_equal(x, rank_of(A[g]["tdcone"][()], ids)) and np.array_equal(y, rank_of(B[g]["tdcone"][()], ids)))
    return False
def same(x, y):
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype: return False
    return x.tobytes() == y.tobytes() if x.dtype.kind in "biuf" else bool(np.all(x == y))
problems, compared, explains = [], 0, []
with h5py.File(a, "r") as A, h5py.File(b, "r") as B:
    for g in GROUPS:
        if g not in A: continue
        if g not in B: problems.append(f"/{g} missing"); continue
        for k, v in A[g].attrs.items():
            if k.startswith("seconds_"): continue
            if k not in B[g].attrs or not same(v, B[g].attrs[k]): problems.append(f"/{g}@{k}")
        for name, d in A[g].items():
            compared += 1
            if name not in B[g] or not same(d[()], B[g][name][()]):
                (explains if name in B[g] and explained(g, name, A, B) else problems).append(f"/{g}/{name}")
if compared == 0: problems.append("no dataset compared")
verdict = "DIFFERENT" if problems else "EXPLAINED" if explains else "IDENTICAL"
print(verdict, what, f"({compared} datasets)", " ".join(problems + explains))
sys.exit(1 if problems else 0)
PY
  done
done
exit $status

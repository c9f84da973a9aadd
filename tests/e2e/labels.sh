#!/usr/bin/env bash
# Label-aware curation: score --by-label and balance on 1-4 ranks write the
# same /labels, /balance and /combinations; each /labels row equals `score`
# on that row's lines alone; rankings from a score or select result; export
# of the subset; JSONL labels equal TSV ones.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 30000 --seed 21 --vocabulary 4000 --output "$WORK/raw.tsv" 2>/dev/null
"$TDCONE" synth --pairs 400 --seed 22 --vocabulary 4000 --junk-fraction 0 --output "$WORK/reference.tsv" 2>/dev/null
# Two labels tied to the text (a number to bucket, a word), some lines
# without a usable label: "n/a" (not a number) or no sixth column.
awk -F'\t' 'BEGIN { OFS = "\t" }
  { f = ((length($1) * 37 + NR * 11) % 1000) / 1000; a = (length($2) % 3 == 0) ? "aroused" : "calm"
    if (NR % 997 == 0) f = "n/a"
    if (NR % 1499 == 0) { print $1, $2, $3, $4, f; next }
    print $1, $2, $3, $4, f, a }' "$WORK/raw.tsv" >"$WORK/c.tsv"
LABELS=(--label-cols 5,6 --label-names formality,arousal --label-buckets formality=0.3,0.7)

check_ranks by-label score --input "$WORK/c.tsv" --score-col 3 "${LABELS[@]}" --by-label --reference "$WORK/reference.tsv" --shards 3
check_ranks joint balance --input "$WORK/c.tsv" --score-col 3 "${LABELS[@]}" --mode joint --min-share 0.1 --by-label
check_ranks marginal balance --input "$WORK/c.tsv" --score-col 3 "${LABELS[@]}" --mode marginal --rank-by random --seed 5
check_ranks skewed balance --input "$WORK/c.tsv" --score-col 3 "${LABELS[@]}" --mode skewed --size 5000 --rank-by random

# Each /labels row (joint and marginal) equals `score` on its lines alone.
"$PY" - "$WORK/by-label-1.h5" "$WORK/c.tsv" "$WORK" <<'PY'
import sys, h5py
result, corpus, work = sys.argv[1:]
with h5py.File(result, "r") as f:
    t = f["labels"]
    assert list(t.keys()) == ["label", "n_pairs", "tdcone", "cond_entropy", "kl_pq", "kl_pu", "tdcone_rel", "bleu",
                                "unigram_precision"], list(t.keys())
    rows = list(zip(t["label"].asstr()[()], t["n_pairs"][()], t["tdcone"][()], t["cond_entropy"][()]))
    assert [r[0] for r in rows] == ["low|aroused", "low|calm", "mid|aroused", "mid|calm", "high|aroused", "high|calm",
                                    "low|*", "mid|*", "high|*", "*|aroused", "*|calm"], [r[0] for r in rows]
    flags = f["pairs/flags"][()]
# Flags 16: exactly the usable lines given "n/a" or no sixth column.
unlabelled = {i for i in range(30000) if ((i + 1) % 997 == 0 or (i + 1) % 1499 == 0) and not flags[i] & 1}
assert set(map(int, (flags & 16).nonzero()[0])) == unlabelled, sorted(unlabelled)[:5]
with open(f"{work}/rows.txt", "w") as out:
    for name, n_pairs, tdcone, cond in rows:
        out.write(f"{name} {n_pairs} {float(tdcone)!r} {float(cond)!r}\n")
PY
while read -r name n_pairs tdcone cond; do
  awk -v want="$name" -F'\t' 'BEGIN { split(want, w, "|") }
    NF >= 6 && $5 != "n/a" { b = ($5 < 0.3) ? "low" : ($5 < 0.7) ? "mid" : "high"
      if ((w[1] == "*" || w[1] == b) && (w[2] == "*" || w[2] == $6)) print }' "$WORK/c.tsv" >"$WORK/subset.tsv"
  "$TDCONE" score --input "$WORK/subset.tsv" --score-col 3 --max-bad-fraction 1 --quiet --output "$WORK/subset.h5" --force >/dev/null 2>&1 \
    || fail "score of the $name lines"
  "$PY" - "$WORK/subset.h5" "$name" "$n_pairs" "$tdcone" "$cond" <<'PY' || fail "/labels row $name differs from scoring its lines"
import sys, h5py
path, name, n_pairs, tdcone, cond = sys.argv[1:]
with h5py.File(path, "r") as f:
    c = f["corpus"].attrs
    assert int(c["n_pairs"]) == int(n_pairs), (name, c["n_pairs"], n_pairs)
    assert abs(c["tdcone"] - float(tdcone)) <= 1e-12, (name, c["tdcone"], tdcone)
    assert abs(c["cond_entropy"] - float(cond)) <= 1e-12 * max(1, abs(float(cond))), (name, c["cond_entropy"], cond)
PY
done <"$WORK/rows.txt"
echo "ok: every /labels row equals score on its lines alone (1e-12)"

# /balance and /combinations are consistent; joint keeps the rarest size
# above the floor; the export of the kept lines has those label counts.
"$PY" - "$WORK/joint-2.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    b, c = f["balance"], f["combinations"]
    assert list(b.keys()) == ["pair_id", "combination", "kept", "rank_in_combination", "flags"], list(b.keys())
    assert list(c.keys()) == ["combination", "before", "target", "after", "under_represented"], list(c.keys())
    assert len(b["pair_id"]) == f.attrs["n_lines"] == 30000
    names, before, after = c["combination"].asstr()[()], c["before"][()], c["after"][()]
    share = before / before.sum()
    eligible = share >= 0.1
    assert (after[eligible] == before[eligible].min()).all() and (after[~eligible] == before[~eligible]).all(), (before, after)
    assert (c["under_represented"][()] == ~eligible).all()
    combination, kept, rank = b["combination"].asstr()[()], b["kept"][()], b["rank_in_combination"][()]
    for name, n_after, n_before in zip(names, after, before):
        mine = combination == name
        assert mine.sum() == n_before and kept[mine].sum() == n_after
        assert sorted(rank[mine].tolist()) == list(range(1, int(n_before) + 1))   # a permutation within the combination
        # lowest pair TD-CONE first (NaN never in a combination: bad lines have none)
        tdcone = f["pairs/tdcone"][()][mine]
        assert tdcone[kept[mine] == 1].max() <= tdcone[kept[mine] == 0].min() if n_after < n_before else True
    assert ((b["flags"][()] & 16) != 0).sum() + ((b["flags"][()] & 1) != 0).sum() + len(combination[combination != ""]) == 30000
    assert f["balance"].attrs["share_std_after"] < f["balance"].attrs["share_std_before"]
    assert "labels" in f and "pairs" in f and "corpus" in f
PY
"$TDCONE" export "$WORK/joint-2.h5" --group balance --where 'kept==1' --lines-only --output "$WORK/kept.tsv"
"$PY" - "$WORK/joint-2.h5" "$WORK/kept.tsv" <<'PY'
import sys, h5py, collections
with h5py.File(sys.argv[1], "r") as f:
    want = dict(zip(f["combinations/combination"].asstr()[()], f["combinations/after"][()]))
got = collections.Counter()
for line in open(sys.argv[2], encoding="utf-8"):
    c = line.rstrip("\n").split("\t")
    v = float(c[4])
    got["low" if v < 0.3 else "mid" if v < 0.7 else "high", c[5]] += 1
assert {f"{a}|{b}": n for (a, b), n in got.items()} == {k: v for k, v in want.items() if v}, (got, want)
PY
echo "ok: /balance, /combinations and the exported subset agree"

# Rankings from a result: a score result gives the same /balance as scoring
# in the balance run; a select result ranks by cynical rank; another corpus is refused.
run_mpi 2 score --input "$WORK/c.tsv" --score-col 3 --quiet --output "$WORK/scores.h5" >/dev/null 2>&1
run_mpi 3 balance --input "$WORK/c.tsv" --score-col 3 "${LABELS[@]}" --mode joint --min-share 0.1 --ranking "$WORK/scores.h5" \
  --quiet --output "$WORK/from-file.h5" >/dev/null 2>&1 || fail "balance --ranking a score result"
"$PY" - "$WORK/joint-1.h5" "$WORK/from-file.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    for name in ["pair_id", "combination", "kept", "rank_in_combination", "flags"]:
        assert (a["balance"][name][()] == b["balance"][name][()]).all(), name
    assert "pairs" not in b and "labels" not in b
PY
run_mpi 2 select --representative "$WORK/reference.tsv" --available "$WORK/c.tsv" --quiet --output "$WORK/sel.h5" >/dev/null 2>&1
run_mpi 2 balance --input "$WORK/c.tsv" --score-col 3 "${LABELS[@]}" --rank-by cynical --ranking "$WORK/sel.h5" --quiet \
  --output "$WORK/cyn.h5" >/dev/null 2>&1 || fail "balance --rank-by cynical"
"$PY" - "$WORK/cyn.h5" "$WORK/sel.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as b, h5py.File(sys.argv[2], "r") as s:
    assert len(s["selection/pair_id"]) == 30000
    rank = np.zeros(30000, dtype=np.uint64)
    rank[s["selection/pair_id"][()]] = s["selection/rank"][()]
    comb, kept = b["balance/combination"].asstr()[()], b["balance/kept"][()]
    for name in set(comb) - {""}:
        mine = comb == name
        if kept[mine].all(): continue
        assert rank[mine & (kept == 1)].max() < rank[mine & (kept == 0)].min(), name
PY
head -n 20000 "$WORK/c.tsv" >"$WORK/other.tsv"
expect_failure 2 "was not computed on this corpus" -- "$TDCONE" balance --input "$WORK/other.tsv" --score-col 3 "${LABELS[@]}" \
  --ranking "$WORK/scores.h5" --output "$WORK/x.h5"
[ ! -e "$WORK/x.h5" ] || fail "a refused ranking left an output"
echo "ok: --ranking from a score or select result, another corpus refused"

# JSONL labels (a number and a string) give what TSV labels give.
"$TDCONE" synth --pairs 3000 --seed 23 --vocabulary 2000 --junk-fraction 0 --output "$WORK/small.tsv" 2>/dev/null
"$PY" - "$WORK/small.tsv" "$WORK/small-labels.tsv" "$WORK/small.jsonl" <<'PY'
import sys, json
with open(sys.argv[1], encoding="utf-8") as src, open(sys.argv[2], "w", encoding="utf-8") as tsv, \
        open(sys.argv[3], "w", encoding="utf-8") as js:
    for i, line in enumerate(src):
        s, t, score, ident = line.rstrip("\n").split("\t")
        f, a = round((len(s) * 37 + i) % 100 / 100, 2), ["aroused", "calm", "calm"][len(t) % 3]
        tsv.write(f"{s}\t{t}\t{score}\t{ident}\t{f}\t{a}\n")
        js.write(json.dumps({"src": s, "tgt": t, "score": float(score), "formality": f, "arousal": a}) + "\n")
PY
run_mpi 2 balance --input "$WORK/small-labels.tsv" --score-col 3 "${LABELS[@]}" --mode marginal --quiet --output "$WORK/t.h5" >/dev/null
run_mpi 3 balance --input "$WORK/small.jsonl" --format jsonl --score-field score --label-fields formality,arousal \
  --label-buckets formality=0.3,0.7 --mode marginal --quiet --output "$WORK/j.h5" >/dev/null
"$PY" "$HERE/compare_h5.py" "$WORK/t.h5" "$WORK/j.h5" || fail "JSONL labels differ from TSV labels"
echo "ok: JSONL labels equal TSV labels"

#!/usr/bin/env bash
# --memory (docs/spec.md §9): two very different budgets give the same bits on 1-4
# ranks; a budget too small for the shares or for the matrix stops every
# rank early with exit status 2, what it needs, and no output file.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 60000 --seed 5 --output corpus.tsv >/dev/null 2>&1
"$TDCONE" synth --pairs 500 --seed 5 --first-pair 60000 --junk-fraction 0 --output reference.tsv >/dev/null 2>&1

# 96 MiB and 100 KiB rounds: many of them; the default budget and round size: about eight.
check_ranks small score --input corpus.tsv --score-col 3 --reference reference.tsv --shards 3 --memory 96M --round-size 100k
run_mpi 2 score --input corpus.tsv --score-col 3 --reference reference.tsv --shards 3 --output default.h5 >/dev/null 2>&1 \
  || fail "default budget"
"$PY" "$HERE/compare_h5.py" small-1.h5 default.h5 || fail "--memory 96M and the default budget differ"
sweep=(sweep --input corpus.tsv --score-col 3 --reference reference.tsv --thresholds 0.3,0.5,0.7 --sample 20000)
check_ranks sweep-small "${sweep[@]}" --memory 96M --round-size 100k
run_mpi 3 "${sweep[@]}" --output sweep-default.h5 >/dev/null 2>&1 || fail "sweep with the default budget"
"$PY" "$HERE/compare_h5.py" sweep-small-1.h5 sweep-default.h5 || fail "sweep: small rounds and the default differ"
"$PY" - <<'PY'
import h5py
with h5py.File("small-2.h5", "r") as f:
    assert f.attrs["memory_budget_bytes"] == 96 << 20
    per_rank = [int(x) for x in f.attrs["peak_rss_bytes_per_rank"].split(",")]  # str
    assert len(per_rank) == 2 and max(per_rank) == f.attrs["peak_rss_bytes"] > 0, per_rank
    for phase in ("read", "vocabulary", "align", "score", "rank"):
        assert f.attrs["seconds_" + phase] >= 0
PY
echo "ok: budgets change the rounds, not the results; phase times and peak memory stored"

for n in 1 2 3; do
  expect_failure 2 "does not fit --memory 4 MiB: .*; try --memory [0-9]*M" -- run_mpi "$n" score --input corpus.tsv --memory 4M --output tiny.h5
  [ ! -e tiny.h5 ] && ! ls tiny.h5.partial* >/dev/null 2>&1 || fail "output left by a too-small --memory on $n ranks"
done
expect_failure 2 "alignment matrix does not fit" -- run_mpi 2 score --input corpus.tsv --memory 24M --output tiny.h5
[ ! -e tiny.h5 ] && ! ls tiny.h5.partial* >/dev/null 2>&1 || fail "output left when the matrix did not fit"
echo "ok: too small a budget stops every rank with what it needs"

for bad in abc 0 -5G 12X; do
  expect_failure 2 "--memory: $bad is not a size" -- "$TDCONE" score --input corpus.tsv --memory "$bad" --output bad.h5
  expect_failure 2 "--round-size: $bad is not a size" -- "$TDCONE" score --input corpus.tsv --round-size "$bad" --output bad.h5
done
echo "ok: unreadable --memory values are refused"

#!/usr/bin/env bash
# Benchmark of `tdcone select` (issue: 1M AVAIL lines, 20k REPR lines, batch
# mode, 1 and 2 ranks) and its quality on topical data: H of the selected
# prefix against a random order at 1, 5, 10 and 25% of AVAIL. Also one-by-one
# selection (--no-batch) of the first NO_BATCH_LINES (400k) lines on 2 ranks.
# Prints one JSON object. Usage: bench/select.sh [AVAIL_LINES] [REPR_LINES]
set -euo pipefail
source "$(dirname "$0")/common.sh"
avail_lines=${1:-1000000}
repr_lines=${2:-20000}
no_batch_lines=${NO_BATCH_LINES:-400000}

# The paraphrase profile: the shape the README's selection figures were measured on.
profile=${PROFILE:-paraphrase}
"$tdcone" synth --profile "$profile" --pairs "$avail_lines" --seed 1 --output "$work/avail.tsv" --force 2>/dev/null
"$tdcone" synth --profile "$profile" --pairs "$repr_lines" --seed 1 --first-pair 100000000 --junk-fraction 0 \
  --output "$work/repr.tsv" --force 2>/dev/null

select=(select --representative "$work/repr.tsv" --side tgt)
read -r s1 m1 < <(timed_mpi 1 select-1 "${select[@]}" --available "$work/avail.tsv")
read -r s2 m2 < <(timed_mpi 2 select-2 "${select[@]}" --available "$work/avail.tsv")
head -n "$no_batch_lines" "$work/avail.tsv" >"$work/avail-head.tsv"
read -r s_nb m_nb < <(timed_mpi 2 no-batch "${select[@]}" --available "$work/avail-head.tsv" --no-batch)

# Quality: REPR from 2 of 20 topics, AVAIL from all of them.
/usr/bin/python3 "$root/bench/topical_corpus.py" "$work/topic-repr.txt" 2000 2 1
/usr/bin/python3 "$root/bench/topical_corpus.py" "$work/topic-avail.txt" 100000 20 2
mpirun -n 2 --oversubscribe "$tdcone" select --representative "$work/topic-repr.txt" --available "$work/topic-avail.txt" \
  --output "$work/topic.h5" --force >/dev/null 2>&1

/usr/bin/python3 - "$work" "$s1" "$s2" "$m1" "$m2" "$avail_lines" "$repr_lines" "$s_nb" "$m_nb" "$no_batch_lines" <<'PY'
import json, math, random, sys, h5py
work, s1, s2, m1, m2, avail_lines, repr_lines, s_nb, m_nb, no_batch_lines = sys.argv[1:]
s1, s2, s_nb = float(s1), float(s2), float(s_nb)
same = h5py.File(f"{work}/select-1.h5", "r")["selection/pair_id"][()].tolist() == \
       h5py.File(f"{work}/select-2.h5", "r")["selection/pair_id"][()].tolist()
with h5py.File(f"{work}/select-2.h5", "r") as f:
    stop_synth = int(f["selection"].attrs["stop_rank"])

# H of REPR under the add-0.01 unigram model of a prefix, from the text (whitespace words).
repr_counts = {}
for line in open(f"{work}/topic-repr.txt"):
    for w in line.split():
        repr_counts[w] = repr_counts.get(w, 0) + 1
avail = [line.split() for line in open(f"{work}/topic-avail.txt")]
lexicon = set(repr_counts) | {w for words in avail for w in words}
repr_total = sum(repr_counts.values())
def entropy(order, n):
    counts, tokens = {}, 0
    for i in order[:n]:
        for w in avail[i]:
            counts[w] = counts.get(w, 0) + 1
        tokens += len(avail[i])
    denominator = tokens + 0.01 * len(lexicon)
    return -sum(c / repr_total * math.log((counts.get(w, 0) + 0.01) / denominator) for w, c in repr_counts.items())
with h5py.File(f"{work}/topic.h5", "r") as f:
    s = f["selection"]
    order, h = s["pair_id"][()].tolist(), s["cross_entropy"][()]
    stop = int(s.attrs["stop_rank"])
random_order = list(range(len(avail)))
random.Random(1).shuffle(random_order)
quality = {}
for fraction in (0.01, 0.05, 0.10, 0.25):
    n = int(fraction * len(avail))
    quality[f"{int(fraction * 100)}%"] = {"lines": n, "h_selected": round(float(h[n - 1]), 5),
                                          "h_selected_recomputed": round(entropy(order, n), 5),
                                          "h_random": round(entropy(random_order, n), 5)}
print(json.dumps({
    "benchmark": "select", "avail_lines": int(avail_lines), "repr_lines": int(repr_lines), "batch": True,
    "ranks_1": {"seconds": round(s1, 2), "lines_per_second": round(int(avail_lines) / s1), "peak_rss_mb": [int(x) for x in m1.split(",")]},
    "ranks_2": {"seconds": round(s2, 2), "lines_per_second": round(int(avail_lines) / s2), "peak_rss_mb": [int(x) for x in m2.split(",")]},
    "speedup_1_to_2": round(s1 / s2, 3), "same_ranking_1_and_2_ranks": same, "stop_rank": stop_synth,
    "no_batch_ranks_2": {"avail_lines": int(no_batch_lines), "seconds": round(s_nb, 2),
                         "lines_per_second": round(int(no_batch_lines) / s_nb), "peak_rss_mb": [int(x) for x in m_nb.split(",")]},
    "quality_topical": {"avail_lines": len(avail), "stop_rank": stop, "prefix": quality},
}, indent=2))
PY

#!/usr/bin/env bash
# Benchmark of the ways results leave tdcone, on a Twitter-shaped corpus
# scored on 2 ranks: `tdcone export` of /pairs as TSV, as JSON lines with the
# text (plain and .zst), --lines-only, and a sorted top-N with text; and
# `tdcone_frame.read_frame` (h5py + pandas). Prints one JSON object: per
# export its wall time, peak RSS and output bytes.
# Usage: bench/export.sh [PAIRS] [PROFILE]
set -euo pipefail
source "$(dirname "$0")/common.sh"
pairs=${1:-2800000}
profile=${2:-twitter}

corpus="$work/corpus.tsv"
"$tdcone" synth --profile "$profile" --pairs "$pairs" --seed 1 --output "$corpus" --force 2>/dev/null
read -r score_s score_mb < <(timed_mpi 2 scores score --input "$corpus" --score-col 3 --id-col 4 --quiet)
result="$work/scores.h5"

# timed NAME OUTPUT COMMAND...: prints "NAME seconds rss_mb output_bytes".
timed() {
  local name=$1 output=$2 start seconds
  shift 2
  start=$(now)
  /usr/bin/time -f "%M" -o "$work/rss-$name" "$@" >/dev/null 2>"$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
  seconds=$(echo "$(now) - $start" | bc)
  echo "$name $seconds $(( $(tail -n1 "$work/rss-$name") / 1024 )) $(stat -c %s "$output" 2>/dev/null || echo 0)"
}
runs=(
  "$(timed tsv "$work/p.tsv" "$tdcone" export "$result" --output "$work/p.tsv" --force)"
  "$(timed jsonl_text "$work/p.jsonl" "$tdcone" export "$result" --to jsonl --text --output "$work/p.jsonl" --force)"
  "$(timed jsonl_text_zst "$work/p.jsonl.zst" "$tdcone" export "$result" --to jsonl --text --output "$work/p.jsonl.zst" --force)"
  "$(timed lines_only "$work/lines.tsv" "$tdcone" export "$result" --lines-only --output "$work/lines.tsv" --force)"
  "$(timed top_sorted_text "$work/top.jsonl" "$tdcone" export "$result" --to jsonl --text --where 'score>=0.5' \
      --sort-by tdcone --top 100000 --output "$work/top.jsonl" --force)"
  "$(timed read_frame "$work/none" /usr/bin/python3 -c "import sys; sys.path.insert(0, '$root/scripts')
from tdcone_frame import read_frame
print(len(read_frame('$result')))")"
)

/usr/bin/python3 - "$pairs" "$profile" "$(stat -c %s "$corpus")" "$score_s" "$score_mb" "${runs[@]}" <<'PY'
import json, sys
pairs, profile, corpus_bytes, score_s, score_mb = sys.argv[1:6]
result = {"benchmark": "export", "profile": profile, "pairs": int(pairs), "corpus_bytes": int(corpus_bytes),
          "score_2_ranks": {"seconds": round(float(score_s), 2), "peak_rss_mb": [int(m) for m in score_mb.split(",")]},
          "exports": {}}
for run in sys.argv[6:]:
    name, seconds, rss, size = run.split()
    result["exports"][name] = {"seconds": round(float(seconds), 2), "peak_rss_mb": int(rss), "output_bytes": int(size)}
print(json.dumps(result, indent=1))
PY

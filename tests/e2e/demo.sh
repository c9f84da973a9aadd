#!/usr/bin/env bash
# The README's main command, scripts/demo.sh, on a small corpus with this
# build: it exits 0 and prints the summary, then a header and five rows whose
# columns are the ones it names (it once picked columns by position and broke
# when /pairs gained columns). CI runs it as written, with its own build.
source "$(dirname "$0")/lib.sh"
TDCONE=$TDCONE PAIRS=5000 OUT="$WORK/demo" bash "$HERE/../../scripts/demo.sh" >"$WORK/demo.txt" 2>&1 ||
  { cat "$WORK/demo.txt"; fail "scripts/demo.sh"; }
grep -q '^  TD-CONE ' "$WORK/demo.txt" || fail "no summary: $(cat "$WORK/demo.txt")"
sed -n '/^pair_id\ttdcone\tscore\tsrc\ttgt$/,$p' "$WORK/demo.txt" >"$WORK/rows.txt"
[ "$(wc -l <"$WORK/rows.txt")" -eq 6 ] || fail "not a header and five rows: $(cat "$WORK/demo.txt")"
# Every row: an integer pair_id, TD-CONE 0 (the five lowest of this corpus),
# a score in [0,1] and two non-empty texts.
awk -F'\t' 'NR > 1 && !($1 ~ /^[0-9]+$/ && $2 == 0 && $3 >= 0 && $3 <= 1 && $4 != "" && $5 != "") { bad = 1 }
            END { exit bad }' "$WORK/rows.txt" || fail "rows: $(cat "$WORK/rows.txt")"
echo "ok: the demo prints its summary and five rows"

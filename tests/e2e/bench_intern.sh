#!/usr/bin/env bash
# bench/intern.sh on a corpus counted by hand: the words and vocabulary it
# reports are those of the corpus's sides (a src that repeats the line
# before's is not counted again, as the read skips it), and those of the hot
# set are the first lines' sides repeated to as many bytes; a line whose score
# the read rejects is skipped, as the read skips it; a missing corpus is an
# error naming it.
source "$(dirname "$0")/lib.sh"
root=$(cd "$HERE/../.." && pwd)
# Sides: "a b c", "A b", ("a b c" again: skipped), "d e", "x y", "x": 15 bytes,
# 10 words, 7 types (case folded). The first line's sides repeated to 15
# bytes or more: "a b c", "A b", "a b c", "A b": 10 words, 3 types. The last
# line, whose score is no number, adds no side.
printf 'a b c\tA b\t0.5\tp1\na b c\td e\t0.1\tp2\nx y\tx\t0.9\tp3\nq r\ts\tnan-ish\tp4\n' >"$WORK/c.tsv"
BUILD="$BUILD" bash "$root/bench/intern.sh" "$WORK/c.tsv" 2 1 >"$WORK/intern.json" 2>"$WORK/intern.err" \
  || { cat "$WORK/intern.err"; fail "bench/intern.sh exited non-zero"; }
"$PY" - "$WORK/intern.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["run"]
def check(ok, what):
    if not ok:
        sys.exit(f"FAIL: {what}: {json.dumps(d)}")
check(d["sides"] == 5 and d["hot_lines"] == 1, "sides and hot lines")
check((d["corpus"]["words"], d["corpus"]["vocabulary"]) == (10, 7), "the corpus's words and types")
check((d["hot"]["words"], d["hot"]["vocabulary"]) == (10, 3), "the hot set's words and types")
for name in ("corpus", "hot"):
    e = d[name]
    check(e["tokenize_seconds"] >= 0 and e["intern_seconds"] >= 0 and e["ns_per_word"] == round(e["ns_per_word"], 2), f"{name} timings")
PY
expect_failure 1 "cannot open $WORK/missing.tsv" -- env BUILD="$BUILD" bash "$root/bench/intern.sh" "$WORK/missing.tsv"
echo "ok: bench/intern.sh counts the corpus's words and types"

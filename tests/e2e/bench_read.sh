#!/usr/bin/env bash
# bench/read.sh on a corpus counted by hand: the lines, the sides' types and
# the vocabulary it reports are the corpus's (a src that repeats the line
# before's is stored once), with SHARES=2 each share's own; a missing or
# empty corpus and a bad argument are errors, never a broken JSON object.
source "$(dirname "$0")/lib.sh"
root=$(cd "$HERE/../.." && pwd)
# Sides: "a b c" (3 types), "A b" (2, case folded), ("a b c" again: stored
# once), "d e" (2), "x y" (2), "x" (1): 10 side types, 7 words.
# Two shares: the first two lines (a b c d e: 7 side types, 5 words), the last (3, 2).
printf 'a b c\tA b\t0.5\tp1\na b c\td e\t0.1\tp2\nx y\tx\t0.9\tp3\n' >"$WORK/c.tsv"
BUILD="$BUILD" bash "$root/bench/read.sh" "$WORK/c.tsv" 2 >"$WORK/read.json" 2>"$WORK/read.err" \
  || { cat "$WORK/read.err"; fail "bench/read.sh exited non-zero"; }
SHARES=2 BUILD="$BUILD" bash "$root/bench/read.sh" "$WORK/c.tsv" 1 >"$WORK/shares.json" 2>"$WORK/shares.err" \
  || { cat "$WORK/shares.err"; fail "SHARES=2 bench/read.sh exited non-zero"; }
"$PY" - "$WORK/read.json" "$WORK/shares.json" <<'PY'
import json, sys
one = json.load(open(sys.argv[1]))["run"]
shares = json.load(open(sys.argv[2]))["run"]["shares"]
def check(ok, what, d):
    if not ok:
        sys.exit(f"FAIL: {what}: {json.dumps(d)}")
check((one["lines"], one["side_types"], one["vocabulary"]) == (3, 10, 7), "the corpus's lines, side types and words", one)
check(one["seconds"] >= 0 and one["mb_per_s"] >= 0, "the timings", one)
got = [(s["share"], s["lines"], s["side_types"], s["vocabulary"]) for s in shares]
check(got == [(0, 2, 7, 5), (1, 1, 3, 2)], "each share's lines, side types and words", shares)
PY
expect_failure 1 "cannot open $WORK/missing.tsv" -- env BUILD="$BUILD" bash "$root/bench/read.sh" "$WORK/missing.tsv"
: >"$WORK/empty.tsv"
expect_failure 1 "no line in $WORK/empty.tsv" -- env BUILD="$BUILD" bash "$root/bench/read.sh" "$WORK/empty.tsv"
expect_failure 2 "PASSES and SHARES are numbers" -- env BUILD="$BUILD" bash "$root/bench/read.sh" "$WORK/c.tsv" two
echo "ok: bench/read.sh counts the corpus's lines, side types and words"

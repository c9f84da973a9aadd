#!/usr/bin/env bash
# bench/asm_costs.py, which reads a loop's cost off its assembly: on a real
# callgrind profile of a small score run, the counts it prints for a function
# must add up to the total it prints, that total must be the function's own
# count as callgrind_annotate gives it, and a function the profile does not
# hold must be an error, not an empty listing.
source "$(dirname "$0")/lib.sh"
root=$(cd "$HERE/../.." && pwd)
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || { echo "skip: no valgrind"; exit 77; }
"$TDCONE" synth --pairs 300 --seed 1 --output "$WORK/c.tsv" --quiet
valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$WORK/cg.out" \
  "$TDCONE" score --input "$WORK/c.tsv" --score-col 3 --quiet --progress-every 0 --output "$WORK/c.h5" \
  >"$WORK/valgrind.log" 2>&1 || { cat "$WORK/valgrind.log"; fail "the score run under callgrind"; }
function=Vocabulary::intern
"$PY" "$root/bench/asm_costs.py" "$WORK/cg.out" "$TDCONE" "$function" >"$WORK/asm.txt" || fail "asm_costs.py exited $?"
expected=$(callgrind_annotate --threshold=100 "$WORK/cg.out" 2>/dev/null | grep "$function" | awk '{gsub(",", "", $1); s += $1} END {print s + 0}')
"$PY" - "$WORK/asm.txt" "$expected" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
total = int(lines[0].split()[0].replace(",", ""))
counts = [int(l.split()[0].replace(",", "")) for l in lines[1:]]
if total <= 0 or sum(counts) != total:
    sys.exit(f"FAIL: printed counts add up to {sum(counts)}, the total says {total}")
if total != int(sys.argv[2]):
    sys.exit(f"FAIL: total {total}, callgrind_annotate's self count {sys.argv[2]}")
if sum(1 for c in counts if c > 0) < 10:
    sys.exit("FAIL: fewer than ten instructions with a count")
PY
expect_failure 1 "no instruction of a function named like" -- "$PY" "$root/bench/asm_costs.py" "$WORK/cg.out" "$TDCONE" no_such_function
echo "ok: bench/asm_costs.py counts add up to the function's own"

#!/usr/bin/env bash
# tdcone sweep over a pair's diversity (--sweep-by bleu|unigram_precision|len_ratio, --below):
# the same on 1-4 ranks, and each subset S_t scores as a separate run on the
# lines export --where picks out of a plain score (every line accounted for).
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 6000 --seed 21 --output corpus.tsv 2>/dev/null
check_ranks bleu sweep --input corpus.tsv --sweep-by bleu --below --thresholds 0,0.05,0.2
check_ranks ratio sweep --input corpus.tsv --sweep-by len_ratio --thresholds 1.5,3 --sample 1500 --seed 4
"$TDCONE" score --input corpus.tsv --output plain.h5 >/dev/null 2>&1 || fail "plain score"

# S_t of a sweep against `export --where` on the plain score, then a score of those lines.
subset_matches() {  # SWEEP.h5 ROW CONDITION
  "$TDCONE" export plain.h5 --where "$3" --lines-only --input corpus.tsv --output "subset-$2.tsv" \
    || fail "export --where '$3'"
  "$TDCONE" score --input "subset-$2.tsv" --output "subset-$2.h5" >/dev/null 2>&1 || fail "score of '$3'"
  "$PY" - "$1" "$2" "subset-$2.h5" "$3" <<'PY' || fail "sweep row $2 is not the score of '$3'"
import sys, h5py
sweep, row, subset, condition = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
with h5py.File(sweep, "r") as f, h5py.File(subset, "r") as g:
    s, c = f["sweep"], g["corpus"].attrs
    assert s["n_pairs"][row] == s["n_sampled"][row] == g.attrs["n_scored"], (s["n_pairs"][row], g.attrs["n_scored"])
    for column in ("tdcone", "bleu", "unigram_precision"):
        assert s[column][row] == c[column], (condition, column, s[column][row], c[column])
    lines = int(g.attrs["n_scored"])
print(f"ok: S_t of '{condition}' scores as its {lines} lines do alone")
PY
}
subset_matches bleu-1.h5 1 'bleu<=0.05'
subset_matches bleu-1.h5 2 'bleu<=0.2'

"$PY" - bleu-1.h5 ratio-1.h5 plain.h5 <<'PY' || fail "/sweep of --sweep-by"
import sys, h5py, numpy as np
with h5py.File(sys.argv[3], "r") as f:
    p = f["pairs"]
    scored = (p["flags"][()] & 1) == 0
    bleu, ratio = p["bleu"][()][scored], p["len_ratio"][()][scored]
for path, by, direction, values, test in ((sys.argv[1], "bleu", "<=", bleu, np.less_equal),
                                          (sys.argv[2], "len_ratio", ">=", ratio, np.greater_equal)):
    with h5py.File(path, "r") as f:
        s = f["sweep"]
        assert (s.attrs["sweep_by"], s.attrs["direction"]) == (by, direction), dict(s.attrs)
        with np.errstate(invalid="ignore"):  # NaN (an empty output) is in no S_t
            want = [int(test(values, t).sum()) for t in s["threshold"][()]]
        assert list(s["n_pairs"][()]) == want, (by, list(s["n_pairs"][()]), want)
print("ok: /sweep records what was swept, and |S_t| counts the pairs whose value passes")
PY

expect_failure 2 "sweep-by" -- "$TDCONE" sweep --input corpus.tsv --sweep-by tdcone --thresholds 0.5 --output x.h5
expect_failure 2 "or sweep a pair's diversity (--sweep-by" -- "$TDCONE" sweep --input corpus.tsv --thresholds 0.5 --output x.h5
echo "ok: a bad --sweep-by, and a score sweep without a score, are refused"

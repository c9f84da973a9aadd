#!/usr/bin/env bash
# Lexical diversity (issue 22): /pairs bleu, unigram_precision, len_ratio and
# markers, /corpus and every subset table's bleu and unigram_precision, and
# score --length-buckets' /lengths, recomputed here from the text in Python
# (whitespace tokens, case kept: no tokenizer to imitate); then the same
# results, and a sweep's, bitwise identical on 1-4 ranks.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
"$TDCONE" synth --pairs 3000 --seed 5 --output tw.tsv --quiet
# Hand-made lines: markers on either side, copies, empty sides, a long copy
# (its matches kept beside the packed ones), a repeated input; score 0.5.
long=$(for i in $(seq 300); do printf 'w%d ' $((i % 7)); done)
printf '%s\t0.5\n' \
  $'see http://x.org now\t@bob says #tag ?' \
  $'why ?  \tok' \
  $'mail a@b.com\tC# code' \
  $'a b c\ta b c' \
  $'\t' \
  $'a b\t' \
  $'\tb' \
  "$long"$'\t'"$long" \
  $'the cat the\tthe the the' \
  $'the cat the\tcat' >>tw.tsv
"$TDCONE" score --input tw.tsv --score-col 3 --tokenizer whitespace --no-lowercase --shards 3 \
  --length-buckets 5,10,20 --output s.h5 >summary.txt 2>/dev/null || fail "score"
grep -q "^  BLEU " summary.txt || fail "the summary has no BLEU: $(cat summary.txt)"
grep -q "^  > 20 " summary.txt || fail "the summary has no length table: $(cat summary.txt)"
"$PY" - s.h5 tw.tsv <<'PY'
import math, re, sys, h5py, numpy as np
from collections import Counter
f = h5py.File(sys.argv[1], "r")
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
P = f["pairs"]
flags, markers = P["flags"][()], P["markers"][()]
assert markers.dtype == np.uint16, markers.dtype
def ngrams(words, n): return Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))
def word_start(text, i): return i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
def side(text):
    bits = 1 if re.search(r"(?<![\w])(https?://|www\.)", text, re.I) else 0
    for bit, char in ((2, "@"), (4, "#")):
        if any(c == char and word_start(text, i) and i + 1 < len(text) and (text[i + 1].isalnum() or text[i + 1] == "_")
               for i, c in enumerate(text)): bits |= bit
    return bits | (8 if text.rstrip().endswith("?") else 0)
sums = {}  # subset key -> [m1..m4, c1..c4]
def add(key, m, t):
    s = sums.setdefault(key, [0] * 8)
    for n in range(4): s[n] += m[n]; s[4 + n] += max(t - n, 0)
def bleu(s):
    if s[4] == 0: return math.nan
    if min(s[:4]) == 0: return 0.0
    return math.exp(sum(math.log(s[n] / s[4 + n]) for n in range(4)) / 4)
def close(got, want):
    return (math.isnan(want) and math.isnan(got)) or got == want or abs(got - want) <= 1e-12 * abs(want)
shard, bounds, src_len = P["shard"][()], [5, 10, 20], P["src_len"][()]
for i, line in enumerate(lines):
    if flags[i] & 1:
        assert markers[i] == 0 and math.isnan(P["bleu"][i]) and math.isnan(P["len_ratio"][i]), i
        continue
    src_text, tgt_text = line.split("\t")[:2]
    src, tgt = src_text.split(), tgt_text.split()
    m = [sum(min(c, ngrams(src, n)[g]) for g, c in ngrams(tgt, n).items()) for n in range(1, 5)]
    t = len(tgt)
    expect_bleu = math.nan if t == 0 else 0.0 if m[0] == 0 else math.exp(
        (math.log(m[0] / t) + sum(math.log((m[n] + 1) / (max(t - n, 0) + 1)) for n in range(1, 4))) / 4)
    lo, hi = min(len(src), t), max(len(src), t)
    expect_ratio = math.nan if hi == 0 else math.inf if lo == 0 else hi / lo
    expect_markers = side(src_text) | side(tgt_text) << 4 | (256 if src == tgt else 0)
    for name, want in (("bleu", expect_bleu), ("unigram_precision", m[0] / t if t else math.nan),
                       ("len_ratio", expect_ratio)):
        got = P[name][i]
        assert close(got, want), (i, name, got, want)
    assert markers[i] == expect_markers, (i, line, markers[i], expect_markers)
    add("corpus", m, t)
    add(("shard", shard[i]), m, t)
    add(("length", sum(len(src) > b for b in bounds)), m, t)
C = f["corpus"].attrs
assert close(C["bleu"], bleu(sums["corpus"])) and close(C["unigram_precision"], sums["corpus"][0] / sums["corpus"][4])
for k in range(3):
    s = sums[("shard", k)]
    assert close(f["shards/bleu"][k], bleu(s)) and close(f["shards/unigram_precision"][k], s[0] / s[4]), k
L = f["lengths"]
assert list(L["max_src_len"][()]) == bounds + [2**64 - 1], L["max_src_len"][()]
assert L["n_pairs"][()].sum() == f["corpus"].attrs["n_pairs"]
for k in range(4):
    s = sums.get(("length", k), [0] * 8)
    assert close(L["bleu"][k], bleu(s)), (k, L["bleu"][k], bleu(s))
    assert close(L["unigram_precision"][k], s[0] / s[4] if s[4] else math.nan), k
    want = sum(1 for i in range(len(lines)) if not flags[i] & 1 and sum(int(src_len[i]) > b for b in bounds) == k)
    assert L["n_pairs"][k] == want, (k, L["n_pairs"][k], want)
hand = len(lines) - 10
assert not (flags[hand:] & 1).any(), flags[hand:]
assert markers[hand] == 1 | (2 | 4 | 8) << 4, markers[hand]
assert markers[hand + 1] == 8 and markers[hand + 2] == 0 and markers[hand + 3] == 256 and markers[hand + 4] == 256
assert math.isinf(P["len_ratio"][hand + 5]) and math.isnan(P["len_ratio"][hand + 4])
assert P["bleu"][hand + 7] == 1.0 and P["unigram_precision"][hand + 8] == 2 / 3
print("ok: every diversity value as recomputed from the text")
PY

"$TDCONE" synth --pairs 4000 --seed 6 --labels --output lab.tsv --quiet
"$TDCONE" synth --pairs 300 --first-pair 4000 --seed 6 --output ref.tsv --quiet
check_ranks lengths score --input tw.tsv --score-col 3 --shards 3 --length-buckets 5,10,20 --reference ref.tsv
check_ranks labels score --input lab.tsv --label-cols 5,6 --label-buckets col5=0.5 --by-label --length-buckets 0,12
check_ranks sweep sweep --input tw.tsv --score-col 3 --thresholds 0.3,0.6 --sample 500
"$PY" - "$WORK/lengths-1.h5" "$WORK/labels-1.h5" "$WORK/sweep-1.h5" <<'PY'
import sys, h5py
for path, groups in zip(sys.argv[1:], (("shards", "lengths"), ("labels", "lengths"), ("sweep",))):
    with h5py.File(path, "r") as f:
        for name in ("bleu", "unigram_precision", "len_ratio", "markers"): assert name in f["pairs"], (path, name)
        assert "bleu" in f["corpus"].attrs and "unigram_precision" in f["corpus"].attrs, path
        for g in groups: assert "bleu" in f[g] and "unigram_precision" in f[g], (path, g)
print("ok: every table has the diversity columns")
PY

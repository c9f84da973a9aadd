#!/usr/bin/env bash
# The multi-style balancing paper's Table 1 (Formality x Arousal): from a
# corpus with 35,610 / 11,448 / 5,228 / 3,395 lines per combination, balance
# keeps 4 x 3,395 (joint) and the skewed set of the same size keeps
# 8,685 / 2,792 / 1,275 / 828; the same on 1-4 ranks.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 55681 --seed 41 --vocabulary 3000 --junk-fraction 0 --output "$WORK/raw.tsv" 2>/dev/null
# Line i gets a combination by a permutation of the line numbers (7919 is prime), so each combination is spread over the file.
awk -F'\t' 'BEGIN { OFS = "\t" }
  { r = ((NR - 1) * 7919) % 55681
    c = r < 35610 ? "formal\taroused" : r < 47058 ? "formal\tcalm" : r < 52286 ? "informal\taroused" : "informal\tcalm"
    print $1, $2, $3, $4, c }' "$WORK/raw.tsv" >"$WORK/c.tsv"
OPTIONS=(--input "$WORK/c.tsv" --score-col 3 --label-cols 5,6 --label-names formality,arousal --rank-by random --seed 7)

check_ranks balanced balance "${OPTIONS[@]}" --mode joint
check_ranks skewed balance "${OPTIONS[@]}" --mode skewed
"$PY" - "$WORK/balanced-1.h5" "$WORK/skewed-1.h5" <<'PY'
import sys, h5py, numpy as np
expected = {"balanced": [3395, 3395, 3395, 3395], "skewed": [8685, 2792, 1275, 828]}
for path, kind in zip(sys.argv[1:], ["balanced", "skewed"]):
    with h5py.File(path, "r") as f:
        c = f["combinations"]
        assert list(c["combination"].asstr()[()]) == ["formal|aroused", "formal|calm", "informal|aroused", "informal|calm"]
        assert list(c["before"][()]) == [35610, 11448, 5228, 3395]
        assert list(c["after"][()]) == expected[kind], (kind, list(c["after"][()]))
        assert not c["under_represented"][()].any()
        b = f["balance"]
        assert b.attrs["n_kept"] == 13580 and b["kept"][()].sum() == 13580
        std = b.attrs["share_std_after"]
        assert (std == 0) if kind == "balanced" else abs(std - np.std(np.array(expected[kind]) / 13580)) < 1e-12, std
        print(f"ok: {kind}: {list(c['after'][()])}, std of shares {b.attrs['share_std_before']:.4f} -> {std:.4f}")
PY

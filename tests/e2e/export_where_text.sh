#!/usr/bin/env bash
# export --where on a text column: the kept lines of one judgement of a
# balance result; an exactly balanced set has a share std of exactly 0; export
# refuses a file that is not a tdcone result, as info does.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 3000 --seed 32 --junk-fraction 0 --output "$WORK/synth.tsv" 2>/dev/null
awk -F'\t' 'BEGIN { OFS = "\t" } { n = int($3 * 7); if (n > 6) n = 6; $3 = "(" n ",6)"; print }' \
  "$WORK/synth.tsv" >"$WORK/twitter.tsv"
run_mpi 2 balance --input "$WORK/twitter.tsv" --label-cols 3 --label-names judgement --min-share 0 \
  --output "$WORK/balanced.h5" >/dev/null 2>&1 || fail "balance"

"$TDCONE" export "$WORK/balanced.h5" --group balance --where 'kept==1' --where "combination=='(6,6)'" --lines-only \
  --output "$WORK/kept66.tsv" || fail "export of the kept (6,6) lines"
"$TDCONE" export "$WORK/balanced.h5" --group balance --where 'kept == 1' --where 'combination == "(6,6)"' --lines-only \
  --output "$WORK/kept66-double.tsv" || fail "double quotes"
cmp "$WORK/kept66.tsv" "$WORK/kept66-double.tsv" || fail "single and double quotes differ"
"$TDCONE" export "$WORK/balanced.h5" --group balance --where 'kept==1' --where "combination!='(6,6)'" \
  --output "$WORK/kept-others.tsv" || fail "!="

"$PY" - "$WORK" <<'PY'
import sys, h5py
work = sys.argv[1]
lines = open(f"{work}/twitter.tsv").read().split("\n")[:-1]
with h5py.File(f"{work}/balanced.h5", "r") as f:
    b = f["balance"]
    kept, combination = b["kept"][()], b["combination"].asstr()[()]
    quota = dict(zip(f["combinations/combination"].asstr()[()], f["combinations/after"][()]))
    # Every judgement cut to the rarest one's size: shares exactly equal, so their std is exactly 0.
    assert len(set(quota.values())) == 1, quota
    assert b.attrs["share_std_after"] == 0.0, b.attrs["share_std_after"]
expected = [lines[i] for i in range(len(lines)) if kept[i] == 1 and combination[i] == "(6,6)"]
got = open(f"{work}/kept66.tsv").read().split("\n")[:-1]
assert got == expected, (len(got), len(expected))
assert len(got) == quota["(6,6)"] and all(l.split("\t")[2] == "(6,6)" for l in got)
others = open(f"{work}/kept-others.tsv").read().split("\n")[1:-1]
assert len(others) == sum(quota.values()) - quota["(6,6)"] and all("(6,6)" not in l for l in others)
print("ok: --where \"combination=='(6,6)'\" exports that judgement's kept lines; share_std_after is exactly 0")
PY

expect_failure 2 "holds text: compare it with == or !=" -- \
  "$TDCONE" export "$WORK/balanced.h5" --group balance --where "combination<'(6,6)'"
expect_failure 2 "holds text: quote the value" -- "$TDCONE" export "$WORK/balanced.h5" --group balance --where 'combination==x'
expect_failure 2 "holds numbers: give the value without quotes" -- \
  "$TDCONE" export "$WORK/balanced.h5" --group balance --where "kept=='1'"
echo "ok: text with < and unquoted, numbers quoted, are refused"

"$PY" -c "import h5py; f = h5py.File('$WORK/foreign.h5', 'w'); f['pairs/pair_id'] = [0, 1]"
expect_failure 1 "foreign.h5 is an HDF5 file but not a tdcone result" -- "$TDCONE" export "$WORK/foreign.h5"
expect_failure 1 "foreign.h5 is an HDF5 file but not a tdcone result" -- "$TDCONE" info "$WORK/foreign.h5"
echo "ok: export refuses a file that is not a tdcone result, as info does"

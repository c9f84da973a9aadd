#!/usr/bin/env bash
# tdcone select with a --seed-corpus that holds some AVAIL lines: those lines
# (same text on --side) are flagged 8, never selected, counted in the summary,
# ranked after the selectable lines and before junk; the rest is ranked as a
# run on AVAIL without them (same lines in the same order, same entropies),
# on 1-4 ranks alike. --no-skip-seed-lines selects them as before.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 3000 --seed 41 --vocabulary 1500 --junk-fraction 0.02 --output "$WORK/avail.tsv"
"$TDCONE" synth --pairs 300 --seed 42 --vocabulary 1500 --first-pair 900000 --junk-fraction 0 --output "$WORK/repr.tsv"
# SEED: every 9th AVAIL line verbatim (some are junk: they stay junk), and lines not in AVAIL.
awk 'NR % 9 == 0' "$WORK/avail.tsv" >"$WORK/seed.tsv"
"$TDCONE" synth --pairs 50 --seed 43 --vocabulary 1500 --junk-fraction 0 --output "$WORK/extra.tsv"
cat "$WORK/extra.tsv" >>"$WORK/seed.tsv"
args=(select --representative "$WORK/repr.tsv" --available "$WORK/avail.tsv" --seed-corpus "$WORK/seed.tsv" --side tgt
      --length-cap 40 --stop)

for n in 1 2 3 4; do
  run_mpi "$n" "${args[@]}" --output "$WORK/seed-$n.h5" >"$WORK/seed-$n.out" 2>"$WORK/seed-$n.log" \
    || { cat "$WORK/seed-$n.log"; fail "select with a seed on $n ranks"; }
  [ "$n" = 1 ] || "$PY" "$HERE/compare_h5.py" "$WORK/seed-1.h5" "$WORK/seed-$n.h5" || fail "$n ranks differ from 1"
done
echo "ok: the same /selection on 1-4 ranks"

# AVAIL without the flagged lines, and what a run on it gives.
"$PY" - "$WORK" <<'PY' || fail "flags 8"
import sys, h5py, numpy as np
work = sys.argv[1]
avail = open(f"{work}/avail.tsv", "rb").read().split(b"\n")[:-1]
tgt = lambda line: line.split(b"\t")[1] if line.count(b"\t") else None  # None: a bad line
seed_text = {tgt(line) for line in open(f"{work}/seed.tsv", "rb").read().split(b"\n")[:-1]} - {None}
with h5py.File(f"{work}/seed-1.h5", "r") as f:
    s = f["selection"]
    ids, flags = s["pair_id"][()], s["flags"][()]
    n_seed = int(s.attrs["in_seed"])
    stop = int(s.attrs["stop_rank"])
assert sorted(ids) == list(range(len(avail))), "every line once"
flag_of = dict(zip(ids.tolist(), flags.tolist()))
in_seed = sorted(i for i, fl in flag_of.items() if fl & 8)
expected = sorted(i for i, line in enumerate(avail)
                  if tgt(line) in seed_text and not flag_of[i] & 3)
assert in_seed == expected and n_seed == len(in_seed) > 250, (len(in_seed), len(expected), n_seed)
assert any(flag_of[i] & 2 for i, line in enumerate(avail) if tgt(line) in seed_text), \
    "a junk line in the seed stays junk (flag 2, not 8)"
assert all(flag_of[i] & ~12 == 0 for i in in_seed), "flag 8 alone (with 4 under --stop)"
# Row order: ranked lines, then the seed's in input order, then junk and bad lines.
kind = np.where((flags & 3) != 0, 2, np.where(flags & 8, 1, 0))
assert (np.diff(kind) >= 0).all(), "ranked, then in the seed, then junk"
assert list(ids[kind == 1]) == in_seed, "seed lines in input order"
assert stop <= (kind == 0).sum() and not (flags[:stop] & 8).any() and (flags[kind == 1] & 4).all()
rest = [i for i in range(len(avail)) if i not in set(in_seed)]
with open(f"{work}/rest.tsv", "wb") as out:
    out.write(b"".join(avail[i] + b"\n" for i in rest))
np.save(f"{work}/rest.npy", np.array(rest, dtype=np.uint64))
print(f"ok: {len(in_seed)} lines flagged 8, after the ranked lines and before junk")
PY
grep -q "^  seed  *$(h5dump -a /selection/in_seed "$WORK/seed-1.h5" | awk '/\(0\)/ {print $2}') AVAIL lines already in the seed: skipped" \
  "$WORK/seed-1.out" || { cat "$WORK/seed-1.out"; fail "summary line"; }
echo "ok: the summary counts them"

for n in 1 3; do
  run_mpi "$n" select --representative "$WORK/repr.tsv" --available "$WORK/rest.tsv" --seed-corpus "$WORK/seed.tsv" \
    --side tgt --length-cap 40 --stop --output "$WORK/rest-$n.h5" >/dev/null 2>"$WORK/rest-$n.log" \
    || { cat "$WORK/rest-$n.log"; fail "select on AVAIL without the seed's lines"; }
done
"$PY" - "$WORK" <<'PY' || fail "not the same as a run without the seed's lines"
import sys, h5py, numpy as np
work = sys.argv[1]
rest = np.load(f"{work}/rest.npy")
with h5py.File(f"{work}/seed-1.h5", "r") as f, h5py.File(f"{work}/rest-3.h5", "r") as g:
    s, r = f["selection"], g["selection"]
    ranked = int((r["flags"][()] & 3 == 0).sum())
    assert ranked == int((s["flags"][()] & 11 == 0).sum()) > 1000
    assert (s["pair_id"][:ranked] == rest[r["pair_id"][:ranked]]).all(), "same lines in the same order"
    for column in ("delta_h", "penalty", "gain", "cross_entropy", "wge", "root_word", "flags"):
        assert (s[column][:ranked] == r[column][:ranked]).all(), column
    for key in ("stop_rank", "h_initial", "repr_tokens", "lexicon"):
        assert s.attrs[key] == r.attrs[key], key
print(f"ok: the {ranked} ranked lines are those of a run without the seed's lines, in the same order")
PY

run_mpi 2 "${args[@]}" --no-skip-seed-lines --output "$WORK/keep.h5" >"$WORK/keep.out" 2>"$WORK/keep.log" \
  || { cat "$WORK/keep.log"; fail "--no-skip-seed-lines"; }
"$PY" - "$WORK/keep.h5" <<'PY' || fail "--no-skip-seed-lines"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    s = f["selection"]
    assert not (s["flags"][()] & 8).any() and int(s.attrs["in_seed"]) == 0
PY
grep -q "already in the seed" "$WORK/keep.out" && fail "--no-skip-seed-lines reports skipped lines"
echo "ok: --no-skip-seed-lines keeps them selectable"

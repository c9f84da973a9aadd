#!/usr/bin/env bash
# tdcone select on 1-4 ranks writes the same /selection; every AVAIL line is
# in it once; --stop flags the tail; the jaded export has one line per line.
source "$(dirname "$0")/lib.sh"

"$TDCONE" synth --pairs 20000 --seed 21 --vocabulary 3000 --junk-fraction 0.01 --output "$WORK/avail.tsv.zst"
"$TDCONE" synth --pairs 400 --seed 21 --vocabulary 3000 --first-pair 900000 --junk-fraction 0 --output "$WORK/repr.tsv"

check_ranks select select --representative "$WORK/repr.tsv" --available "$WORK/avail.tsv.zst" --side tgt --length-cap 40

run_mpi 2 select --representative "$WORK/repr.tsv" --available "$WORK/avail.tsv.zst" --side tgt --length-cap 40 \
  --stop --output "$WORK/stop.h5" >/dev/null 2>&1 || fail "select --stop"
"$PY" - "$WORK/select-2.h5" "$WORK/stop.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f, h5py.File(sys.argv[2], "r") as g:
    s = f["selection"]
    assert list(s.keys()) == ["pair_id", "rank", "delta_h", "penalty", "gain", "cross_entropy", "root_word", "wge", "flags"]
    n = int(f.attrs["n_lines"])
    assert sorted(s["pair_id"][()]) == list(range(n)), "every line once"
    assert list(s["rank"][()]) == list(range(1, n + 1))
    flags = s["flags"][()]
    ranked = (flags & 3) == 0
    junk = ~ranked
    assert junk.sum() > 0 and not ranked[np.argmax(junk):].any(), "junk and bad lines last"
    assert (np.diff(s["pair_id"][()][junk].astype(np.int64)) > 0).all(), "junk in input order"
    stop = int(s.attrs["stop_rank"])
    h = s["cross_entropy"][()]
    assert 0 < stop <= ranked.sum() and h[stop - 1] == np.nanmin(h), "stop_rank minimizes H"
    assert s.attrs["h_initial"] > h[stop - 1] and s.attrs["lexicon"] > 0 and s.attrs["repr_tokens"] > 0
    gf = g["selection/flags"][()]
    assert not (gf[:stop] & 4).any() and (gf[stop:] & 4).all(), "--stop flags the tail"
print("ok: /selection covers every line, junk last, stop_rank and --stop")
PY

"$TDCONE" export "$WORK/select-2.h5" --group selection --jaded --side tgt --input "$WORK/avail.tsv.zst" >"$WORK/jaded.tsv"
[ "$(wc -l <"$WORK/jaded.tsv")" -eq 20001 ] || fail "jaded export: $(wc -l <"$WORK/jaded.tsv") lines"
head -1 "$WORK/jaded.tsv" | grep -q "^line_id	rank	score	penalty	gain	cross_entropy	root_word	wge	text$" || fail "jaded header"
echo "ok: jaded export"

# A plain file of one sentence per line is a corpus as it is (default --side src).
printf 'the cat sat\na dog ran\n' >"$WORK/repr.txt"
printf 'the cat sat down\nstocks fell\na dog ran off\n' >"$WORK/avail.txt"
"$TDCONE" select --representative "$WORK/repr.txt" --available "$WORK/avail.txt" --mincount 1 --output "$WORK/plain.h5" >/dev/null 2>&1 \
  || fail "select on plain text"
"$PY" -c "
import h5py
s = h5py.File('$WORK/plain.h5', 'r')['selection']
assert list(s['pair_id'][()])[-1] == 1 and (s['flags'][()] == 0).all(), list(s['pair_id'][()])
"
echo "ok: plain sentence files"

# The same lines as JSONL select the same way (the default --side src), and a
# plain export of the selection joins each line's text.
"$PY" - "$WORK/avail.txt" "$WORK/avail.jsonl" <<'PY'
import json, sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for line in f:
        out.write(json.dumps({"tgt": "ignored", "src": line.rstrip("\n")}) + "\n")
PY
"$PY" -c "import json; [print(json.dumps({'src': l.rstrip()})) for l in open('$WORK/repr.txt')]" >"$WORK/repr.jsonl"
"$TDCONE" select --representative "$WORK/repr.jsonl" --available "$WORK/avail.jsonl" --format jsonl --mincount 1 \
  --output "$WORK/plain-jsonl.h5" >/dev/null 2>&1 || fail "select on JSONL"
"$PY" "$HERE/compare_h5.py" "$WORK/plain.h5" "$WORK/plain-jsonl.h5" || fail "JSONL selection differs from plain text"
"$TDCONE" export "$WORK/plain.h5" --group selection --text --input "$WORK/avail.txt" --output - | cut -f1,10 >"$WORK/joined.tsv"
printf 'pair_id\ttext\n2\ta dog ran off\n0\tthe cat sat down\n1\tstocks fell\n' | cmp - "$WORK/joined.tsv" \
  || fail "export join of a selection: $(cat "$WORK/joined.tsv")"
"$TDCONE" export "$WORK/plain-jsonl.h5" --group selection --jaded --output - | cut -f9 | tail -n +2 >"$WORK/jaded-jsonl.txt"
printf 'a dog ran off\nthe cat sat down\nstocks fell\n' | cmp - "$WORK/jaded-jsonl.txt" || fail "jaded export of JSONL: $(cat "$WORK/jaded-jsonl.txt")"
echo "ok: JSONL lines, and selections joined with their text"

# --stop is configuration: kept in the run's config, settable from TOML either way.
printf 'stop = true\nmincount = 1\n' >"$WORK/stop.toml"
"$TDCONE" select --config "$WORK/stop.toml" --representative "$WORK/repr.txt" --available "$WORK/avail.txt" \
  --output "$WORK/stop-toml.h5" >/dev/null 2>&1 || fail "select with stop = true"
printf 'stop = false\nmincount = 1\n' >"$WORK/nostop.toml"
"$TDCONE" select --config "$WORK/nostop.toml" --representative "$WORK/repr.txt" --available "$WORK/avail.txt" \
  --output "$WORK/nostop-toml.h5" >/dev/null 2>&1 || fail "select with stop = false"
"$PY" -c "
import h5py
config = lambda path: h5py.File(path, 'r').attrs['config']  # str: a variable-length UTF-8 attribute
assert 'stop = true' in config('$WORK/stop-toml.h5') and 'stop = false' in config('$WORK/nostop-toml.h5')
"
echo "ok: stop in TOML and in the recorded config"

: >"$WORK/empty.txt"
expect_failure 2 "has no tokens" -- run_mpi 2 select --representative "$WORK/empty.txt" --available "$WORK/avail.txt" --output "$WORK/none.h5"
expect_failure 2 "representative" -- "$TDCONE" select --available "$WORK/avail.txt" --output "$WORK/none.h5"
[ ! -e "$WORK/none.h5" ] || fail "output written despite errors"
echo "ok: select refuses an empty or missing REPR"

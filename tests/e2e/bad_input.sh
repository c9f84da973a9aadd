#!/usr/bin/env bash
# Bad input gets a clear message, a non-zero status and no output file;
# under --on-bad-line skip every bad line is flagged, counted and located.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# A corpus with one bad line of each kind (line numbers matter below).
long=$(head -c 3000 /dev/zero | tr '\0' 'x')
{
  printf 'the cat sat\tthe cat sat down\t0.9\n'      # 1 ok
  printf 'only one column\n'                          # 2 missing column 2
  printf 'bad \xff\xfe utf8\tok\t0.5\n'               # 3 invalid UTF-8
  printf 'a b\tc d\tnot-a-number\n'                   # 4 unparsable score
  printf '%s\t%s\t0.1\n' "$long" "$long"              # 5 over --max-line-bytes 4096
  printf '\tonly output\t0.2\n'                       # 6 ok: empty input side
} > bad.tsv
: > empty.tsv

for n in 1 3; do
  # 4 of 6 lines are bad: over the default --max-bad-fraction 0.5 (tests/e2e/no_silent_zeros.sh)
  run_mpi "$n" score --input bad.tsv --score-col 3 --max-line-bytes 4096 --max-bad-fraction 0.7 --output skip$n.h5 2>skip$n.err >/dev/null \
    || fail "skip policy on $n ranks: $(cat skip$n.err)"
  grep -q "4 bad line(s)" skip$n.err || fail "no bad-line count: $(cat skip$n.err)"
  grep -q "bad.tsv:2: missing column 2" skip$n.err || fail "line 2 not reported: $(cat skip$n.err)"
  grep -q "bad.tsv:3: invalid UTF-8" skip$n.err || fail "line 3 not reported"
  grep -q "bad.tsv:4: unparsable score" skip$n.err || fail "line 4 not reported"
  grep -q "bad.tsv:5: line longer than --max-line-bytes" skip$n.err || fail "line 5 not reported"
done
"$PY" - <<'PY'
import h5py
with h5py.File("skip3.h5", "r") as f:
    assert (f.attrs["n_lines"], f.attrs["n_scored"], f.attrs["n_flagged"]) == (6, 2, 4)
    assert list(f["pairs/flags"][()]) == [0, 1, 1, 1, 1, 0]
PY
echo "ok: skip policy flags, counts and locates bad lines"

expect_failure 1 "bad.tsv:2: missing column 2" -- run_mpi 2 score --input bad.tsv --on-bad-line fail --output fail.h5
[ ! -e fail.h5 ] && ! ls fail.h5.partial* >/dev/null 2>&1 || fail "partial output left by --on-bad-line fail"
echo "ok: fail policy stops every rank with the first bad line"

expect_failure 2 "input file not found: nowhere.tsv" -- run_mpi 2 score --input nowhere.tsv --output x.h5
expect_failure 2 "no file matches" -- "$TDCONE" score --input 'nothing-*.tsv' --output x.h5
expect_failure 2 "format" -- "$TDCONE" score --input bad.tsv --format xml --output x.h5
expect_failure 2 "output" -- "$TDCONE" score --input bad.tsv
expect_failure 2 "embeddings.txt" -- run_mpi 2 score --input bad.tsv --max-bad-fraction 1 --align static --embeddings embeddings.txt --output x.h5
[ ! -e x.h5 ] || fail "output written despite errors"
echo "ok: missing files and bad options are refused"

# An empty file has no usable line: an error, not TD-CONE 0 (docs/spec.md §9).
expect_failure 1 "empty.tsv (the corpus, --input): no usable line: the input is empty" -- run_mpi 2 score --input empty.tsv --output empty.h5
[ ! -e empty.h5 ] || fail "output written for an empty input"
echo "ok: an empty file is refused (no usable line)"

expect_failure 2 "exists" -- "$TDCONE" score --input bad.tsv --output skip1.h5
"$TDCONE" score --input bad.tsv --max-bad-fraction 1 --output skip1.h5 --force >/dev/null 2>&1 || fail "--force did not overwrite"
echo "ok: existing output needs --force"

# Config: TOML keys named like the options; the command line wins.
cat > job.toml <<'TOML'
input = ["bad.tsv"]
score-col = 3
max-line-bytes = 4096
max-bad-fraction = 0.7
lowercase = false
output = "from-config.h5"
TOML
"$TDCONE" score --config job.toml --output cli.h5 >/dev/null 2>&1 || fail "config run"
[ -e cli.h5 ] && [ ! -e from-config.h5 ] || fail "command line did not override the config"
"$PY" -c "
import h5py
f = h5py.File('cli.h5', 'r')
config = f.attrs['config']
config = config.decode() if isinstance(config, bytes) else config
assert 'lowercase = false' in config and 'score-col = 3' in config, config
assert f.attrs['n_flagged'] == 4
"
printf 'inptu = ["x"]\n' > typo.toml
expect_failure 2 "unknown key 'inptu'" -- "$TDCONE" score --config typo.toml --output y.h5
echo "ok: TOML config, overrides and unknown keys"

# A write that fails under one rank only (here a file size limit, as a full
# disk would) stops every rank with that error, exit 1, and leaves no file.
"$TDCONE" synth --pairs 100000 --seed 4 --output big.tsv >/dev/null 2>&1
for limited in 0 1; do
  launch=()
  for rank in 0 1; do
    limit=unlimited
    [ "$rank" -eq "$limited" ] && limit=300  # KiB; the result is ~1 MB
    launch+=(${launch[@]:+:} -n 1 bash -c "ulimit -f $limit; exec \"\$0\" \"\$@\"" "$TDCONE" score --input big.tsv --output full.h5)
  done
  expect_failure 1 "cannot write dataset" -- timeout 120 ${TDCONE_MPIRUN:-mpirun} --oversubscribe "${launch[@]}"
  [ ! -e full.h5 ] && ! ls full.h5.partial* >/dev/null 2>&1 || fail "output left after a failed write on rank $limited"
done
echo "ok: a write failing on one rank stops all ranks cleanly"

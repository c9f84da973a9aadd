#!/usr/bin/env bash
# scripts/plot.py and scripts/tdcone_frame.py run as written: both are
# executable (scripts/tdcone_frame.py OUT.h5); from a python3 without h5py
# first on PATH (pyenv, a venv) they start again under /usr/bin/python3; with
# that disabled (TDCONE_NO_REEXEC) or when imported they stop with one line
# naming the missing modules and how to get them; `| head` ends them quietly;
# plot.py --output into a missing directory is a usage error naming it.
source "$(dirname "$0")/lib.sh"
SCRIPTS=$(cd "$HERE/../../scripts" && pwd)
"$PY" -c "import h5py, pandas, matplotlib" 2>/dev/null || { echo "skipped: needs python3-h5py, -pandas, -matplotlib"; exit 77; }
cd "$WORK"
"$TDCONE" synth --pairs 5000 --output corpus.tsv >/dev/null 2>&1
"$TDCONE" score --input corpus.tsv --score-col 3 --shards 2 --output score.h5 >/dev/null 2>&1 || fail "score"

for script in plot.py tdcone_frame.py; do
  [ -x "$SCRIPTS/$script" ] || fail "scripts/$script is not executable"
  head -1 "$SCRIPTS/$script" | grep -q '^#!.*python3$' || fail "scripts/$script has no python3 shebang"
done
"$SCRIPTS/tdcone_frame.py" score.h5 --group shards >out.txt 2>err.txt || fail "scripts/tdcone_frame.py: $(cat err.txt)"
grep -q "^score.h5 /shards: 2 rows" out.txt || fail "scripts/tdcone_frame.py printed $(cat out.txt)"
# 5,000 rows of CSV fill the pipe: the script writes on after head has gone.
{ "$PY" "$SCRIPTS/tdcone_frame.py" score.h5 --csv - 2>err.txt | head -1 >/dev/null; } || true
[ ! -s err.txt ] || fail "tdcone_frame.py | head: $(cat err.txt)"
expect_failure 2 "--output missing/dir/x.png: no directory missing/dir" -- \
  "$PY" "$SCRIPTS/plot.py" score.h5 --output missing/dir/x.png
grep -q Traceback "$WORK/err.txt" && fail "plot.py --output missing/dir: a traceback"
[ ! -e missing ] || fail "plot.py --output missing/dir created something"
echo "ok: executable, quiet on a closed pipe, a missing --output directory named"

# A python3 without h5py first on PATH, as with pyenv or conda: a venv of
# Debian's without its packages, else the python3 on PATH if it lacks h5py.
if "$PY" -m venv --without-pip venv >/dev/null 2>&1 && ! venv/bin/python3 -c "import h5py" 2>/dev/null; then
  bare=$WORK/venv/bin
elif bare=$(dirname "$(command -v python3)") && ! python3 -c "import h5py" 2>/dev/null; then
  :
else
  echo "skipped: no python3 without h5py to start the scripts from"; exit 0
fi
export PATH="$bare:$PATH"
[ "$(command -v python3)" = "$bare/python3" ] || fail "$bare/python3 is not first on PATH"
python3 "$SCRIPTS/plot.py" score.h5 --output shards.png >out.txt 2>err.txt || fail "python3 plot.py: $(cat err.txt)"
grep -q "^plot: wrote shards.png (shards)" out.txt && [ -s shards.png ] || fail "python3 plot.py: $(cat out.txt)"
"$SCRIPTS/tdcone_frame.py" score.h5 --group shards >out.txt 2>err.txt || fail "tdcone_frame.py: $(cat err.txt)"
grep -q "^score.h5 /shards: 2 rows" out.txt || fail "tdcone_frame.py printed $(cat out.txt)"
one_line() {  # PATTERN: err.txt is that one line
  [ "$(wc -l <err.txt)" -eq 1 ] && grep -q -- "$1" err.txt || fail "not one line with '$1': $(cat err.txt)"
}
export TDCONE_NO_REEXEC=1
expect_failure 1 . -- python3 "$SCRIPTS/plot.py" score.h5 --output x.png
one_line "^plot: .*python3 has no module h5py, numpy, matplotlib: run it with /usr/bin/python3 (it has them), or apt-get install python3-h5py python3-numpy python3-matplotlib or pip install h5py numpy matplotlib$"
expect_failure 1 . -- "$SCRIPTS/tdcone_frame.py" score.h5
one_line "^tdcone_frame: .* has no module h5py, numpy, pandas: .*apt-get install python3-h5py python3-numpy python3-pandas"
unset TDCONE_NO_REEXEC
expect_failure 1 . -- env PYTHONPATH="$SCRIPTS" python3 -c 'from tdcone_frame import read_frame'
one_line "^tdcone_frame: .* has no module h5py, numpy, pandas: run it with /usr/bin/python3"
echo "ok: from $bare/python3 (no h5py) the scripts start again under /usr/bin/python3; else one line says what to install"

#!/usr/bin/env bash
# Messages that name the thing and the fix: a size without its unit, a
# mistyped command, another command's option, a file of the wrong kind, an
# output that will not be what its name says, lines that are blank or Latin-1.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 40 --output c.tsv 2>/dev/null || fail "synth"

# --memory: units in any case, with B or iB; a bare number that small lost its unit.
bounded 20 2 "tdcone: error: --memory: 10 is 10 bytes; did you mean 10M or 10G?" -- \
  "$TDCONE" score --input c.tsv --output x.h5 --memory 10
for size in 2GB 2GiB 2gib 512MB 1t; do
  "$TDCONE" score --input c.tsv --output m.h5 --force --memory $size >/dev/null 2>"$WORK/err.txt" \
    || fail "--memory $size: $(cat "$WORK/err.txt")"
done
echo "ok: --memory takes 2GB, 2GiB, 1t; a bare 10 asks whether 10G was meant"

# A mistyped command is named with the closest one and the list; another
# command's option names its owner, in the command line's order; a slip of an
# option names the option meant.
"$TDCONE" score --input c.tsv --output r.h5 >/dev/null 2>&1 || fail "score"
bounded 20 2 "tdcone: error: unknown command 'scor': did you mean 'score'? (commands: score, balance, sweep, select, export, info, synth" -- \
  "$TDCONE" scor --input c.tsv --output x.h5
bounded 20 2 "tdcone: error: unknown command 'frobnicate' (commands: score," -- "$TDCONE" frobnicate
bounded 20 2 "tdcone: error: give a command (commands: score, balance, sweep, select, export, info, synth; \`tdcone --help\` describes them)" -- "$TDCONE"
bounded 20 2 "tdcone: error: --thresholds is not an option of score (it belongs to: sweep)$" -- \
  "$TDCONE" score --input c.tsv --output x.h5 --thresholds 0.5
bounded 20 2 "tdcone: error: --lowercse is not an option of score (did you mean --lowercase?); argument not expected: stray$" -- \
  "$TDCONE" score --input c.tsv --output x.h5 stray --lowercse
bounded 60 2 "tdcone: error: --shards is not an option of sweep (it belongs to: score)" -- \
  run_mpi 2 sweep --input c.tsv --score-col 3 --thresholds 0.5 --output x.h5 --shards 3
echo "ok: a mistyped command, a slip of an option and another command's option name the fix"

# info: --quiet like every command; no file says how to give one.
"$TDCONE" info --quiet r.h5 > info.txt 2>"$WORK/err.txt" || fail "info --quiet: $(cat "$WORK/err.txt")"
grep -q "tdcone result of \`tdcone score\`" info.txt || fail "info --quiet printed: $(head -3 info.txt)"
bounded 20 2 "tdcone: error: tdcone info: give a result file: tdcone info OUT.h5" -- "$TDCONE" info
bounded 20 2 "tdcone: error: tdcone export: give a result file: tdcone export OUT.h5" -- "$TDCONE" export --group pairs
echo "ok: info takes --quiet; info and export without a file say how to name one"

# A config's input that is not there names the config, its key, and where its paths are read from.
mkdir -p sub && printf 'input = "missing.tsv"\n' > sub/run.toml
for n in 1 2; do
  bounded 60 2 "input file not found: missing.tsv (from --config sub/run.toml: input = 'missing.tsv'; a config's paths are relative to the working directory" -- \
    run_mpi $n score --config sub/run.toml --output x.h5
done
printf 'input = "c.tsv"\nreference = "gone/*.tsv"\n' > sub/ref.toml
bounded 20 2 "no file matches gone/\*.tsv (from --config sub/ref.toml: reference = 'gone/\*.tsv'" -- \
  "$TDCONE" score --config sub/ref.toml --output x.h5
echo "ok: a missing input named in --config names the config and its key (1 and 2 ranks)"

# --output of a result not named .h5: written all the same (HDF5), with a warning naming export.
warning="tdcone: warning: --output scores.tsv: tdcone writes an HDF5 file whatever its name; name it .h5, and \`tdcone export RESULT.h5 --output FILE.tsv\` writes a table of it as TSV"
for n in 1 2; do
  run_mpi $n score --input c.tsv --output scores.tsv --force >/dev/null 2>"$WORK/err.txt" || fail "score --output scores.tsv"
  [ "$(grep -c -F -- "$warning" "$WORK/err.txt")" = 1 ] || fail "$n ranks: no single warning for --output scores.tsv: $(cat "$WORK/err.txt")"
  "$TDCONE" info scores.tsv >/dev/null || fail "scores.tsv is not a result"
done
"$TDCONE" select --representative c.tsv --available c.tsv --output sel.out >/dev/null 2>"$WORK/err.txt" || fail "select"
grep -q -- "--output sel.out: tdcone writes an HDF5 file" "$WORK/err.txt" || fail "select --output sel.out: $(cat "$WORK/err.txt")"
for name in a.h5 b.HDF5 c.he5; do
  "$TDCONE" score --input c.tsv --output $name >/dev/null 2>"$WORK/err.txt" || fail "score --output $name"
  ! grep -q "warning" "$WORK/err.txt" || fail "--output $name warned: $(cat "$WORK/err.txt")"
done
echo "ok: --output not named .h5 is warned about once (1 and 2 ranks), .h5/.hdf5/.he5 are not"

# A result given back as the corpus is named as such, not read as "missing column 2" lines.
for n in 1 2; do
  bounded 60 2 "tdcone: error: r.h5 is an HDF5 file (a tdcone result?), not a text corpus; give the text files (\`tdcone info r.h5\` lists" -- \
    run_mpi $n score --input r.h5 --output x.h5
done
bounded 20 2 "r.h5 is an HDF5 file" -- "$TDCONE" select --representative c.tsv --available r.h5 --output x.h5
echo "ok: an HDF5 file given as a corpus is refused as one (1 and 2 ranks)"

# A blank line (empty, spaces, a lone CR of a CRLF file) is flagged as before, as an "empty line".
printf 'the cat sat\tthe cat sat down\r\n\r\n  \r\na b\tc d\r\nno tab\r\n' > blank.tsv
printf '{"src": "a b", "tgt": "b c"}\n\n \n{"src": "x", "tgt": "y"}\n' > blank.jsonl
for n in 1 2; do
  run_mpi $n score --input blank.tsv --max-bad-fraction 1 --output blank-$n.h5 >/dev/null 2>"$WORK/err.txt" || fail "blank.tsv"
  for line in 2 3; do grep -q "blank.tsv:$line: empty line$" "$WORK/err.txt" || fail "blank.tsv:$line: $(cat "$WORK/err.txt")"; done
  grep -q "blank.tsv:5: missing column 2$" "$WORK/err.txt" || fail "blank.tsv:5: $(cat "$WORK/err.txt")"
  run_mpi $n score --format jsonl --input blank.jsonl --max-bad-fraction 1 --output blank-json-$n.h5 >/dev/null 2>"$WORK/err.txt" \
    || fail "blank.jsonl"
  for line in 2 3; do grep -q "blank.jsonl:$line: empty line$" "$WORK/err.txt" || fail "blank.jsonl:$line: $(cat "$WORK/err.txt")"; done
  "$PY" -c "
import h5py, sys
with h5py.File('blank-$n.h5', 'r') as f, h5py.File('blank-json-$n.h5', 'r') as g:
    sys.exit(list(f['pairs/flags'][()]) != [0, 1, 1, 0, 1] or list(g['pairs/flags'][()]) != [0, 1, 1, 0])" \
    || fail "blank lines' flags changed on $n ranks"
done
echo "ok: blank lines are flagged bad lines (flags 1) with the reason 'empty line' (1 and 2 ranks)"

# Invalid UTF-8 lines (a Latin-1 file) come with the iconv command that converts the file, which then reads clean.
printf 'caf\xe9 au lait\tcoffee with milk\nthe cat\tthe cat\nna\xefve\tnaive\n' > latin.tsv
hint="(invalid UTF-8: if latin.tsv is Latin-1, convert it: iconv -f latin1 -t utf-8 latin.tsv > latin.tsv.utf8)"
for n in 1 2; do
  run_mpi $n score --input latin.tsv --max-bad-fraction 1 --output latin-$n.h5 >/dev/null 2>"$WORK/err.txt" || fail "latin.tsv"
  grep -q -F -- "  $hint" "$WORK/err.txt" || fail "no iconv hint on $n ranks: $(cat "$WORK/err.txt")"
done
bounded 20 1 "more than --max-bad-fraction 0.5 .*; invalid UTF-8: if latin.tsv is Latin-1, convert it: iconv -f latin1" -- \
  "$TDCONE" score --input latin.tsv --output x.h5
iconv -f latin1 -t utf-8 latin.tsv > latin.tsv.utf8
"$TDCONE" score --input latin.tsv.utf8 --output utf8.h5 >/dev/null 2>"$WORK/err.txt" || fail "converted file"
! grep -q "bad line\|iconv" "$WORK/err.txt" || fail "the converted file: $(cat "$WORK/err.txt")"
"$TDCONE" score --input blank.tsv --max-bad-fraction 1 --output x.h5 --force >/dev/null 2>"$WORK/err.txt"
! grep -q "iconv" "$WORK/err.txt" || fail "iconv hint without invalid UTF-8: $(cat "$WORK/err.txt")"
echo "ok: invalid UTF-8 lines come with the iconv command that fixes a Latin-1 file (1 and 2 ranks)"

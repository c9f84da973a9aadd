#!/usr/bin/env bash
# Every numeric and named option has bounds, on the command line and in a TOML
# config: a bad value stops the command at once (exit 2) with a message that
# names the option (and the config file and key) and what it takes in plain
# words; nothing runs away in time or memory.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 40 --output c.tsv 2>/dev/null || fail "synth"
[ "$(wc -l < c.tsv)" = 40 ] || fail "synth wrote $(wc -l < c.tsv) lines"
"$TDCONE" score --input c.tsv --output r.h5 >/dev/null 2>&1 || fail "score"

# The options each command needs besides the one under test (never reached:
# a bad value stops the parse).
required() {
  case $1 in
    score) echo --input c.tsv --output x.h5 ;;
    sweep) echo --input c.tsv --score-col 3 --output x.h5 ;;
    select) echo --representative c.tsv --available c.tsv --output x.h5 ;;
    export) echo r.h5 ;;
    synth) echo --output x.tsv ;;
  esac
}
# cli_refused COMMAND OPTION TAKES VALUE...: each value refused on the command line.
cli_refused() {
  local command=$1 option=$2 takes=$3; shift 3
  local extra="--thresholds=0.5"
  [ "$command" = sweep ] && [ "$option" != thresholds ] || extra=""
  for value in "$@"; do
    # shellcheck disable=SC2046
    bounded 20 2 "tdcone: error: --$option: $value is not $takes" -- \
      "$TDCONE" "$command" $(required "$command") $extra "--$option=$value"
  done
}
# toml_refused COMMAND KEY TAKES VALUE...: each TOML value refused, naming the file and key.
toml_refused() {
  local command=$1 key=$2 takes=$3; shift 3
  for value in "$@"; do
    printf '%s = %s\n' "$key" "$value" > cfg.toml
    [ "$command" = sweep ] && [ "$key" != thresholds ] && echo 'thresholds = [0.5]' >> cfg.toml
    # shellcheck disable=SC2046
    bounded 20 2 "tdcone: error: cfg.toml: $key = .*: --$key takes $takes" -- \
      "$TDCONE" "$command" --config cfg.toml $(required "$command")
  done
}

# `timeout` runs programs, not run_mpi: the same launch spelled out.
mpirun_n() { echo "${TDCONE_MPIRUN:-mpirun}" --oversubscribe -n "$1" "$TDCONE"; }
whole="a whole number from"
u64="a whole number from 0 to 18446744073709551615"
huge=99999999999999999999

# Runaway values: fast, small, refused (an unbounded shard count would take
# the machine's memory and minutes).
for n in 1 2; do
  (ulimit -v 4000000
   bounded 60 2 "--shards: 100000000 is more than the 40 usable lines" -- \
     $(mpirun_n "$n") score --input c.tsv --shards 100000000 --output x.h5)
done
# Length buckets out of order or given twice: refused on every rank before the corpus is read.
increasing="give each bucket's largest input length in tokens once, in increasing order (e.g. 5,10,20,40)"
for n in 1 2; do
  bounded 60 2 "--length-buckets: 10,5 is not increasing: $increasing" -- \
    $(mpirun_n "$n") score --input c.tsv --length-buckets 10,5 --output x.h5
  bounded 60 2 "--length-buckets: 5,20,20 gives 20 twice: $increasing" -- \
    $(mpirun_n "$n") score --input c.tsv --length-buckets 5,20,20 --output x.h5
done
printf 'length-buckets = [40, 20]\n' > cfg.toml
bounded 60 2 "--length-buckets: 40,20 is not increasing" -- "$TDCONE" score --config cfg.toml $(required score)
bounded 60 2 "--shards: 41 is more than the 40 usable lines" -- $(mpirun_n 2) score --input c.tsv --shards 41 --output x.h5
run_mpi 2 score --input c.tsv --shards 40 --output s40.h5 >/dev/null 2>&1 || fail "--shards 40 on 40 lines"
cli_refused score shards "$u64" -1 $huge 0x10 1.5 three true
cli_refused score seed "$u64" $huge -1 18446744073709551616 1e3
cli_refused sweep seed "$u64" $huge -1
cli_refused synth seed "$u64" $huge -1
bounded 60 2 "--seed: $huge is not $u64" -- $(mpirun_n 2) sweep $(required sweep) --thresholds 0.5 --seed $huge
echo "ok: runaway shards, negative and saturating seeds are refused fast on 1 and 2 ranks"

# Every numeric option with 0, -1, huge, text, float and bool, as fits its range.
column="a column number (1, 2, …, 2147483647)"
for option in src-col tgt-col; do cli_refused score "$option" "$column" 0 -1 three 1.5 true 2147483648; done
for option in score-col id-col; do cli_refused score "$option" "$column or 0 for none" -1 three 1.5 true $huge; done
cli_refused export top "$u64" -1 three
cli_refused score max-line-bytes "$whole 1 to 1073741824" 0 -1 $huge 1.5 four true
cli_refused score rel-lambda "a number from 0 to 1" -0.5 2 nan inf three true
cli_refused score progress-every "a number ≥ 0" -1 nan inf three true
cli_refused score memory "a size such as 1500M or 2G" 0 -1 lots 1e30T true
cli_refused score round-size "a size such as 1500M or 2G" 0 -1 lots
cli_refused sweep sample "a whole number or auto" -1 $huge 0.5 true half
cli_refused score sample "a whole number or auto" -1 $huge 0.5
cli_refused score replicates "$whole 1 to 100000" 0 -1 100001 1.5 true
cli_refused sweep thresholds "a number" nan three true
cli_refused score length-buckets "$whole 0 to 4294967295" -1 1.5 x 4294967296 $huge true
cli_refused select mincount "$u64" -1 $huge 2.5 true
cli_refused select length-cap "$whole 1 to 4294967295" 0 -1 4294967296 $huge 1.5 true
cli_refused select checkpoint-every "a number ≥ 0" -1 nan inf true
cli_refused synth pairs "$whole 1 to 1000000000000" 0 -1 $huge 1e6 1.5 true
cli_refused synth first-pair "$whole 0 to 1000000000" -1 1000000001 $huge true
cli_refused synth vocabulary "$whole 100 to 10000000" 0 -1 99 10000001 $huge 1.5 true
cli_refused synth junk-fraction "a number from 0 to 1" -1 2 nan true
echo "ok: every numeric option names itself and its range"

# Every named option, and the switches.
cli_refused score format "one of tsv, jsonl" xml 0 true
cli_refused score tokenizer "one of whitespace, punct" words 1
cli_refused score on-bad-line "one of skip, fail" ignore
cli_refused score align "one of uniform, static" dynamic
cli_refused score shard-by "one of hash, file, block" random
cli_refused score compression "one of deflate, zstd, none" lz4
cli_refused score dedup "one of none, exact, tokens, letters" fuzzy minhash 1
cli_refused sweep dedup "one of none, exact, tokens, letters" Exact
cli_refused select side "one of src, tgt, both" left
cli_refused export group "one of pairs, shards, sweep, selection" corpus
cli_refused export side "one of src, tgt, both" left
cli_refused export to "one of tsv, jsonl" csv
cli_refused synth profile "one of twitter, paraphrase" news
cli_refused score lowercase "true or false" maybe 2
cli_refused score force "true or false" no
echo "ok: every named option and switch lists what it takes"

# The same in a TOML config: the file, the key and the value, then what the option takes.
toml_refused score shards "$u64" true -1 2.0 '"three"' $'[1, 2]'
toml_refused score score-col "$column or 0 for none" '"three"' -1 true 1.5
toml_refused score src-col "$column" 0
toml_refused score seed "$u64" -1 1.5 '"99999999999999999999"'
toml_refused score rel-lambda "a number from 0 to 1" 2 nan true '"x"'
toml_refused score max-line-bytes "$whole 1 to 1073741824" 0 false
toml_refused score max-bad-fraction "a number from 0 to 1" -0.5 1.5 '"half"' true
toml_refused score memory "a size such as 1500M or 2G" '"lots"' 0 true
toml_refused score format "one of tsv, jsonl" '"xml"' 1
toml_refused score lowercase "true or false" '"yes"' 1
toml_refused score progress-every "a number ≥ 0" -1
toml_refused score reference "a string" true
toml_refused sweep thresholds "a number" '[0.5, "x"]' true
toml_refused score length-buckets "$whole 0 to 4294967295" '[5, "x"]' '[5, -1]' true
toml_refused sweep sample "a whole number or auto" -1 true 1.5 '"half"'
toml_refused score replicates "$whole 1 to 100000" 0 '"many"'
toml_refused select length-cap "$whole 1 to 4294967295" 0 4294967296
toml_refused select checkpoint-every "a number ≥ 0" -1 '"soon"'
toml_refused synth pairs "$whole 1 to 1000000000000" 0 1e6
toml_refused synth vocabulary "$whole 100 to 10000000" 5
toml_refused synth junk-fraction "a number from 0 to 1" 2
toml_refused export group "one of pairs, shards, sweep, selection" '"corpus"'
printf 'shards = true\n' > cfg.toml
bounded 60 2 "cfg.toml: shards = true: --shards takes $u64" -- $(mpirun_n 2) score --config cfg.toml $(required score)
echo "ok: a bad config value names the file, the key and what the option takes (1 and 2 ranks)"

# No message is CLI11's raw range (a 309-digit number) or conversion failure.
for value in 0 three; do
  bounded 20 2 "src-col" -- "$TDCONE" score $(required score) --src-col $value
  ! grep -q "17976931348623157\|not in range\|Could not convert" "$WORK/err.txt" || fail "raw CLI11 message: $(cat "$WORK/err.txt")"
done

# Good values still pass, and the config they are written back as reads again.
"$TDCONE" score --input c.tsv --shards 010 --seed 18446744073709551615 --length-buckets 0,08,4294967295 \
  --output big-seed.h5 >/dev/null 2>&1 || fail "--shards 010 --seed 2^64-1 --length-buckets 0,08,4294967295"
"$PY" - <<'PY'
import h5py
with h5py.File("big-seed.h5", "r") as f:
    config = f.attrs["config"]
    config = config.decode() if isinstance(config, bytes) else config
    assert len(f["shards/shard"]) == 10, "010 is ten shards, not octal 8"
    assert list(f["lengths/max_src_len"][()]) == [0, 8, 4294967295, 2**64 - 1], f["lengths/max_src_len"][()]
    open("effective.toml", "w").write(config)
PY
"$TDCONE" score --config effective.toml --output again.h5 --force >/dev/null 2>&1 || fail "the effective config does not read back"
echo "ok: good values pass (decimal, full 64-bit seed) and the effective config reads back"

# --help: a switch's default is the help text's, not CLI11's "{false}".
"$TDCONE" score --help > help.txt
! grep -q "{false}\|{true}" help.txt || fail "--help shows CLI11's flag values: $(grep -m1 '{false}\|{true}' help.txt)"
grep -q -- "--lowercase, --no-lowercase .*(default: on)" help.txt || fail "--lowercase default: $(grep lowercase help.txt)"
grep -q -- "--reverse, --no-reverse .*(default: off)" help.txt || fail "--reverse default: $(grep reverse help.txt)"
# select --help lists only the corpus options that apply to a selection.
"$TDCONE" select --help > select-help.txt
for option in reverse score-col score-field id-col id-field input; do
  ! grep -q -- "--$option\b" select-help.txt || fail "select --help lists --$option: $(grep -- "--$option" select-help.txt)"
done
for option in format src-col tgt-col src-field tgt-field tokenizer lowercase on-bad-line max-line-bytes max-bad-fraction quiet; do
  grep -q -- "--$option\b" select-help.txt || fail "select --help lacks --$option"
done
bounded 20 2 "--reverse is not an option of select (it belongs to: score, balance, sweep)" -- \
  "$TDCONE" select $(required select) --reverse
echo "ok: --help shows switch defaults once, right; select lists only the options it uses"

[ ! -e x.h5 ] && [ ! -e x.tsv ] || fail "output written despite a bad option"

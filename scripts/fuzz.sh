#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) into build-fuzz/ and runs each for
# SECONDS (default 60), $(nproc) at a time: first its regression inputs
# (tests/fuzz/regressions/TARGET, inputs that once failed it), then fuzzing from
# a copy of its seed corpus plus those inputs. Prints per target the executions
# run and what it found; exits 1 on a finding (saved under build-fuzz/findings/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
fuzz=$root/tests/fuzz
build=$root/build-fuzz
bash "$root/scripts/install-deps.sh"
targets=$(cd "$fuzz" && ls -- *_fuzz.cpp | sed 's/_fuzz\.cpp$//')
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DTDCONE_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' $targets)

# An input running 30 s is a hang (libFuzzer's default: 20 min); UB is a finding.
options=(-timeout=30 -print_final_stats=1)
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# A crashing target can hang in LeakSanitizer's exit check (seen once in ~400
# crashes here): no run may outlive its time by more than two minutes.
bounded() { timeout --kill-after=10 $((seconds + 120)) "$@"; }

# fuzz TARGET: prints one line, "TARGET: ..."; the full output is in logs/TARGET.log.
fuzz() {
  local target=$1 exe=$build/tests/fuzz/fuzz_$1 log=$build/logs/$1.log
  local regressions=$fuzz/regressions/$1 corpus=$build/corpus/$1 findings=$build/findings/$1
  rm -rf "$corpus" "$findings" && mkdir -p "$corpus" "$findings" && : >"$log"
  cp "$fuzz/corpus/$target"/* "$corpus"/
  if [ -d "$regressions" ]; then
    if ! bounded "$exe" "${options[@]}" "$regressions"/* >>"$log" 2>&1; then
      echo "$target: FOUND: regression input $(sed -n 's/^Running: //p' "$log" | tail -1) fails (log: $log)"
      return
    fi
    cp "$regressions"/* "$corpus"/
  fi
  local dict=() status=0
  [ -f "$fuzz/dict/$target.dict" ] && dict=(-dict="$fuzz/dict/$target.dict")
  bounded "$exe" "${options[@]}" "${dict[@]}" -max_total_time="$seconds" -artifact_prefix="$findings/" "$corpus" >>"$log" 2>&1 || status=$?
  local runs found
  runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log" | tail -1)
  found=$(cd "$findings" && ls | grep -v '^slow-unit-' || true)  # a slow input is not a failure
  if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    echo "$target: ${runs:-?} executions, FOUND: ${found:-exit status $status} in $findings (log: $log)"
  else
    echo "$target: $runs executions in ${seconds} s, nothing found"
  fi
}

mkdir -p "$build/logs" "$build/results"
for target in $targets; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  fuzz "$target" >"$build/results/$target" &
done
wait
status=0
for target in $targets; do
  result=$(cat "$build/results/$target")
  echo "${result:-$target: did not finish (log: $build/logs/$target.log)}"
  [[ -n $result && $result != *FOUND* ]] || status=1
done
exit $status

# Shared by the one-stage benchmarks (sourced; bench/micro/*.cpp).
# micro_bench NAME KEY TARGET ARGS...: runs the build's TARGET with ARGS
# (built if missing; BUILD=DIR for another build), and with BASELINE=DIR that
# build's TARGET too; prints {"bench": NAME, KEY: its JSON, "baseline": ...}.
# Each run's output is taken before anything is printed, so that a failing
# benchmark fails the script instead of printing a broken object.
micro_bench() {
  local name=$1 key=$2 target=$3 build run baseline=""
  shift 3
  build=${BUILD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build}
  [ -x "$build/$target" ] || cmake --build "$build" --target "$target" >&2
  run=$("$build/$target" "$@")
  if [ -n "${BASELINE:-}" ]; then baseline=$("$BASELINE/$target" "$@"); fi
  echo "{\"bench\": \"$name\", \"$key\": $run"
  if [ -n "$baseline" ]; then echo ", \"baseline\": $baseline"; fi
  echo "}"
}

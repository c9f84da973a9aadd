#!/usr/bin/env bash
# Memory the machine really has (issue 23, 8): a --memory advice works when
# followed, at 3 sizes (one refused late in aligning); an allocation
# that fails under `ulimit -v` names the phase and the budget to try, on every
# rank, in bounded time, with no output left; the default budget follows
# `ulimit -v`.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

"$TDCONE" synth --pairs 200000 --seed 5 --output corpus.tsv >/dev/null 2>&1
"$TDCONE" synth --pairs 40000 --seed 5 --first-pair 200000 --junk-fraction 0 --output reference.tsv >/dev/null 2>&1
score=(score --input corpus.tsv --score-col 3 --reference reference.tsv --progress-every 0)
run_mpi 2 "${score[@]}" --output free.h5 >/dev/null 2>free.err || fail "the default budget: $(cat free.err)"

# 75M: refused late in aligning, below the run's peak, with room either
# side so the test does not sit on the edge.
for budget in 8 60 75; do
  bounded 120 2 "does not fit --memory" -- run_mpi 2 "${score[@]}" --memory "${budget}M" --output refused.h5
  [ ! -e refused.h5 ] && ! ls refused.h5.* >/dev/null 2>&1 || fail "output left by a refused --memory ${budget}M"
  advised=$(grep -o -- '--memory [0-9]*M' "$WORK/err.txt" | tail -1 | tr -dc 0-9)
  [ -n "$advised" ] || fail "--memory ${budget}M: no --memory advised: $(cat "$WORK/err.txt")"
  [ "$advised" -gt "$budget" ] || fail "--memory ${budget}M: the advice, --memory ${advised}M, is no more than was refused"
  run_mpi 2 "${score[@]}" --memory "${advised}M" --output "advised-$budget.h5" >/dev/null 2>advised.err \
    || fail "--memory ${budget}M advised --memory ${advised}M, which fails: $(grep error advised.err)"
  "$PY" "$HERE/../e2e/compare_h5.py" free.h5 "advised-$budget.h5" || fail "--memory ${advised}M changes the results"
  echo "ok: --memory ${budget}M is refused with 'try --memory ${advised}M', which succeeds with the same results"
done
# The other half of the last advice: as many ranks, the same budget.
ranks=$(grep -o "or at least [0-9]* ranks" "$WORK/err.txt" | tr -dc 0-9)
[ -n "$ranks" ] && [ "$ranks" -gt 2 ] || fail "--memory ${budget}M on 2 ranks: no rank count advised: $(cat "$WORK/err.txt")"
run_mpi "$ranks" "${score[@]}" --memory "${budget}M" --output ranks.h5 >/dev/null 2>ranks.err \
  || fail "--memory ${budget}M advised $ranks ranks, which fail: $(grep error ranks.err)"
"$PY" "$HERE/../e2e/compare_h5.py" free.h5 ranks.h5 || fail "$ranks ranks change the results"
echo "ok: --memory ${budget}M is refused with 'or at least $ranks ranks', which succeed with the same results"

# ulimit -v KiB: per process, less what MPI and the libraries mapped at start.
limited=(bash -c 'ulimit -v "$0" && exec "$@"')
mpi2=("${TDCONE_MPIRUN:-mpirun}" -n 2 --oversubscribe "$TDCONE")
# (MPI, its threads and the watchdog's, with their malloc arenas, map a few hundred MiB at start.)
limit_kib=600000 limit_mib=586  # as the summary rounds it
"${limited[@]}" $limit_kib "${mpi2[@]}" "${score[@]}" --output limited.h5 >limited.out 2>limited.err \
  || grep -q "does not fit --memory" limited.err || fail "the default budget under ulimit -v: $(cat limited.err)"
grep -q "address-space limit $limit_mib MiB (ulimit -v/-d)" limited.out limited.err \
  || fail "the default budget does not follow ulimit -v $limit_kib: $(cat limited.out limited.err)"
budget=$(grep -oh -- '--memory [0-9.]* MiB' limited.out limited.err | head -1 | tr -dc 0-9)
[ "$budget" -lt $((limit_mib * 8 / 10)) ] \
  || fail "the default budget under ulimit -v $limit_kib ($limit_mib MiB) is ${budget} MiB, more than 80% of it"
echo "ok: the default budget is 80% of what ulimit -v leaves a rank (${budget} MiB of $limit_mib MiB)"

# 32 MiB more than MPI and the libraries take: room for the shares, not for the matrix.
mapped=$(grep -oh "less the [0-9]* MiB mapped at start" limited.out limited.err | head -1 | tr -dc 0-9)
bounded 120 1 "out of memory in [a-z ]* (--memory 4.00 GiB per rank; this machine's is .* address-space limit" -- \
  "${limited[@]}" $(((mapped + 32) * 1024)) "${mpi2[@]}" "${score[@]}" --memory 4G --output oom.h5
grep -q "try --memory [0-9]*M or more ranks" "$WORK/err.txt" || fail "out of memory without a budget to try: $(cat "$WORK/err.txt")"
! grep -q "bad_alloc" "$WORK/err.txt" || fail "a bare std::bad_alloc: $(cat "$WORK/err.txt")"
[ ! -e oom.h5 ] && ! ls oom.h5.* >/dev/null 2>&1 || fail "output left after running out of memory"
echo "ok: out of memory under ulimit -v: $(grep -o 'out of memory.*' "$WORK/err.txt" | head -1)"

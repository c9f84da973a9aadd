#!/usr/bin/env bash
# The slurm/ job scripts on a real local SLURM (scripts/slurm-local): score,
# the sweep array with its collect job, and select, each with 2 tasks, give the
# same HDF5 as direct mpirun runs; sweep tasks are named after their config or
# threshold set and a rerun skips the finished ones; nightly seeds each night
# with everything selected before and skips AVAIL lines already in the seed; a
# select job warned of its time limit checkpoints, requeues itself and finishes
# with the uninterrupted result.
# Needs root and Debian's slurm-wlm (scripts/install-deps.sh); skipped otherwise.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] && command -v slurmctld >/dev/null || { echo "skipped: needs root and slurm-wlm"; exit 77; }
REPO=$(cd "$HERE/../.." && pwd)
export SLURM_LOCAL_DIR="$WORK/slurm"
trap 'kill $(jobs -p) 2>/dev/null || true; bash "$REPO/scripts/slurm-local" stop >/dev/null 2>&1; rm -rf "$WORK"' EXIT
bash "$REPO/scripts/slurm-local" start
eval "$(bash "$REPO/scripts/slurm-local" env)"
export TDCONE  # the job scripts run this binary

# SLURM holds a requeued job (reason BeginTime) for about two minutes; let it
# start once it has been held 10 s (sooner, slurmd may still be cleaning up the
# last run and refuses to launch it: "already killed").
declare -A held_since=()  # job id -> $SECONDS when first seen held, this time
release_held() {  # job ids (comma-separated)
  local -A still=()
  local held
  for held in $(squeue -h -j "$1" -t PENDING -o '%i %r' 2>/dev/null | awk '$2 == "BeginTime" {print $1}'); do
    still[$held]=${held_since[$held]:-$SECONDS}
  done
  held_since=()
  for held in "${!still[@]}"; do
    if (( SECONDS - still[$held] >= 10 )); then
      scontrol update JobId="$held" StartTime=now 2>/dev/null || true
    else
      held_since[$held]=${still[$held]}
    fi
  done
}

wait_for() {  # job ids...: until each has ended for good (10 min at most)
  local ids
  ids=$(IFS=,; echo "$*")
  for _ in $(seq 600); do
    # All states: a job being requeued is briefly in none of squeue's default ones.
    local states
    states=$(squeue -h -t all -j "$ids" -o '%T' 2>/dev/null | sort -u)
    if [ -n "$states" ] && ! grep -qvE '^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)$' <<<"$states"; then
      return 0
    fi
    release_held "$ids"
    sleep 1
  done
  fail "jobs $* did not finish"
}

cd "$WORK"
"$TDCONE" synth --pairs 20000 --seed 31 --vocabulary 4000 --output corpus.tsv
"$TDCONE" synth --pairs 500 --seed 31 --vocabulary 4000 --first-pair 5000000 --junk-fraction 0 --output reference.tsv
cat >score.toml <<TOML
input = ["$WORK/corpus.tsv"]
score-col = 3
reference = "$WORK/reference.tsv"
shards = 3
output = "$WORK/score-slurm.h5"
TOML
for name in a b; do
  cat >$name.toml <<TOML
input = ["$WORK/corpus.tsv"]
score-col = 3
reference = "$WORK/reference.tsv"
thresholds = [$([ $name = a ] && echo "0.4, 0.6, 0.8" || echo "0.5, 0.7")]
sample = 3000
TOML
done
cat >select.toml <<TOML
representative = ["$WORK/reference.tsv"]
available = ["$WORK/corpus.tsv"]
side = "tgt"
output = "$WORK/select-slurm.h5"
TOML

# score.sbatch
job=$(sbatch --parsable --ntasks=2 --chdir="$WORK" "$REPO/slurm/score.sbatch" score.toml)
wait_for "$job"
run_mpi 2 score --config score.toml --output score-direct.h5 >/dev/null 2>&1
"$PY" "$HERE/compare_h5.py" score-direct.h5 score-slurm.h5 || fail "score.sbatch differs from mpirun"
echo "ok: score.sbatch"

# sweep.sbatch: an array of two configs and the collect job; tasks, logs and
# table rows are named after the configs.
collect=$(bash "$REPO/slurm/submit-sweep.sh" "$WORK/sweeps" a.toml b.toml -- --chdir="$WORK" --ntasks=2)
wait_for "$collect"
for name in a b; do
  run_mpi 2 sweep --config "$name.toml" --output "sweep-direct-$name.h5" >/dev/null 2>&1
  "$PY" "$HERE/compare_h5.py" "sweep-direct-$name.h5" "sweeps/sweep-$name.h5" || fail "sweep task $name differs from mpirun"
  [ -e "sweeps/sweep-$name.done" ] || fail "no completion marker for $name"
  grep -q "TD-CONE" "sweeps/sweep-$name.log" || fail "sweeps/sweep-$name.log lacks the run's summary"
done
[ "$(wc -l <sweeps/sweep-table.tsv)" -eq 6 ] || fail "sweep table: $(cat sweeps/sweep-table.tsv)"
head -1 sweeps/sweep-table.tsv | grep -q "^config	threshold	n_pairs	n_sampled	tdcone" || fail "sweep table header"
[ "$(cut -f1 sweeps/sweep-table.tsv | tail -n +2 | tr '\n' ' ')" = "a a a b b " ] || fail "table rows: $(cat sweeps/sweep-table.tsv)"
echo "ok: sweep.sbatch array + collect, named after the configs"

# Submitted again: both tasks are done and skipped; with b changed, b runs again.
touch -d '2000-01-01' sweeps/sweep-a.h5 sweeps/sweep-b.h5
collect=$(bash "$REPO/slurm/submit-sweep.sh" "$WORK/sweeps" a.toml b.toml -- --chdir="$WORK" --ntasks=2)
wait_for "$collect"
[ "$(stat -c %Y sweeps/sweep-a.h5)" = "$(stat -c %Y sweeps/sweep-b.h5)" ] && [ "$(date -r sweeps/sweep-a.h5 +%Y)" = 2000 ] \
  || fail "a rerun ran finished tasks again"
grep -l "sweep a: already done" tdcone-sweep-*.log >/dev/null || fail "no 'already done' for a"
[ "$(wc -l <sweeps/sweep-table.tsv)" -eq 6 ] || fail "sweep table after the rerun"
sed -i 's/^thresholds = .*/thresholds = [0.5, 0.7, 0.9]/' b.toml
collect=$(bash "$REPO/slurm/submit-sweep.sh" "$WORK/sweeps" a.toml b.toml -- --chdir="$WORK" --ntasks=2)
wait_for "$collect"
[ "$(date -r sweeps/sweep-a.h5 +%Y)" = 2000 ] && [ "$(date -r sweeps/sweep-b.h5 +%Y)" != 2000 ] \
  || fail "a changed config did not rerun (only) its task"
[ "$(wc -l <sweeps/sweep-table.tsv)" -eq 7 ] || fail "sweep table after b changed: $(cat sweeps/sweep-table.tsv)"
echo "ok: a rerun skips finished tasks and reruns a changed config"

# Threshold sets of one config: tasks named after the thresholds.
collect=$(THRESHOLD_SETS="0.4,0.6;0.8" bash "$REPO/slurm/submit-sweep.sh" "$WORK/sets" a.toml -- --chdir="$WORK" --ntasks=2)
wait_for "$collect"
[ -e sets/sweep-t0.4_0.6.h5 ] && [ -e sets/sweep-t0.8.h5 ] && [ -s sets/sweep-t0.8.log ] || fail "threshold-set names: $(ls sets)"
[ "$(cut -f1,2 sets/sweep-table.tsv | tail -n +2 | tr '\t\n' ': ')" = "t0.4_0.6:0.4 t0.4_0.6:0.6 t0.8:0.8 " ] \
  || fail "threshold-set table: $(cat sets/sweep-table.tsv)"
echo "ok: threshold sets named t0.4_0.6 and t0.8"

# select.sbatch
job=$(sbatch --parsable --ntasks=2 --chdir="$WORK" "$REPO/slurm/select.sbatch" select.toml)
wait_for "$job"
run_mpi 2 select --config select.toml --output select-direct.h5 >/dev/null 2>&1
"$PY" "$HERE/compare_h5.py" select-direct.h5 select-slurm.h5 || fail "select.sbatch differs from mpirun"
echo "ok: select.sbatch"

# nightly.sbatch, three nights of a growing corpus: each seeds from the seed
# and the selection of the night before, skips the AVAIL lines already in it,
# moves `latest` and, keeping one night, prunes the one before.
cat >nightly.toml <<TOML
representative = ["$WORK/reference.tsv"]
available = ["$WORK/corpus.tsv"]
side = "tgt"
TOML
declare -A seed_lines=() selected_lines=() skipped=()
# AVAIL grows by 10,000 lines a night.
grown=20000
for night in 2026-01-01 2026-01-02 2026-01-03; do
  if [ "$night" != 2026-01-01 ]; then
    "$TDCONE" synth --pairs 10000 --seed 31 --vocabulary 4000 --first-pair "$grown" --output more.tsv --force >/dev/null 2>&1
    cat more.tsv >>corpus.tsv
    grown=$((grown + 10000))
  fi
  job=$(NIGHT=$night sbatch --parsable --ntasks=2 --chdir="$WORK" "$REPO/slurm/nightly.sbatch" nightly.toml "$WORK/nightly" 1)
  wait_for "$job"
  grep -q "^nightly: $WORK/nightly/$night (latest)" "tdcone-nightly-$job.log" || { tail "tdcone-nightly-$job.log"; fail "night $night"; }
  seed_lines[$night]=0
  [ ! -e "nightly/$night/seed.txt" ] || seed_lines[$night]=$(wc -l <"nightly/$night/seed.txt")
  selected_lines[$night]=$(wc -l <"nightly/$night/selected.txt")
  skipped[$night]=$(sed -n 's/^nightly: \([0-9]*\) AVAIL lines already in the seed: skipped$/\1/p' "tdcone-nightly-$job.log")
  [ -n "${skipped[$night]}" ] || { tail "tdcone-nightly-$job.log"; fail "night $night logs no skipped count"; }
  if [ "$night" = 2026-01-02 ]; then
    cp nightly/2026-01-02/selection.h5 night2.h5
    cp nightly/2026-01-02/seed.txt night2-seed.txt
  fi
done
[ "${seed_lines[2026-01-01]}" -eq 0 ] && [ "${skipped[2026-01-01]}" -eq 0 ] || fail "the first night had a seed"
[ "${seed_lines[2026-01-02]}" -eq "${selected_lines[2026-01-01]}" ] || fail "night 2's seed is not night 1's selection"
[ "${seed_lines[2026-01-03]}" -eq $(( ${seed_lines[2026-01-02]} + ${selected_lines[2026-01-02]} )) ] \
  || fail "night 3's seed is not night 2's seed and selection"
[ "${skipped[2026-01-02]}" -ge "${seed_lines[2026-01-02]}" ] && [ "${skipped[2026-01-03]}" -ge "${seed_lines[2026-01-03]}" ] \
  || fail "AVAIL lines in the seed not skipped: ${skipped[*]} of ${seed_lines[*]}"
[ "$(readlink nightly/latest)" = 2026-01-03 ] || fail "latest is $(readlink nightly/latest)"
[ ! -e nightly/2026-01-02 ] || fail "the older night was not pruned"
"$PY" - night2.h5 night2-seed.txt "${skipped[2026-01-02]}" <<'PY' || fail "second night"
import sys, h5py, tomllib
path, seed_path, skipped = sys.argv[1], sys.argv[2], int(sys.argv[3])
with h5py.File(path, "r") as f:
    config = f.attrs["config"]
    config = tomllib.loads(config.decode() if isinstance(config, bytes) else config)
    assert config["seed-corpus"][0].endswith("2026-01-02/seed.txt"), config["seed-corpus"]
    flags = f["selection/flags"][()]
    ids = f["selection/pair_id"][()]
    stop = int(f["selection"].attrs["stop_rank"])
    assert stop > 0 and not (flags[:stop] & 4).any() and (flags[stop:] & 4).all()
    assert int(((flags & 8) != 0).sum()) == skipped == int(f["selection"].attrs["in_seed"]), "flags 8 = the skipped count"
seeds = [line for line in open(seed_path)]
corpus_lines = open("corpus.tsv").readlines()
corpus = set(corpus_lines)
assert seeds and all(line in corpus for line in seeds), "seed lines are verbatim corpus lines"
seed_text = {line.split("\t")[1] for line in seeds}
chosen = [corpus_lines[i].split("\t")[1] for i in ids[:stop]]
assert not seed_text & set(chosen), "a line of the seed selected again"

PY
echo "ok: nightly.sbatch seeds from all lines selected before (seeds ${seed_lines[2026-01-01]}, ${seed_lines[2026-01-02]}," \
  "${seed_lines[2026-01-03]} lines), skips them in AVAIL (${skipped[2026-01-02]}, ${skipped[2026-01-03]}), moves latest and prunes"

# The requeue path. SLURM's own warning (--signal=B:USR1@SECONDS) comes at its
# 30 s deadline tick, at a moment no test controls: a run warned before its
# ranks start, or after they finished, says nothing, and one warned every run
# may never finish. So the test sends that very warning itself, to the batch
# shell as B: does (scancel --batch --signal=USR1), once the selection has
# selected for 2 s; the requeued run is not warned again and finishes. 400k lines
# selected one by one last long enough for the warning to reach a running
# selection.
"$TDCONE" synth --pairs 400000 --seed 32 --output big.tsv
"$TDCONE" synth --pairs 2000 --seed 32 --first-pair 9000000 --junk-fraction 0 --output big-reference.tsv
cat >requeue.toml <<TOML
representative = ["$WORK/big-reference.tsv"]
available = ["$WORK/big.tsv"]
side = "tgt"
output = "$WORK/requeue-slurm.h5"
batch = false
progress-every = 0.5
TOML
# Its own TMPDIR: Open MPI's session directory is not shared with the job's ranks (writers_collide.sh).
mkdir -p "$WORK/tmp-direct"
TMPDIR="$WORK/tmp-direct" "$TDCONE" select --config requeue.toml --output requeue-direct.h5 >/dev/null 2>&1 &
direct=$!
job=$(sbatch --parsable --ntasks=1 --signal=B:USR1@60 --chdir="$WORK" "$REPO/slurm/select.sbatch" requeue.toml)
selecting() { [ "$(grep -c '^\[select\]' "tdcone-select-$job.log" 2>/dev/null)" -ge 4 ]; }
for _ in $(seq 1200); do  # until the first run has selected for 2 s (2 minutes at most)
  selecting && break
  sleep 0.1
done
selecting || { cat "tdcone-select-$job.log"; tail -30 "$SLURM_LOCAL_DIR/log/slurmd.log"; fail "the select job never started selecting"; }
scancel --batch --signal=USR1 "$job"
for _ in $(seq 600); do  # until the requeued run has written the result
  [ -e requeue-slurm.h5 ] && grep -q "^tdcone select: " "tdcone-select-$job.log" && break
  release_held "$job"
  sleep 1
done
wait_for "$job"
log() { grep -v "tsv:" "tdcone-select-$job.log" | tail -20; }
grep -q "checkpoint of [0-9]* ranked lines written" "tdcone-select-$job.log" || { log; fail "the warned run wrote no checkpoint"; }
grep -q "requeueing job $job" "tdcone-select-$job.log" || { log; fail "the warned job did not requeue itself"; }
grep -q "run 2, resuming from" "tdcone-select-$job.log" || { log; fail "no resumed second run after the requeue"; }
[ -e requeue-slurm.h5 ] || { scontrol show job "$job"; log; fail "the requeued job wrote no result"; }
wait "$direct" || fail "direct run of the requeue job"
"$PY" "$HERE/compare_h5.py" requeue-direct.h5 requeue-slurm.h5 || fail "requeued select differs from an uninterrupted run"
echo "ok: select.sbatch, warned, checkpointed, requeued itself and finished identically" \
  "($(grep -c '^tdcone-select: job' "tdcone-select-$job.log") runs, $(grep -o 'checkpoint of [0-9]*' "tdcone-select-$job.log" | head -1))"

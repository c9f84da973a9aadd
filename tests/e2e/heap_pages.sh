#!/usr/bin/env bash
# tdcone restarts itself once with glibc's heap on transparent huge pages
# (core/memory_pages): the process keeps its name and its id, the tunable is
# set once, a user's own tunables are kept, and glibc.malloc.hugetlb=0 keeps
# 4 KiB pages without a restart. Seen from outside while `synth` is blocked
# writing to a pipe that is not yet read.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# inspect TUNABLES: runs synth with GLIBC_TUNABLES=TUNABLES (unset when
# empty) and prints its process name and GLIBC_TUNABLES as it runs. glibc
# cuts the variable in place at each ':' as it reads it: the pieces follow
# it in /proc/PID/environ, joined here again.
inspect() {
  { env ${1:+GLIBC_TUNABLES="$1"} bash -c 'echo $$ > pid; exec "$0" "$@"' \
      "$TDCONE" synth --pairs 100000 --seed 1 --output - 2>/dev/null; } |
    { sleep 1; p=$(cat pid)
      echo "$(cat /proc/$p/comm) $(tr '\0' '\n' < /proc/$p/environ | sed -n '/^GLIBC_TUNABLES=/{s///p;b;};/^glibc\./p' | paste -sd:)"
      cat > /dev/null; }
}

if grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
  [ "$(inspect "")" = "tdcone glibc.malloc.hugetlb=1" ] || fail "no restart with huge pages: $(inspect "")"
  [ "$(inspect glibc.malloc.check=0)" = "tdcone glibc.malloc.check=0:glibc.malloc.hugetlb=1" ] ||
    fail "the user's tunables lost: $(inspect glibc.malloc.check=0)"
  echo "ok: restarted once with huge pages, named tdcone, the user's tunables kept"
else
  [ "$(inspect "")" = "tdcone " ] || fail "restarted where the kernel's THP mode is not madvise: $(inspect "")"
  echo "ok: the kernel's THP mode is not madvise: no restart"
fi
[ "$(inspect glibc.malloc.hugetlb=0)" = "tdcone glibc.malloc.hugetlb=0" ] || fail "hugetlb=0 not kept: $(inspect glibc.malloc.hugetlb=0)"
echo "ok: glibc.malloc.hugetlb=0 keeps 4 KiB pages"

# Under MPI too: every rank's output as on one rank, the result the same as with 4 KiB pages.
"$TDCONE" synth --pairs 3000 --seed 2 --output c.tsv 2>/dev/null
run_mpi 2 score --input c.tsv --output huge.h5 >/dev/null 2>&1 || fail "score on 2 ranks"
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 run_mpi 2 score --input c.tsv --output small.h5 >/dev/null 2>&1 || fail "score with 4 KiB pages"
"$PY" "$HERE/compare_h5.py" small.h5 huge.h5 || fail "huge pages changed the result"
echo "ok: the same result on huge pages"

#!/usr/bin/env bash
# bench_smoke.sh: every collective benchmark program of `make bench` runs briefly on the
# 3x3 co-simulation: each implementation, two sizes, one repetition. The programs check
# every result they time (a wrong byte exits nonzero), so this tests the benchmarks' own
# code and fails `make test` when one breaks, instead of a later `make bench`. Cycle
# counts are not looked at (tests check correctness; benchmarks check speed).
#   tests/bench_smoke.sh
set -uo pipefail
cd "$(dirname "$0")/.."
run=(sim/canopy-run -n 9 --torus 3x3)
ex=build/driver/examples
fail=0 records=0
go() {
    local out n
    if ! out="$("$@" 2>&1)"; then
        echo "FAIL: $*"; echo "$out" | tail -5; fail=1; return
    fi
    n="$(grep -c '^{' <<<"$out")"
    if [ "$n" -eq 0 ]; then echo "FAIL: no record from: $*"; fail=1; return; fi
    records=$((records + n))
    local cmd="$*"
    echo "ok   $n records: ${cmd#sim/canopy-run -n 9 --torus 3x3 }"
}
for impl in sw-binomial sw-scatter-allgather sw-chain hw; do
    go "${run[@]}" $ex/bcast_bench --impl $impl --sizes 8,4100 --reps 1
done
go "${run[@]}" $ex/bcast_bench --impl hw --hop-latency 1
# A start slack too short for the harness barrier (bench_harness.h): the repetition is run
# again with the slack doubled until every node leaves the barrier before the agreed start.
if out="$("${run[@]}" $ex/bcast_bench --impl hw --sizes 8 --reps 1 --start-slack 100 2>/dev/null)" &&
   grep -q '"start_reruns": [1-9]' <<<"$out"; then
    echo "ok   start slack 100 cycles: repetition run again"; records=$((records + 1))
else
    echo "FAIL: bcast_bench --start-slack 100: no record with start_reruns > 0"; echo "$out" | tail -3; fail=1
fi
for c in "reduce sw-binomial" "reduce hw" "allreduce sw-binomial" "allreduce sw-recursive-doubling" \
         "allreduce sw-ring" "allreduce hw" "barrier sw-dissemination" "barrier hw"; do
    set -- $c
    go "${run[@]}" $ex/reduce_bench --bench "$1" --impl "$2" --sizes 8,2048 --reps 1
done
go "${run[@]}" $ex/reduce_bench --bench allreduce --impl hw --inflight 32 --reps 1
go "${run[@]}" $ex/amo_bench --ops 4 --reps 1
for b in bcast reduce barrier collect alltoall; do
    go shmem/oshrun -n 9 --torus 3x3 build/shmem/examples/shmem_coll_bench --bench $b --sizes 8,1024 --iters 1
    go env CANOPY_SHMEM_HW=0 shmem/oshrun -n 9 --torus 3x3 build/shmem/examples/shmem_coll_bench --bench $b \
        --sizes 8,1024 --iters 1
done
echo "bench smoke: $records records"
exit $fail

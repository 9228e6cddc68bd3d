#!/usr/bin/env bash
# run_errors.sh: every misuse mode of errors.c must fail the run with a message naming
# the call and the bad value; mode "ok" must pass; shmem_global_exit must end every PE at
# once with its status.   tests/shmem/run_errors.sh 9
set -uo pipefail
cd "$(dirname "$0")/../.."
n="$1"
bin=build/tests/shmem/errors
fail=0
out="$(shmem/oshrun -n "$n" "$bin" ok 2>&1)" || { echo "FAIL: mode ok failed:"; echo "$out"; fail=1; }
expect() {
    local mode="$1" pattern="$2"
    local out
    if out="$(shmem/oshrun -n "$n" "$bin" "$mode" 2>&1)"; then
        echo "FAIL: $mode: the run succeeded"; fail=1; return
    fi
    if grep -q -- "$pattern" <<<"$out"; then
        echo "ok   $mode: $(grep -m1 -- "$pattern" <<<"$out")"
    else
        echo "FAIL: $mode: no message matching '$pattern' in:"; echo "$out" | tail -5; fail=1
    fi
}
expect badpe "shmem_long_p: invalid PE $n"
expect negpe "shmem_long_g: invalid PE -1"
expect badteam "shmem_long_sum_reduce: called with SHMEM_TEAM_INVALID"
expect badroot "shmem_broadcastmem: invalid root $n"
expect notsym "shmem_long_put: address .* is not symmetric"
expect badaset "shmem_barrier: invalid active set (PE_start 1, logPE_stride 1, PE_size $n)"
expect badcmp "shmem_long_wait_until: invalid comparison 42"
expect amonotsym "shmem_long_atomic_fetch_add: address .* is not symmetric"
expect amoalign "shmem_long_atomic_inc: address .* is not aligned to its size (8 bytes)"
expect locknotsym "shmem_set_lock: address .* is not symmetric"
expect ctxdead "shmem_ctx_long_p: context .* used after shmem_ctx_destroy"
expect ctxinvalid "shmem_ctx_long_p: called with SHMEM_CTX_INVALID"
expect sigop "shmem_long_put_signal: invalid sig_op 7"
expect a2astride "shmem_long_alltoalls: invalid strides (dst 0, sst 1)"
expect unlocked "shmem_clear_lock: lock .* is not held"
# A PE that never comes: the others' barrier ends with its tree down (40 us), and the
# recovery that follows stops the job, within its bound, naming a PE that did not join.
CANOPY_SHMEM_COLL_TIMEOUT_US=40 expect silent "shmem barrier: a collective's tree went down and PE $((n - 1)) did not join the recovery"
# The other PEs wait in a barrier: only the global exit can end them. The time limit is
# far below the co-simulator's stall watchdog (minutes), so a job left hanging fails here.
for status in 0 3; do
    out="$(timeout 60 shmem/oshrun -n "$n" "$bin" exit "$status" 2>&1)"; rc=$?
    if [ "$rc" -eq "$status" ] && grep -q "ended the job with status $status" <<<"$out" &&
       ! grep -q "passed a barrier\|FAIL" <<<"$out"; then
        echo "ok   global_exit($status): the job ended with status $rc"
    else
        echo "FAIL: global_exit($status): exit status $rc, output:"; echo "$out" | tail -5; fail=1
    fi
done
exit $fail

#!/usr/bin/env bash
# run_legacy.sh: build/tests/shmem/legacy (pre-1.2 SHMEM code, built by shmem/oshcc) on n
# PEs, twice: no PE calls shmem_finalize, then only the even PEs do ("mixed"). Each run
# must print "legacy: ok", and every PE's CANOPY_SHMEM_STATS table, which only the
# finalize prints: so the implicit finalize at exit ran on every PE, and met the explicit
# one in the mixed run.   tests/shmem/run_legacy.sh 9
set -uo pipefail
cd "$(dirname "$0")/../.."
n="$1"
fail=0
for mode in none mixed; do
    out="$(CANOPY_SHMEM_STATS=all timeout 300 shmem/oshrun -n "$n" build/tests/shmem/legacy "$mode" 2>&1)"; rc=$?
    stats="$(grep -c '^canopy-shmem stats' <<<"$out")"
    if [ "$rc" -eq 0 ] && grep -q '^legacy: ok' <<<"$out" && [ "$stats" = "$n" ]; then
        echo "ok   $mode: $(grep '^legacy: ok' <<<"$out"); $stats PEs finalized"
    else
        echo "FAIL: $mode: exit status $rc, $stats of $n PEs finalized:"; echo "$out" | tail -15; fail=1
    fi
done
exit $fail

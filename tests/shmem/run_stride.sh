#!/usr/bin/env bash
# run_stride.sh: the strided active sets of build/tests/shmem/stride on one torus, twice:
#  1. as shmem_init sets up (stride trees on): every PE's CANOPY_SHMEM_STATS=all table must
#     show no barrier, broadcast or reduce in software (they all ran on the stride trees),
#     and no "run in software" message;
#  2. with CANOPY_SHMEM_STRIDE_TREES=0: the same checksum of every result; with --sw the
#     reductions must then have run in software (on 3x3 no other tree fits these sets; on
#     2x2x2 the lazy path finds transit-free trees for them, so it is not required there).
#   tests/shmem/run_stride.sh 9 [--sw]
set -euo pipefail
cd "$(dirname "$0")/../.."
n="$1"
bin=build/tests/shmem/stride
hw_out="$(CANOPY_SHMEM_STATS=all shmem/oshrun -n "$n" "$bin" 2>&1)"
echo "$hw_out"
grep -Eq 'PE 0 of [0-9]+ .* [1-9] stride trees' <<<"$hw_out" || { echo "FAIL: no stride trees were made"; exit 1; }
[ "$(grep -c '^canopy-shmem stats' <<<"$hw_out")" = "$n" ] || { echo "FAIL: not every PE printed its stats"; exit 1; }
if grep -Eq '^  (barrier|broadcast|reduce) +[0-9]+ +[1-9]' <<<"$hw_out"; then
    echo "FAIL: a strided active-set collective ran in software with the stride trees on"; exit 1
fi
if grep -q 'run in software' <<<"$hw_out"; then echo "FAIL: a group fell back to software"; exit 1; fi
sw_out="$(CANOPY_SHMEM_STRIDE_TREES=0 CANOPY_SHMEM_STATS=1 shmem/oshrun -n "$n" "$bin" 2>&1)"
echo "$sw_out"
grep -Eq 'PE 0 of [0-9]+ .* 0 stride trees' <<<"$sw_out" || { echo "FAIL: CANOPY_SHMEM_STRIDE_TREES=0 still made stride trees"; exit 1; }
if [ "${2:-}" = "--sw" ]; then
    grep -Eq '^  reduce +0 +[1-9]' <<<"$sw_out" || { echo "FAIL: without stride trees the reductions did not run in software"; exit 1; }
fi
a="$(grep '^checksum' <<<"$hw_out")"
b="$(grep '^checksum' <<<"$sw_out")"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: results differ: stride trees '$a', without '$b'"; exit 1; }
echo "stride trees and without: identical results ($a)"

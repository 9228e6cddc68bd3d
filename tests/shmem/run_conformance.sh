#!/usr/bin/env bash
# run_conformance.sh: the conformance test on one torus, collectives in the routers
# (CANOPY_SHMEM_STATS=1: the table must show reductions run in hardware), and with
# --sw also with CANOPY_SHMEM_HW=0, whose checksum of every result must be identical.
#   tests/shmem/run_conformance.sh 9 [--sw]
set -euo pipefail
cd "$(dirname "$0")/../.."
n="$1"
bin=build/tests/shmem/conformance
hw_out="$(CANOPY_SHMEM_STATS=1 shmem/oshrun -n "$n" "$bin")"
echo "$hw_out"
grep -Eq '^  reduce +[1-9][0-9]* ' <<<"$hw_out" || { echo "FAIL: no reduction ran in hardware"; exit 1; }
grep -Eq '^  barrier +[1-9][0-9]* ' <<<"$hw_out" || { echo "FAIL: no barrier ran in hardware"; exit 1; }
if [ "${2:-}" = "--sw" ]; then
    sw_out="$(CANOPY_SHMEM_HW=0 CANOPY_SHMEM_STATS=1 shmem/oshrun -n "$n" "$bin")"
    echo "$sw_out"
    grep -Eq '^  reduce +0 ' <<<"$sw_out" || { echo "FAIL: CANOPY_SHMEM_HW=0 still used the hardware"; exit 1; }
    a="$(grep '^checksum' <<<"$hw_out")"
    b="$(grep '^checksum' <<<"$sw_out")"
    [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: results differ: hardware '$a', software '$b'"; exit 1; }
    echo "hardware and software results identical ($a)"
fi

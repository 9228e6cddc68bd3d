#!/usr/bin/env bash
# tests/sim/pgo_identical.sh TORUS: the profile-guided fabric build (sim/sim.mk SIM_PGO)
# is the same model compiled differently, so every scenario's output must be identical to
# the plain build's, byte for byte. Both binaries must already be built (run_tests.py).
set -euo pipefail
torus=$1
plain=build/sim/$torus-L1/canopy-fabric
pgo=build/sim/$torus-L1-pgo/canopy-fabric
status=0
for scenario in "uniform --flits 50000 --seed 9" "hotspot --flits 20000" "malformed" \
                "allpairs" "latency" "saturation"; do
  # shellcheck disable=SC2086  # the scenario is words on purpose
  a=$(timeout 600 $plain $scenario | md5sum)
  # shellcheck disable=SC2086
  b=$(timeout 600 $pgo $scenario | md5sum)
  if [ "$a" = "$b" ]; then echo "same: $scenario"; else echo "DIFFERENT: $scenario"; status=1; fi
done
exit $status

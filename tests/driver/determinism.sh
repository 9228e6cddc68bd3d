#!/usr/bin/env bash
# determinism.sh TORUS PROGRAM [ARGS]: run a libcanopy program twice on the co-simulation;
# its output (which reports simulated cycle counts) must be identical, and must report
# some. The OS scheduler must not be able to change a simulated result.
set -euo pipefail
torus=$1; shift
nodes=$(( $(echo "$torus" | tr 'x' '*') ))
first=$(sim/canopy-run -n "$nodes" --torus "$torus" "$@")
second=$(sim/canopy-run -n "$nodes" --torus "$torus" "$@")
grep -q cycles <<<"$first" || { echo "no cycle counts in the output"; exit 1; }
if [ "$first" != "$second" ]; then
  echo "two runs differ:"; diff <(echo "$first") <(echo "$second") || true; exit 1
fi
echo "identical cycle counts in two runs:"
echo "$first"

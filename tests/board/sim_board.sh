#!/usr/bin/env bash
# tests/board/sim_board.sh [--full]: `make sim-board`, the board path verified without a board.
#
# Starts the simulated board (build/board/canopy-board-sim: canopy_board_core, the RTL of
# the bitstream but its PLL and pins) on a pseudo-terminal, then, through that pty exactly
# as through the board's USB UART:
#   1. the on-chip self-test, run at reset, must pass (the simulator reports the LEDs);
#   2. tests/board/serial_test: the serial backend's errors and the bridge's refusals, and
#      the self-test run again on command;
#   3. libcanopy's put, broadcast and reduce tests (tests/driver/), one process per node
#      over the serial backend (tools/board-run), with sizes cut to what the simulated
#      line carries in a few minutes (the line is the bottleneck: docs/bring-up.md):
#      put_sizes of 1 and 2 bytes, all pairs, with the guards around (a window of 8-byte
#      multiple: 1 alone would not be); bcast in a small window
#      (trees programmed by CSRs and by CONFIG packets, 8 bytes from node 0 on both, two
#      trees in flight with 600 bytes each, SKIP_SRC with 500); reduce in a small window:
#      case 1 as allreduces of one element, each dtype once with the ops in turn (every op
#      and every dtype; with --full every op for every dtype, 12 pairs, about 20 s of
#      simulation each on this line), against the host reference. The co-simulation's
#      reduce tests cover every pair through the same RTL; here the serial path is what is
#      under test. `make stress` runs --full. Longer runs (put_sizes 8, bcast --sizes 300, reduce cases 3 and 4:
#      barriers and syncs, mismatches) pass too but take a quarter hour on a loaded
#      2-core machine (docs/bring-up.md, "Measured").
# Every step has a wall-clock limit; the simulator has its own (--max-seconds). Exit 0 only
# if every step passed; the simulator's summary (cycles, bytes each way) is printed last.
set -uo pipefail
cd "$(dirname "$0")/../.."
pairs=--one-op-per-dtype
case "${1:-}" in
  --full) pairs= ;;
  "") ;;
  *) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac
SIM=build/board/canopy-board-sim
TTY=build/board/tty
LOG=build/board/sim-board.log
mkdir -p build/board
rm -f "$TTY"

"$SIM" --pty "$TTY" --max-seconds 1500 > "$LOG" 2>&1 &
sim=$!
cleanup() { kill "$sim" 2>/dev/null; wait "$sim" 2>/dev/null; }
trap cleanup EXIT

fail() { echo "sim-board: FAILED: $*"; cleanup; echo "--- simulator log:"; cat "$LOG"; exit 1; }

for _ in $(seq 1 100); do grep -q '^selftest:' "$LOG" 2>/dev/null && break; sleep 0.1; done
grep -q '^selftest: passed' "$LOG" || fail "on-chip self-test: $(grep '^selftest' "$LOG" || echo 'no result')"
echo "sim-board: $(grep '^selftest:' "$LOG")"

# The simulated line is slow (tens of kilocycles per second): answers get long timeouts.
export CANOPY_SERIAL_TIMEOUT_MS=30000
step() {  # step NAME LIMIT COMMAND...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" || fail "$name (exit $?)"
  echo "sim-board: $name passed ($((SECONDS - t0)) s)"
}
step selftest-trees 60 build/tests/board/selftest_trees_test
step serial-errors 600 build/tests/board/serial_test "$TTY"
run="tools/board-run --port $TTY -n 4 --timeout 900"
step put 900 $run build/tests/driver/put_sizes 2
step bcast 900 $run build/tests/driver/bcast --small-window --sizes 8 --roots 0 --big 8
step reduce 900 $run build/tests/driver/reduce --small-window --roots none --count 1 --cases 1 $pairs
kill -TERM "$sim"; wait "$sim"; rc=$?
trap - EXIT
tail -n 1 "$LOG"
[ "$rc" = 0 ] || fail "the simulator exited with $rc"
echo "sim-board: all passed"

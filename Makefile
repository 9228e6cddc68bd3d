# canopy: top-level Makefile. `make help` lists the targets.
#
# Every target that needs a tool checks for it first and, run as root on a fresh
# machine, installs it (tools/ensure-deps.sh); nothing needs a manual setup step.

SHELL         := /bin/bash
.DEFAULT_GOAL := help
RTL_SRCS      := $(shell cat rtl/files.f)

include sim/sim.mk
include driver/driver.mk
-include synth/synth.mk
-include tests/unit/unit.mk
-include tests/driver-pci/pci.mk

.PHONY: help demo test stress lint bench gen clean deps-sim deps-plot
help:
	@echo "canopy targets:"
	@echo "  make demo     run the demonstration on a simulated 3x3 torus"
	@echo "  make test     run the whole test suite (build included; about 10 minutes on 2 cores)"
	@echo "  make stress   the test suite plus long stress runs"
	@echo "  make lint     verilator --lint-only -Wall on all RTL"
	@echo "  make synth    Yosys synthesis + nextpnr ECP5 place and route of one node"
	@echo "  make bench    measurements into build/bench/results.json"
	@echo "  make sim TORUS=4x4x4 [LINK_LATENCY=n] [WAVES=1]   build one fabric simulator"
	@echo "  make gen      regenerate definitions from spec/"

deps-sim:
	@tools/ensure-deps.sh verilator

deps-plot:
	@tools/ensure-deps.sh plot

demo: $(call sim_bin,3x3)
	@$(call sim_bin,3x3) demo

test: deps-sim
	@python3 tests/run_tests.py

stress: deps-sim
	@python3 tests/run_tests.py --stress

# Lint every configuration the project builds: the router at 1..4 dimensions and the
# simulation fabric (whose link pipes are lint-checked at latency 0 and 3).
LINT := verilator --lint-only -Wall -Irtl
lint: deps-sim
	@for d in 1 2 3 4; do \
	  $(LINT) --top-module canopy_router -GNumDims=$$d $(RTL_SRCS) || exit 1; \
	  echo "lint: canopy_router NumDims=$$d clean"; done
	@for l in 0 3; do \
	  $(LINT) --top-module canopy_torus_fabric -GLinkLatency=$$l $(RTL_SRCS) $(SIM_SV_TOP) || exit 1; \
	  echo "lint: canopy_torus_fabric LinkLatency=$$l clean"; done

bench: deps-sim
	@python3 tools/bench.py

gen:
	python3 tools/gen_packet.py

clean:
	rm -rf build

# canopy: top-level Makefile. `make help` lists the targets.
#
# Every target that needs a tool checks for it first and, run as root on a fresh
# machine, installs it (tools/ensure-deps.sh); nothing needs a manual setup step.

SHELL         := /bin/bash
.DEFAULT_GOAL := help
RTL_SRCS      := $(shell cat rtl/files.f)
# Where `include files are found (the assertion macros).
RTL_INC       := -Irtl/common
# What a build of the RTL depends on: the sources and the headers they include. Rules
# list $(RTL_DEPS) as prerequisites and pass $(RTL_SRCS) to the tools.
RTL_DEPS      := $(RTL_SRCS) $(wildcard rtl/common/*.svh)
# The Verilator builds compile their C++ through ccache (Verilator's OBJCACHE; installed
# with Verilator by tools/ensure-deps.sh, skipped if absent): every build compiles the
# same Verilator runtime (verilated.cpp, verilated_threads.cpp) with the same flags, 10 to
# 20 s of a core each time, and the test suite makes about 40 such builds.
export CCACHE_DIR ?= $(CURDIR)/build/ccache
VL_OBJCACHE   := $(if $(shell command -v ccache 2>/dev/null),ccache)

include sim/sim.mk
include fw/fw.mk
include driver/driver.mk
include shmem/shmem.mk
include sim/link/link.mk
include sim/board/board.mk
-include synth/synth.mk
-include synth/board.mk
-include formal/formal.mk
-include tests/unit/unit.mk
-include tests/driver-pci/pci.mk
-include tests/hostif/hostif.mk

.PHONY: help demo demo-put demo-fabric test stress lint bench gen clean deps-sim deps-plot
help:
	@echo "canopy targets:"
	@echo "  make demo     an OpenSHMEM program on a simulated 3x3 torus: collectives in the routers vs software"
	@echo "  make demo-put the libcanopy put demonstration (all to all)"
	@echo "  make demo-fabric   the router-only fabric's traffic summary"
	@echo "  make test     run the whole test suite (build included; 16 to 19 minutes on 2 cores, last timed at dd1aa3b)"
	@echo "  make stress   the test suite plus long stress runs"
	@echo "  make lint     verilator --lint-only -Wall on all RTL"
	@echo "  make synth    Yosys synthesis + nextpnr ECP5 place and route of one node"
	@echo "  make formal   SymbiYosys proofs of the router's building blocks (formal/README.md)"
	@echo "  make formal-mutants   the same proofs must catch every seeded bug of formal/mutants.toml"
	@echo "  make bench    measurements into build/bench/results.json"
	@echo "  make sim-board     the board (2x2 torus, serial bridge, self-test) simulated on a pty: self-test and driver tests over serial"
	@echo "  make bitstream [BOARD=ecp5-evn]   Yosys + nextpnr-ecp5 + ecppack: build/board/<board>/canopy-<board>.bit"
	@echo "  make prog [BOARD=ecp5-evn]        load the bitstream over the board's JTAG (openFPGALoader)"
	@echo "  make sim TORUS=4x4x4 [LINK_LATENCY=n] [WAVES=1]   build one fabric simulator"
	@echo "  make gen      regenerate definitions from spec/"

deps-sim:
	@tools/ensure-deps.sh verilator

deps-plot:
	@tools/ensure-deps.sh plot

# The demonstration: an ordinary OpenSHMEM program on 9 simulated nodes, its collectives
# in the routers and then in software (CANOPY_SHMEM_HW=0), verified and compared; the
# plot goes to build/demo/shmem-demo.png (tools/shmem_demo.py).
demo: build/shmem/examples/shmem_demo $(call cosim_bin,3x3) | deps-plot
	@python3 tools/shmem_demo.py --torus 3x3 --binary build/shmem/examples/shmem_demo

# The point-to-point demonstration: a C program on libcanopy alone (puts, all to all).
demo-put: build/driver/examples/put_demo $(call cosim_bin,3x3)
	@sim/canopy-run -n 9 --torus 3x3 build/driver/examples/put_demo

# The router-only fabric's own summary (no host interface, no driver).
demo-fabric: $(call sim_bin,3x3)
	@$(call sim_bin,3x3) demo

test: deps-sim
	@python3 tests/run_tests.py

stress: deps-sim
	@python3 tests/run_tests.py --stress

# Lint every configuration the project builds: the node (router + host interface) at
# 1..4 dimensions, the link pipe as a plain wire (latency 0), both simulators' tiles (links
# of latency 1 and 3) and the formal harnesses (formal/*_formal.sv, each around its block).
LINT := verilator --lint-only -Wall $(RTL_INC)
lint: deps-sim
	@for d in 1 2 3 4; do \
	  $(LINT) --top-module canopy_node -GNumDims=$$d $(RTL_SRCS) || exit 1; \
	  echo "lint: canopy_node NumDims=$$d clean"; done
	@$(LINT) --top-module canopy_link_pipe -GLatency=0 $(RTL_SRCS)
	@echo "lint: canopy_link_pipe Latency=0 clean"
	@$(LINT) --top-module canopy_link $(RTL_SRCS)
	@$(LINT) --top-module canopy_link -GNumVcs=2 -GFrameWords=8 -GRbDepth=256 -GP2pCredits=32 -GHoldDepth=32 $(RTL_SRCS)
	@echo "lint: canopy_link (default, and 2 VCs with 8-word frames) clean"
	@for l in 1 3; do for p in 0 1; do \
	  $(LINT) --top-module canopy_router_tile -GLinkLatency=$$l -GLinkProtect=$$p $(RTL_SRCS) $(SIM_SV_TOP) || exit 1; \
	  $(LINT) --top-module canopy_node_tile -GNumDims=3 -GLinkLatency=$$l -GLinkProtect=$$p $(RTL_SRCS) $(COSIM_SV_TOP) || exit 1; \
	  echo "lint: canopy_router_tile, canopy_node_tile LinkLatency=$$l LinkProtect=$$p clean"; done; done
	@for y in 2 1; do \
	  $(LINT) --top-module canopy_board_core -GSizeY=$$y -GClockHz=$(BOARD_CLOCK_HZ) -GBaudRate=$(BOARD_BAUD) $(RTL_SRCS) $(BOARD_RTL) || exit 1; \
	  echo "lint: canopy_board_core 2x$$y ($(BOARD)'s clock and baud rate) clean"; done
	@for f in formal/*_formal.sv; do top=$$(basename $$f .sv); \
	  $(LINT) --top-module $$top $(RTL_SRCS) $$f || exit 1; \
	  echo "lint: $$top clean"; done

bench: deps-sim
	@python3 tools/bench.py

gen:
	python3 tools/gen_packet.py
	python3 tools/gen_regmap.py
	python3 tools/gen_serial.py
	python3 tools/gen_selftest.py

clean:
	rm -rf build

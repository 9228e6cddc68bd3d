# canopy: top-level Makefile. `make help` lists the targets.
#
# Every target that needs a tool checks for it first and, run as root on a fresh
# machine, installs it (tools/ensure-deps.sh); nothing needs a manual setup step.

SHELL       := /bin/bash
.DEFAULT_GOAL := help
RTL_SRCS    := $(shell cat rtl/files.f)

include sim/sim.mk

.PHONY: help deps-sim gen
help:
	@echo "canopy targets:"
	@echo "  make demo     run the demonstration on a simulated 3x3 torus"
	@echo "  make test     run the whole test suite"
	@echo "  make lint     verilator --lint-only -Wall on all RTL"
	@echo "  make synth    Yosys synthesis + nextpnr ECP5 place and route of one node"
	@echo "  make bench    measurements into build/bench/results.json"
	@echo "  make sim TORUS=4x4x4 [LINK_LATENCY=n] [WAVES=1]   build one fabric simulator"
	@echo "  make gen      regenerate definitions from spec/"

deps-sim:
	@tools/ensure-deps.sh verilator

gen:
	python3 tools/gen_packet.py

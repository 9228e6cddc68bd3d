# tests/hostif/hostif.mk: focused tests of the host interface RTL, assertions enabled.
#
#   make hostif-tests        build and run them all (every test runs even if one fails;
#                            the target fails if any did)
#   make hostif-<name>       build and run one, <name> from HOSTIF_TESTS
#
# Included by the top-level Makefile, which provides RTL_SRCS (rtl/files.f) and the phony
# deps-sim (installs Verilator). Each test is a C++ driver (tests/hostif/<name>_test.cpp)
# around an RTL block used directly as the Verilator top (HOSTIF_TOP_<name>, with its
# parameters in HOSTIF_PARAMS_<name>), built with `verilator --cc --exe --build --assert
# -Wall` into build/hostif/<name>/ (build log: build/hostif/<name>/build.log). A test binary
# prints one line, `PASS <name>` or `FAIL <name>: reason`, and exits non-zero on failure.
#
#   dma_writer  canopy_dma_writer against a C++ AXI4 host-memory slave (random backpressure)
#   ack_table   canopy_ack_table: every owed acknowledgement sent exactly once, to the right
#               node, with refusals; saturation
#   node        canopy_node (NumDims 1, links idle) driven through its AXI4 slave by a C++
#               host, with a C++ host memory behind its AXI4 master (writes, and reads for
#               gets): the host interface end to end (registers, injection, ejection, ACKs,
#               refusals, writeback, gets served to itself)

HOSTIF_TESTS := dma_writer ack_table node

HOSTIF_SRC_DIR   := tests/hostif
HOSTIF_BUILD_DIR := build/hostif

HOSTIF_TOP_dma_writer    := canopy_dma_writer
HOSTIF_PARAMS_dma_writer := -GTagWidth=16 -GNumSrcs=2
HOSTIF_TOP_ack_table     := canopy_ack_table
HOSTIF_PARAMS_ack_table  := -GMaxNodes=64
HOSTIF_TOP_node          := canopy_node
HOSTIF_PARAMS_node       := -GNumDims=1 -GBuildGit=305441741 -GBuildDate=20240607

# Runtime and model at -O1: the node test simulates a few hundred thousand cycles, the
# build still dominates. -Wall lint warnings are fatal, as in rtl/.
HOSTIF_VERILATOR_FLAGS := --cc --exe --build -j 2 -Wall --assert $(RTL_INC) --prefix Vtb \
  -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1 OBJCACHE=$(VL_OBJCACHE)" \
  -CFLAGS "-std=c++17 -Wall -Wextra -I$(CURDIR)/$(HOSTIF_SRC_DIR) -I$(CURDIR)/sim -I$(CURDIR)/driver/include"

hostif_bin = $(HOSTIF_BUILD_DIR)/$(1)/hostif_test

$(HOSTIF_BUILD_DIR)/%/hostif_test: $(HOSTIF_SRC_DIR)/%_test.cpp $(HOSTIF_SRC_DIR)/hostif_common.hpp sim/rng.hpp driver/include/canopy_regs.h \
                                   $(RTL_DEPS) | deps-sim
	@mkdir -p $(@D)
	@echo "  VERILATE hostif/$*"
	@verilator $(HOSTIF_VERILATOR_FLAGS) --top-module $(HOSTIF_TOP_$*) $(HOSTIF_PARAMS_$*) \
	  --Mdir $(@D)/obj -o ../hostif_test \
	  $(RTL_SRCS) $(CURDIR)/$(HOSTIF_SRC_DIR)/$*_test.cpp \
	  > $(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

.PHONY: hostif-tests $(addprefix hostif-,$(HOSTIF_TESTS))

$(foreach t,$(HOSTIF_TESTS),$(eval hostif-$(t): $(call hostif_bin,$(t))))
$(addprefix hostif-,$(HOSTIF_TESTS)):
	@$(call hostif_bin,$(patsubst hostif-%,%,$@))

hostif-tests: $(foreach t,$(HOSTIF_TESTS),$(call hostif_bin,$(t)))
	@failed=""; \
	$(foreach t,$(HOSTIF_TESTS),$(call hostif_bin,$(t)) || failed="$$failed $(t)";) \
	if [ -n "$$failed" ]; then echo "hostif-tests: FAILED:$$failed"; exit 1; fi; \
	echo "hostif-tests: all $(words $(HOSTIF_TESTS)) passed"

# tests/unit/unit.mk: unit tests of the router's building blocks, assertions enabled.
#
#   make unit-tests          build and run them all (every test runs even if one fails;
#                            the target fails if any did)
#   make unit-<name>         build and run one, <name> from UNIT_TESTS
#
# Included by the top-level Makefile, which provides RTL_SRCS (rtl/files.f) and the phony
# deps-sim (installs Verilator). Each test is a C++ driver (tests/unit/<name>_test.cpp)
# around a small test top (tests/unit/canopy_unit_<name>_tb.sv) that instantiates the
# block once per parameter set, built with `verilator --cc --exe --build --assert -Wall`
# into build/unit/<name>/ (build log: build/unit/<name>/build.log). A test binary prints one
# line, `PASS <name>` or `FAIL <name>: reason`, and exits non-zero on failure.
#
# credit_counter_neg is the negative test: the credit_counter binary run with --negative
# consumes without a credit (and returns one too many) and passes only if the RTL
# assertions report it, which proves assertions are live in these builds.

UNIT_TESTS := fifo grant_fifo credit_counter credit_counter_neg rr_arbiter lrg_arbiter crossbar route_dor route_lookahead vc_fifo switch_alloc output_vc_state hdr_check \
  router_input coll_table coll_rx_sched coll_wmem coll_desc_queue coll_send_sched reduce_alu reduce_pool reduce_engine

UNIT_SRC_DIR   := tests/unit
UNIT_BUILD_DIR := build/unit

# The build a test runs (its own, except for the negative test) and its arguments.
unit_build_of = $(if $(filter credit_counter_neg,$(1)),credit_counter,$(1))
unit_args_credit_counter_neg := --negative
unit_bin = $(UNIT_BUILD_DIR)/$(1)/unit_test
unit_cmd = $(call unit_bin,$(call unit_build_of,$(1))) $(unit_args_$(1))

UNIT_BUILDS := $(sort $(foreach t,$(UNIT_TESTS),$(call unit_build_of,$(t))))

# Runtime and model compiled at -O0: the tests run in well under a second, so build time
# dominates (-O0 saves about a third of it). -Wall lint warnings are fatal, as in rtl/.
UNIT_VERILATOR_FLAGS := --cc --exe --build -j 2 -Wall --assert $(RTL_INC) --prefix Vtb \
  -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0 OBJCACHE=$(VL_OBJCACHE)" \
  -CFLAGS "-std=c++17 -Wall -Wextra -I$(CURDIR)/$(UNIT_SRC_DIR) -I$(CURDIR)/sim -I$(CURDIR)/driver/include"

$(UNIT_BUILD_DIR)/%/unit_test: $(UNIT_SRC_DIR)/canopy_unit_%_tb.sv $(UNIT_SRC_DIR)/%_test.cpp \
                           $(UNIT_SRC_DIR)/unit_common.hpp $(UNIT_SRC_DIR)/route_ref.hpp $(UNIT_SRC_DIR)/coll_model.hpp sim/rng.hpp driver/include/canopy_packet.h $(RTL_DEPS) | deps-sim
	@mkdir -p $(@D)
	@echo "  VERILATE unit/$*"
	@verilator $(UNIT_VERILATOR_FLAGS) --top-module canopy_unit_$*_tb \
	  --Mdir $(@D)/obj -o ../unit_test \
	  $(RTL_SRCS) $(UNIT_SRC_DIR)/canopy_unit_$*_tb.sv $(CURDIR)/$(UNIT_SRC_DIR)/$*_test.cpp \
	  > $(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

.PHONY: unit-tests $(addprefix unit-,$(UNIT_TESTS))

# unit-<name>: build what the test needs, run it.
$(foreach t,$(UNIT_TESTS),$(eval unit-$(t): $(call unit_bin,$(call unit_build_of,$(t)))))
$(addprefix unit-,$(UNIT_TESTS)):
	@$(call unit_cmd,$(patsubst unit-%,%,$@))

# unit-tests: every build first, then every test, then the verdict.
unit-tests: $(foreach b,$(UNIT_BUILDS),$(call unit_bin,$(b)))
	@failed=""; \
	$(foreach t,$(UNIT_TESTS),$(call unit_cmd,$(t)) || failed="$$failed $(t)";) \
	if [ -n "$$failed" ]; then echo "unit-tests: FAILED:$$failed"; exit 1; fi; \
	echo "unit-tests: all $(words $(UNIT_TESTS)) passed"

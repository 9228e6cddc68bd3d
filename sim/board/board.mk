# sim/board/board.mk: the board simulator and the board tests; included by the top-level
# Makefile (RTL_SRCS, RTL_INC, deps-sim).
#
#   make sim-board     build build/board/canopy-board-sim, then run tests/board/sim_board.sh:
#                      the self-test, the serial bridge's refusals, and libcanopy's put,
#                      broadcast and reduce tests over the serial backend, through a pty
#
# The board's parameters (clock, baud rate) are the board build's (rtl/board/<board>.mk),
# so the RTL simulated is the RTL the bitstream is made of; only the PLL and pins (the
# board top around canopy_board_core) are not simulated.
BOARD ?= ecp5-evn
include rtl/board/$(BOARD).mk

BOARD_RTL      := $(shell cat rtl/board/files.f)
BOARD_SIM_DIR  := build/board
BOARD_SIM_BIN  := $(BOARD_SIM_DIR)/canopy-board-sim
BOARD_CPB      := $(shell echo $$(( ($(BOARD_CLOCK_HZ) + $(BOARD_BAUD) / 2) / $(BOARD_BAUD) )))
BOARD_CORE_PARAMS := -GClockHz=$(BOARD_CLOCK_HZ) -GBaudRate=$(BOARD_BAUD)

$(BOARD_SIM_BIN): $(RTL_DEPS) $(BOARD_RTL) sim/board/board_main.cpp rtl/board/$(BOARD).mk | deps-sim
	@mkdir -p $(BOARD_SIM_DIR)
	@echo "  VERILATE canopy_board_core ($(BOARD): $(BOARD_CLOCK_HZ) Hz, $(BOARD_BAUD) baud, $(BOARD_CPB) cycles per bit)"
	@verilator --cc --exe --build -j $(SIM_JOBS) -Wall --assert $(RTL_INC) $(SIM_VFLAGS) \
	  --top-module canopy_board_core --Mdir $(BOARD_SIM_DIR)/obj -o ../canopy-board-sim \
	  $(BOARD_CORE_PARAMS) -GBuildGit=32\'h$(BUILD_GIT) -GBuildDate=$(BUILD_DATE) \
	  -CFLAGS "-std=c++17 -DCANOPY_CPB=$(BOARD_CPB)" $(SIM_OPT) \
	  $(RTL_SRCS) $(BOARD_RTL) $(CURDIR)/sim/board/board_main.cpp > $(BOARD_SIM_DIR)/build.log 2>&1 \
	  || { tail -n 40 $(BOARD_SIM_DIR)/build.log; exit 1; }

.PHONY: sim-board board-sim
board-sim: $(BOARD_SIM_BIN)
sim-board: $(BOARD_SIM_BIN) board-tests-build
	@tests/board/sim_board.sh

# The board tests' programs: the serial test (sanitizers, like the driver tests) and the
# driver tests it runs over the serial backend.
build/tests/board/serial_test: tests/board/serial_test.c build/driver-asan/libcanopy.a $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_TEST_CFLAGS) $< build/driver-asan/libcanopy.a $(DRV_LIBS) -o $@
.PHONY: board-tests-build
board-tests-build: build/tests/board/serial_test build/tests/driver/put_sizes build/tests/driver/bcast build/tests/driver/reduce
build/tests/board/selftest_trees_test: tests/board/selftest_trees_test.c tests/board/selftest_trees.h build/driver-asan/libcanopy.a $(FW_SRCS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_TEST_CFLAGS) -Ifw/include -Itests/board $< $(FW_SRCS) build/driver-asan/libcanopy.a $(DRV_LIBS) -o $@
board-tests-build: build/tests/board/selftest_trees_test

# canopy-board-status: what a board says about itself over its serial port (docs/bring-up.md).
build/tools/canopy-board-status: driver/examples/board_status.c build/driver/libcanopy.a $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_CFLAGS) $< build/driver/libcanopy.a $(DRV_LIBS) -o $@
board-tests-build: build/tools/canopy-board-status

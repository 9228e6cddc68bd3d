# synth/board.mk: a board's bitstream and its programming; included by the top-level
# Makefile after sim/board/board.mk (which reads rtl/board/$(BOARD).mk).
#
#   make bitstream [BOARD=ecp5-evn] [BOARD_SEED=1]
#       Yosys synth_ecp5 (synth/ecp5.ys) of the board top with the board's parameters,
#       nextpnr-ecp5 with the board's pins and clock (constraints/<board>.lpf), ecppack:
#       build/board/<board>/canopy-<board>.bit, and the record build/board/<board>/report.json
#       (bench "board": LUT4, DP16KD, Fmax against the core clock, synth/board_report.py),
#       which fails the target when timing is not met at the board clock.
#   make prog [BOARD=ecp5-evn]
#       load the bitstream into the FPGA's SRAM over the board's JTAG (openFPGALoader,
#       Debian package; installed like every tool); fails with a clear message when no
#       cable or board is found.
#
# The tools are the pinned yowasp Yosys and nextpnr-ecp5 (tools/ensure-deps.sh synth), which
# see only the repo root: every path below is relative to it.

BOARD_BUILD   := build/board/$(BOARD)
BOARD_BIT     := $(BOARD_BUILD)/canopy-$(BOARD).bit
BOARD_SEED    ?= 1
BOARD_SIZE_X  ?= 2
# The 2x2 torus does not fit the LFE5UM5G-85F yet (docs/bring-up.md, "Board configuration"):
# the bitstream holds the 2x1 one until it does; BOARD_SIZE_Y=2 builds the 2x2 board.
BOARD_SIZE_Y  ?= 1
BOARD_PNR_TIMEOUT ?= 5400
BOARD_PARAMS  := -set ClockHz $(BOARD_CLOCK_HZ) -set BaudRate $(BOARD_BAUD) \
                 -set PllClkiDiv $(BOARD_PLL_CLKI_DIV) -set PllClkfbDiv $(BOARD_PLL_CLKFB_DIV) \
                 -set PllClkopDiv $(BOARD_PLL_CLKOP_DIV) -set SizeX $(BOARD_SIZE_X) -set SizeY $(BOARD_SIZE_Y) \
                 -set BuildGit 32'h$(BUILD_GIT) -set BuildDate $(BUILD_DATE)
BOARD_CFG     := $(BOARD_BUILD)/$(BOARD_SIZE_X)x$(BOARD_SIZE_Y)

.PHONY: bitstream prog deps-prog
bitstream: $(BOARD_CFG)/report.json
	@cp $(BOARD_CFG)/canopy-$(BOARD).bit $(BOARD_BIT)
	@cp $(BOARD_CFG)/report.json $(BOARD_BUILD)/report.json
	@python3 synth/board_report.py --summary $(BOARD_BUILD)/report.json
	@echo "bitstream: $(BOARD_BIT)"

# (a) The netlist: the vendor cells (EHXPLLL) from Yosys' ECP5 library, then the RTL.
$(BOARD_CFG)/board.json: $(RTL_DEPS) $(BOARD_RTL) rtl/board/$(BOARD_TOP).sv synth/ecp5.ys rtl/board/$(BOARD).mk | deps-synth
	@mkdir -p $(@D)
	@echo "  YOSYS   synth_ecp5, $(BOARD_TOP) ($(BOARD_SIZE_X)x$(BOARD_SIZE_Y) torus; log: $(@D)/yosys.log; about 10 minutes)"
	@$(SYNTH_YOSYS) -Q -q -l $(@D)/yosys.log \
	  -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog -sv -defer $(RTL_INC) $(RTL_SRCS) $(BOARD_RTL) rtl/board/$(BOARD_TOP).sv; \
	      chparam $(BOARD_PARAMS) $(BOARD_TOP); hierarchy -check -top $(BOARD_TOP); script synth/ecp5.ys; \
	      tee -q -o $(@D)/yosys-stat.json stat -json; tee -q -o $(@D)/yosys-stat.txt stat; write_json $@.tmp" \
	  > /dev/null 2>&1 || { grep -B 8 -m 1 ERROR $(@D)/yosys.log || tail -n 20 $(@D)/yosys.log; exit 1; }
	@mv $@.tmp $@

# (b) Place and route with every pin constrained (no --lpf-allow-unconstrained), the core
# clock derived by nextpnr from the PLL. --timing-allow-fail so that a miss is measured and
# reported by (d) rather than leaving no report.
$(BOARD_CFG)/board.config: $(BOARD_CFG)/board.json $(BOARD_LPF) | deps-synth
	@echo "  NEXTPNR ECP5 $(SYNTH_DEVICE), $(BOARD_LPF), seed $(BOARD_SEED) (log: $(@D)/nextpnr.log; tens of minutes)"
	@timeout $(BOARD_PNR_TIMEOUT) $(SYNTH_NEXTPNR) $(SYNTH_PNR_DEVICE) --json $< --lpf $(BOARD_LPF) \
	  --seed $(BOARD_SEED) $(SYNTH_PLACER) --timing-allow-fail --report $(@D)/nextpnr-report.json \
	  --textcfg $@.tmp --log $(@D)/nextpnr.log --quiet > /dev/null 2>&1 \
	  || { echo "nextpnr failed (log: $(@D)/nextpnr.log):"; grep -E 'ERROR|error' $(@D)/nextpnr.log | head -n 20; exit 1; }
	@mv $@.tmp $@

# (c) The bitstream.
$(BOARD_CFG)/canopy-$(BOARD).bit: $(BOARD_CFG)/board.config | deps-synth
	@tools/yowasp ecppack --compress $< $@.tmp
	@mv $@.tmp $@

# (d) The record; fails if the placement misses the core clock.
$(BOARD_CFG)/report.json: $(BOARD_CFG)/canopy-$(BOARD).bit synth/board_report.py
	@python3 synth/board_report.py --dir $(@D) --board $(BOARD) --device $(SYNTH_DEVICE) \
	  --clock-hz $(BOARD_CLOCK_HZ) --baud $(BOARD_BAUD) --seed $(BOARD_SEED) \
	  --pnr-options "$(SYNTH_PLACER)" --out $@.tmp
	@mv $@.tmp $@
	@python3 synth/board_report.py --check $@

deps-prog:
	@tools/ensure-deps.sh prog

# openFPGALoader finds the board's FT2232H (-b ecp5_evn: its JTAG channel A) and loads
# the bitstream into SRAM (lost at power-off; -f writes the flash instead).
prog: deps-prog
	@[ -f $(BOARD_BIT) ] || { echo "prog: no bitstream $(BOARD_BIT): run make bitstream first"; exit 1; }
	@out=$$(openFPGALoader -b $(BOARD_OPENFPGALOADER) $(BOARD_BIT) 2>&1); rc=$$?; echo "$$out"; \
	if [ $$rc != 0 ]; then \
	  if echo "$$out" | grep -qiE 'unable to open ftdi|no device|not found|cable|ftdi_usb_open|LIBUSB'; then \
	    echo "prog: no JTAG cable found: is the $(BOARD) board plugged in by USB and powered? (docs/bring-up.md, \"Build and load\")"; \
	  else echo "prog: openFPGALoader failed (exit $$rc)"; fi; exit 1; fi

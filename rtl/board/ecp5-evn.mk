# rtl/board/ecp5-evn.mk: the Lattice ECP5-5G Evaluation Board (LFE5UM5G-85F-8BG381), the
# board-specific facts the builds share: the core clock the PLL makes from the board's
# 12 MHz oscillator and the UART's baud rate (the simulator runs canopy_board_core with the
# same values). Pins and the oscillator: constraints/ecp5-evn.lpf; the top:
# rtl/board/canopy_board_ecp5_evn.sv.
BOARD_TOP       := canopy_board_ecp5_evn
BOARD_LPF       := constraints/ecp5-evn.lpf
BOARD_OSC_HZ    := 12000000
# EHXPLLL: core = BOARD_OSC_HZ * CLKFB_DIV / CLKI_DIV; VCO = core * CLKOP_DIV (400..800 MHz).
BOARD_PLL_CLKI_DIV  := 1
BOARD_PLL_CLKFB_DIV := 4
BOARD_PLL_CLKOP_DIV := 12
BOARD_CLOCK_HZ  := 48000000
# FT2232H channel B as a UART at its highest rate, 12 Mbaud (an exact rate of the chip;
# Linux sets it through termios2, BOTHER): 4 cycles per bit at 48 MHz, the least the
# receiver takes (canopy_uart_rx samples mid-bit). The simulated board runs at the same
# rate, and its speed is bound by it (docs/bring-up.md). A lower rate is
# `make bitstream BOARD_BAUD=3000000` and CANOPY_SERIAL_BAUD=3000000 on the host.
BOARD_BAUD      ?= 12000000
# openFPGALoader's name for the board (its FT2232H channel A is the JTAG cable).
BOARD_OPENFPGALOADER := ecp5_evn

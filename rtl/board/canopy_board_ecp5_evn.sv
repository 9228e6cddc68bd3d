// canopy_board_ecp5_evn: the top of the Lattice ECP5-5G Evaluation Board
// (LFE5UM5G-85F-8BG381): the board's 12 MHz clock through an EHXPLLL to the core clock,
// the reset button and the PLL's lock into a synchronous reset, and canopy_board_core on
// the board's UART (the FT2232H's channel B) and its eight LEDs. Everything specific to
// this board and vendor is here and in constraints/ecp5-evn.lpf (pins, with their source);
// a second board is another top like this one and its constraint file (docs/bring-up.md).
//
// Interface contract (the package pins, constraints/ecp5-evn.lpf)
//   - clk12_i: the 12 MHz oscillator input; rst_n_i: the reset push button, low when
//     pressed; the core is held in reset while it is pressed or the PLL is not locked, and
//     for 2^ResetBits core cycles after both.
//   - uart_rx_i / uart_tx_o: the FT2232H UART (FPGA receive / transmit).
//   - led_o: the user LEDs, canopy_board_core's leds_o, inverted when LedActiveLow.
// Parameters: the PLL dividers (core = 12 MHz * PllClkfbDiv / PllClkiDiv, VCO = core *
// PllClkopDiv in 400..800 MHz), which must make ClockHz; the rest go to canopy_board_core.
// The build passes them from rtl/board/ecp5-evn.mk, so they are the values the simulator runs.
`default_nettype none
`include "canopy_assert.svh"

module canopy_board_ecp5_evn #(
  parameter int unsigned ClockHz     = 0,   /// core clock in Hz; must be set (= 12 MHz * PllClkfbDiv / PllClkiDiv)
  parameter int unsigned BaudRate    = 0,   /// UART baud rate; must be set
  parameter int unsigned PllClkiDiv  = 0,   /// EHXPLLL CLKI_DIV; must be set
  parameter int unsigned PllClkfbDiv = 0,   /// EHXPLLL CLKFB_DIV; must be set
  parameter int unsigned PllClkopDiv = 0,   /// EHXPLLL CLKOP_DIV; must be set
  parameter int unsigned SizeX       = 2,   /// torus size X
  parameter int unsigned SizeY       = 2,   /// torus size Y
  parameter int unsigned BuildGit    = 0,   /// BUILD.git of every node
  parameter int unsigned BuildDate   = 0,   /// BUILD.date of every node
  parameter bit          LedActiveLow = 1'b1, /// the board's LEDs light on a low pin
  parameter int unsigned ResetBits   = 16   /// reset stretch after lock: 2^ResetBits cycles
) (
  input  wire logic       clk12_i,
  input  wire logic       rst_n_i,
  input  wire logic       uart_rx_i,
  output logic            uart_tx_o,
  output logic      [7:0] led_o
);
  localparam int unsigned OscHz = 12000000;
  `CANOPY_STATIC_ASSERT(gen_pll_check, PllClkiDiv >= 1 && PllClkfbDiv >= 1 && PllClkopDiv >= 1 &&
                        OscHz / PllClkiDiv * PllClkfbDiv == ClockHz &&
                        ClockHz / 1000000 * PllClkopDiv >= 400 && ClockHz / 1000000 * PllClkopDiv <= 800,
                        "the PLL dividers must make ClockHz from 12 MHz with the VCO in 400..800 MHz")

  logic clk, locked;
  (* FREQUENCY_PIN_CLKI = "12" *)
  EHXPLLL #(
    .PLLRST_ENA      ("DISABLED"),
    .INTFB_WAKE      ("DISABLED"),
    .STDBY_ENABLE    ("DISABLED"),
    .DPHASE_SOURCE   ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"),
    .OUTDIVIDER_MUXB ("DIVB"),
    .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV        (PllClkiDiv),
    .CLKOP_ENABLE    ("ENABLED"),
    .CLKOP_DIV       (PllClkopDiv),
    .CLKOP_CPHASE    (PllClkopDiv / 2 - 1),
    .CLKOP_FPHASE    (0),
    .FEEDBK_PATH     ("CLKOP"),
    .CLKFB_DIV       (PllClkfbDiv)
  ) u_pll (
    .RST (1'b0), .STDBY (1'b0), .CLKI (clk12_i), .CLKOP (clk), .CLKFB (clk), .CLKINTFB (),
    .PHASESEL0 (1'b0), .PHASESEL1 (1'b0), .PHASEDIR (1'b1), .PHASESTEP (1'b1), .PHASELOADREG (1'b1),
    .PLLWAKESYNC (1'b0), .ENCLKOP (1'b0), .CLKOS (), .CLKOS2 (), .CLKOS3 (), .LOCK (locked),
    .INTLOCK (), .REFCLK ()
  );

  // Reset: asynchronous causes (the button, the PLL losing lock) into a synchronous,
  // stretched reset; the synchronizer is the one flip-flop pair reset asynchronously.
  logic [1:0]         sync_q;
  logic [ResetBits:0] stretch_q;
  logic               rst;
  always_ff @(posedge clk or negedge locked) begin
    if (!locked) sync_q <= 2'b00;
    else         sync_q <= {sync_q[0], rst_n_i};
  end
  always_ff @(posedge clk) begin
    if (!sync_q[1])            stretch_q <= '0;
    else if (!stretch_q[ResetBits]) stretch_q <= stretch_q + 1'b1;
  end
  assign rst = !stretch_q[ResetBits];

  logic [7:0] leds;
  canopy_board_core #(
    .SizeX (SizeX), .SizeY (SizeY), .ClockHz (ClockHz), .BaudRate (BaudRate),
    .BuildGit (BuildGit), .BuildDate (BuildDate)
  ) u_core (
    .clk_i (clk), .rst_i (rst), .uart_rx_i, .uart_tx_o, .leds_o (leds)
  );
  assign led_o = LedActiveLow ? ~leds : leds;
endmodule

`default_nettype wire

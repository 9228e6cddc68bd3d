// generated from spec/regmap.toml by tools/gen_regmap.py; do not edit.
//
// canopy_csr: the host interface's register file: storage for rw registers, strobes
// for doorbells, and the read multiplexer over everything.
//
// Interface contract
//   - One access port, driven by the AXI slave: wr_i with a byte address, 64-bit data
//     and byte strobes; rd_i with a byte address. Reads return rd_data_o the next
//     cycle (registered). Both may happen in the same cycle.
//   - <reg>_i: the value the hardware shows in a read-only register.
//   - <reg>_o: an rw register's stored value (reset 0), or a doorbell's last value;
//     <reg>_we_o: one-cycle strobe when a doorbell is written.
//   - <reg>_set_o (rw registers marked nonzero_flag): the stored value is nonzero, a
//     flip-flop written with it, so a user tests one bit rather than 64 (asserted).
//   - err_o: one-cycle pulse for a refused access (unmapped offset, write to a
//     read-only register); the access itself is ignored and reads return 0.
`default_nettype none
`include "canopy_assert.svh"

module canopy_csr (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        wr_i,
  input  wire logic [11:0] wr_addr_i,
  input  wire logic [63:0] wr_data_i,
  input  wire logic [7:0]  wr_strb_i,
  input  wire logic        rd_i,
  input  wire logic [11:0] rd_addr_i,
  output logic      [63:0] rd_data_o,
  output logic             err_o,
  input  wire logic [63:0] id_i,
  input  wire logic [63:0] build_i,
  input  wire logic [63:0] caps_i,
  input  wire logic [63:0] rings_i,
  input  wire logic [63:0] topo_i,
  input  wire logic [63:0] status_i,
  input  wire logic [63:0] caps_get_i,
  output logic      [63:0] win_base_o,
  output logic      [63:0] win_size_o,
  output logic      [63:0] ej_base_o,
  output logic      [63:0] ej_entries_o,
  output logic      [63:0] ej_head_o,
  output logic             ej_head_we_o,
  output logic      [63:0] wb_base_o,
  output logic      [63:0] inj_tail_o,
  output logic             inj_tail_we_o,
  input  wire logic [63:0] inj_head_i,
  output logic      [63:0] tree_sel_o,
  output logic      [63:0] tree_entry_o,
  output logic             tree_entry_we_o,
  input  wire logic [63:0] tree_read_i,
  output logic      [63:0] coll_wb_base_o,
  output logic             coll_wb_base_set_o,
  output logic      [63:0] get_wb_base_o,
  output logic             get_wb_base_set_o,
  output logic      [63:0] inj_mode_o,
  input  wire logic [63:0] err_bad_type_i,
  input  wire logic [63:0] err_bad_dst_i,
  input  wire logic [63:0] err_bad_len_i,
  input  wire logic [63:0] err_dma_bounds_i,
  input  wire logic [63:0] err_inj_desc_i,
  input  wire logic [63:0] err_inj_write_i,
  input  wire logic [63:0] err_doorbell_i,
  input  wire logic [63:0] err_csr_i,
  input  wire logic [63:0] err_ej_noring_i,
  input  wire logic [63:0] err_tree_write_i,
  input  wire logic [63:0] err_coll_dir_i,
  input  wire logic [63:0] err_coll_tree_i,
  input  wire logic [63:0] err_reduce_i,
  input  wire logic [63:0] err_get_bounds_i,
  input  wire logic [63:0] err_get_dropped_i,
  input  wire logic [63:0] err_dma_write_i,
  input  wire logic [63:0] tx_pkts_i,
  input  wire logic [63:0] tx_flits_i,
  input  wire logic [63:0] rx_pkts_i,
  input  wire logic [63:0] rx_flits_i,
  input  wire logic [63:0] rx_puts_i,
  input  wire logic [63:0] puts_acked_i,
  input  wire logic [63:0] puts_failed_i,
  input  wire logic [63:0] rx_bcasts_i,
  input  wire logic [63:0] reduces_sent_i,
  input  wire logic [63:0] reduces_done_i,
  input  wire logic [63:0] gets_served_i,
  input  wire logic [63:0] get_resps_i,
  input  wire logic [63:0] gets_done_i,
  input  wire logic [63:0] gets_failed_i,
  input  wire logic [63:0] reduces_refused_i,
  input  wire logic [63:0] amos_served_i,
  input  wire logic [63:0] err_dma_read_i,
  input  wire logic [63:0] link_down_i,
  input  wire logic [63:0] link_drops_i
);
  // Byte-strobe merge of a write into a stored value.
  function automatic logic [63:0] merge(input logic [63:0] old, input logic [63:0] data,
                                        input logic [7:0] strb);
    for (int unsigned b = 0; b < 8; b++) begin
      merge[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];
    end
  endfunction

  logic wr_hit, wr_ro, rd_hit;
  logic [63:0] win_base_q;
  logic [63:0] win_size_q;
  logic [63:0] ej_base_q;
  logic [63:0] ej_entries_q;
  logic [63:0] ej_head_q;
  logic [63:0] wb_base_q;
  logic [63:0] inj_tail_q;
  logic [63:0] tree_sel_q;
  logic [63:0] tree_entry_q;
  logic [63:0] coll_wb_base_q;
  logic        coll_wb_base_set_q;
  logic [63:0] get_wb_base_q;
  logic        get_wb_base_set_q;
  logic [63:0] inj_mode_q;

  always_comb begin
    wr_hit = 1'b0;
    wr_ro  = 1'b0;
    unique case (wr_addr_i)
      12'h000: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h008: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h010: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h018: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h020: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h028: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h030: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h040: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h048: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h050: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h058: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h060: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h068: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h070: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h078: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h080: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h088: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h090: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h098: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h0A0: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h0A8: begin wr_hit = 1'b1; wr_ro = 1'b0; end
      12'h100: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h108: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h110: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h118: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h120: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h128: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h130: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h138: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h140: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h148: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h150: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h158: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h160: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h168: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h170: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h178: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h180: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h188: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h190: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h198: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1A0: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1A8: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1B0: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1B8: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1C0: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1C8: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1D0: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1D8: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1E0: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1E8: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1F0: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h1F8: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h200: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h208: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      12'h210: begin wr_hit = 1'b1; wr_ro = 1'b1; end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      win_base_q <= '0;
      win_size_q <= '0;
      ej_base_q <= '0;
      ej_entries_q <= '0;
      ej_head_q <= '0;
      wb_base_q <= '0;
      inj_tail_q <= '0;
      tree_sel_q <= '0;
      tree_entry_q <= '0;
      coll_wb_base_q <= '0;
      coll_wb_base_set_q <= 1'b0;
      get_wb_base_q <= '0;
      get_wb_base_set_q <= 1'b0;
      inj_mode_q <= '0;
    end else if (wr_i) begin
      unique case (wr_addr_i)
        12'h040: win_base_q <= merge(win_base_q, wr_data_i, wr_strb_i);
        12'h048: win_size_q <= merge(win_size_q, wr_data_i, wr_strb_i);
        12'h050: ej_base_q <= merge(ej_base_q, wr_data_i, wr_strb_i);
        12'h058: ej_entries_q <= merge(ej_entries_q, wr_data_i, wr_strb_i);
        12'h060: ej_head_q <= merge(ej_head_q, wr_data_i, wr_strb_i);
        12'h068: wb_base_q <= merge(wb_base_q, wr_data_i, wr_strb_i);
        12'h070: inj_tail_q <= merge(inj_tail_q, wr_data_i, wr_strb_i);
        12'h080: tree_sel_q <= merge(tree_sel_q, wr_data_i, wr_strb_i);
        12'h088: tree_entry_q <= merge(tree_entry_q, wr_data_i, wr_strb_i);
        12'h098: begin
          coll_wb_base_q     <= merge(coll_wb_base_q, wr_data_i, wr_strb_i);
          coll_wb_base_set_q <= merge(coll_wb_base_q, wr_data_i, wr_strb_i) != '0;
        end
        12'h0A0: begin
          get_wb_base_q     <= merge(get_wb_base_q, wr_data_i, wr_strb_i);
          get_wb_base_set_q <= merge(get_wb_base_q, wr_data_i, wr_strb_i) != '0;
        end
        12'h0A8: inj_mode_q <= merge(inj_mode_q, wr_data_i, wr_strb_i);
        default: ;
      endcase
    end
  end

  assign win_base_o = win_base_q;
  assign win_size_o = win_size_q;
  assign ej_base_o = ej_base_q;
  assign ej_entries_o = ej_entries_q;
  assign ej_head_o = ej_head_q;
  assign ej_head_we_o = wr_i && wr_addr_i == 12'h060 && wr_strb_i[0];
  assign wb_base_o = wb_base_q;
  assign inj_tail_o = inj_tail_q;
  assign inj_tail_we_o = wr_i && wr_addr_i == 12'h070 && wr_strb_i[0];
  assign tree_sel_o = tree_sel_q;
  assign tree_entry_o = tree_entry_q;
  assign tree_entry_we_o = wr_i && wr_addr_i == 12'h088 && wr_strb_i[0];
  assign coll_wb_base_o = coll_wb_base_q;
  assign coll_wb_base_set_o = coll_wb_base_set_q;
  `CANOPY_ASSERT(a_coll_wb_base_set, coll_wb_base_set_q == (coll_wb_base_q != '0), "COLL_WB_BASE's nonzero flag disagrees with it")
  assign get_wb_base_o = get_wb_base_q;
  assign get_wb_base_set_o = get_wb_base_set_q;
  `CANOPY_ASSERT(a_get_wb_base_set, get_wb_base_set_q == (get_wb_base_q != '0), "GET_WB_BASE's nonzero flag disagrees with it")
  assign inj_mode_o = inj_mode_q;

  logic [63:0] rd_mux;
  always_comb begin
    rd_mux = '0;
    rd_hit = 1'b0;
    unique case (rd_addr_i)
      12'h000: begin rd_mux = id_i; rd_hit = 1'b1; end
      12'h008: begin rd_mux = build_i; rd_hit = 1'b1; end
      12'h010: begin rd_mux = caps_i; rd_hit = 1'b1; end
      12'h018: begin rd_mux = rings_i; rd_hit = 1'b1; end
      12'h020: begin rd_mux = topo_i; rd_hit = 1'b1; end
      12'h028: begin rd_mux = status_i; rd_hit = 1'b1; end
      12'h030: begin rd_mux = caps_get_i; rd_hit = 1'b1; end
      12'h040: begin rd_mux = win_base_q; rd_hit = 1'b1; end
      12'h048: begin rd_mux = win_size_q; rd_hit = 1'b1; end
      12'h050: begin rd_mux = ej_base_q; rd_hit = 1'b1; end
      12'h058: begin rd_mux = ej_entries_q; rd_hit = 1'b1; end
      12'h060: begin rd_mux = ej_head_q; rd_hit = 1'b1; end
      12'h068: begin rd_mux = wb_base_q; rd_hit = 1'b1; end
      12'h070: begin rd_mux = inj_tail_q; rd_hit = 1'b1; end
      12'h078: begin rd_mux = inj_head_i; rd_hit = 1'b1; end
      12'h080: begin rd_mux = tree_sel_q; rd_hit = 1'b1; end
      12'h088: begin rd_mux = tree_entry_q; rd_hit = 1'b1; end
      12'h090: begin rd_mux = tree_read_i; rd_hit = 1'b1; end
      12'h098: begin rd_mux = coll_wb_base_q; rd_hit = 1'b1; end
      12'h0A0: begin rd_mux = get_wb_base_q; rd_hit = 1'b1; end
      12'h0A8: begin rd_mux = inj_mode_q; rd_hit = 1'b1; end
      12'h100: begin rd_mux = err_bad_type_i; rd_hit = 1'b1; end
      12'h108: begin rd_mux = err_bad_dst_i; rd_hit = 1'b1; end
      12'h110: begin rd_mux = err_bad_len_i; rd_hit = 1'b1; end
      12'h118: begin rd_mux = err_dma_bounds_i; rd_hit = 1'b1; end
      12'h120: begin rd_mux = err_inj_desc_i; rd_hit = 1'b1; end
      12'h128: begin rd_mux = err_inj_write_i; rd_hit = 1'b1; end
      12'h130: begin rd_mux = err_doorbell_i; rd_hit = 1'b1; end
      12'h138: begin rd_mux = err_csr_i; rd_hit = 1'b1; end
      12'h140: begin rd_mux = err_ej_noring_i; rd_hit = 1'b1; end
      12'h148: begin rd_mux = err_tree_write_i; rd_hit = 1'b1; end
      12'h150: begin rd_mux = err_coll_dir_i; rd_hit = 1'b1; end
      12'h158: begin rd_mux = err_coll_tree_i; rd_hit = 1'b1; end
      12'h160: begin rd_mux = err_reduce_i; rd_hit = 1'b1; end
      12'h168: begin rd_mux = err_get_bounds_i; rd_hit = 1'b1; end
      12'h170: begin rd_mux = err_get_dropped_i; rd_hit = 1'b1; end
      12'h178: begin rd_mux = err_dma_write_i; rd_hit = 1'b1; end
      12'h180: begin rd_mux = tx_pkts_i; rd_hit = 1'b1; end
      12'h188: begin rd_mux = tx_flits_i; rd_hit = 1'b1; end
      12'h190: begin rd_mux = rx_pkts_i; rd_hit = 1'b1; end
      12'h198: begin rd_mux = rx_flits_i; rd_hit = 1'b1; end
      12'h1A0: begin rd_mux = rx_puts_i; rd_hit = 1'b1; end
      12'h1A8: begin rd_mux = puts_acked_i; rd_hit = 1'b1; end
      12'h1B0: begin rd_mux = puts_failed_i; rd_hit = 1'b1; end
      12'h1B8: begin rd_mux = rx_bcasts_i; rd_hit = 1'b1; end
      12'h1C0: begin rd_mux = reduces_sent_i; rd_hit = 1'b1; end
      12'h1C8: begin rd_mux = reduces_done_i; rd_hit = 1'b1; end
      12'h1D0: begin rd_mux = gets_served_i; rd_hit = 1'b1; end
      12'h1D8: begin rd_mux = get_resps_i; rd_hit = 1'b1; end
      12'h1E0: begin rd_mux = gets_done_i; rd_hit = 1'b1; end
      12'h1E8: begin rd_mux = gets_failed_i; rd_hit = 1'b1; end
      12'h1F0: begin rd_mux = reduces_refused_i; rd_hit = 1'b1; end
      12'h1F8: begin rd_mux = amos_served_i; rd_hit = 1'b1; end
      12'h200: begin rd_mux = err_dma_read_i; rd_hit = 1'b1; end
      12'h208: begin rd_mux = link_down_i; rd_hit = 1'b1; end
      12'h210: begin rd_mux = link_drops_i; rd_hit = 1'b1; end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_data_o <= '0;
      err_o     <= 1'b0;
    end else begin
      if (rd_i) rd_data_o <= rd_mux;
      err_o <= (wr_i && (!wr_hit || wr_ro)) || (rd_i && !rd_hit);
    end
  end
endmodule

`default_nettype wire

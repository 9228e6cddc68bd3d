// generated from spec/regmap.toml by tools/gen_regmap.py; do not edit.
//
// canopy_regs_pkg: register offsets and field positions of the host interface, for
// RTL that composes register values (referenced as canopy_regs_pkg::Name).
`default_nettype none

/* verilator lint_off UNUSEDPARAM */  // a package defines more than any one block uses
package canopy_regs_pkg;
  localparam int unsigned CsrAddrBits     = 12;
  localparam int unsigned CsrBytes        = 'h1000;
  localparam int unsigned InjWindowOffset = 'h8000;
  localparam int unsigned BarBytes        = 'h10000;
  localparam logic [31:0] Magic           = 32'h43504E59;
  localparam int unsigned BlockType       = 1;
  localparam int unsigned VersionMajor    = 1;
  localparam int unsigned VersionMinor    = 5;

  localparam int unsigned RegId = 'h000;
  localparam int unsigned IdMagicLsb = 0, IdMagicWidth = 32;
  localparam int unsigned IdTypeLsb = 32, IdTypeWidth = 8;
  localparam int unsigned IdMinorLsb = 48, IdMinorWidth = 8;
  localparam int unsigned IdMajorLsb = 56, IdMajorWidth = 8;
  localparam int unsigned RegBuild = 'h008;
  localparam int unsigned BuildGitLsb = 0, BuildGitWidth = 32;
  localparam int unsigned BuildDateLsb = 32, BuildDateWidth = 32;
  localparam int unsigned RegCaps = 'h010;
  localparam int unsigned CapsTreesLsb = 0, CapsTreesWidth = 8;
  localparam int unsigned CapsReduceIdsLsb = 8, CapsReduceIdsWidth = 8;
  localparam int unsigned CapsOpsLsb = 16, CapsOpsWidth = 8;
  localparam int unsigned CapsDtypesLsb = 24, CapsDtypesWidth = 8;
  localparam int unsigned CapsMaxPayloadLsb = 32, CapsMaxPayloadWidth = 16;
  localparam int unsigned CapsFlitBitsLsb = 48, CapsFlitBitsWidth = 10;
  localparam int unsigned CapsVcsLsb = 58, CapsVcsWidth = 6;
  localparam int unsigned RegRings = 'h018;
  localparam int unsigned RingsInjWordsLsb = 0, RingsInjWordsWidth = 32;
  localparam int unsigned RingsEjEntryBytesLsb = 32, RingsEjEntryBytesWidth = 16;
  localparam int unsigned RingsWbBytesLsb = 48, RingsWbBytesWidth = 16;
  localparam int unsigned RegTopo = 'h020;
  localparam int unsigned TopoCoordsLsb = 0, TopoCoordsWidth = 16;
  localparam int unsigned TopoSizesLsb = 16, TopoSizesWidth = 20;
  localparam int unsigned TopoNdimsLsb = 36, TopoNdimsWidth = 3;
  localparam int unsigned RegStatus = 'h028;
  localparam int unsigned StatusWinValidLsb = 0, StatusWinValidWidth = 1;
  localparam int unsigned StatusEjValidLsb = 1, StatusEjValidWidth = 1;
  localparam int unsigned StatusWbValidLsb = 2, StatusWbValidWidth = 1;
  localparam int unsigned StatusInjBusyLsb = 3, StatusInjBusyWidth = 1;
  localparam int unsigned StatusEjFullLsb = 4, StatusEjFullWidth = 1;
  localparam int unsigned StatusTreeRefusedLsb = 5, StatusTreeRefusedWidth = 1;
  localparam int unsigned RegCapsGet = 'h030;
  localparam int unsigned CapsGetSlotsLsb = 0, CapsGetSlotsWidth = 8;
  localparam int unsigned CapsGetMaxBytesLsb = 8, CapsGetMaxBytesWidth = 24;
  localparam int unsigned CapsGetAmoOpsLsb = 32, CapsGetAmoOpsWidth = 8;
  localparam int unsigned RegWinBase = 'h040;
  localparam int unsigned RegWinSize = 'h048;
  localparam int unsigned RegEjBase = 'h050;
  localparam int unsigned RegEjEntries = 'h058;
  localparam int unsigned RegEjHead = 'h060;
  localparam int unsigned RegWbBase = 'h068;
  localparam int unsigned RegInjTail = 'h070;
  localparam int unsigned RegInjHead = 'h078;
  localparam int unsigned RegTreeSel = 'h080;
  localparam int unsigned RegTreeEntry = 'h088;
  localparam int unsigned RegTreeRead = 'h090;
  localparam int unsigned RegCollWbBase = 'h098;
  localparam int unsigned RegGetWbBase = 'h0A0;
  localparam int unsigned RegInjMode = 'h0A8;
  localparam int unsigned InjModeAutoCommitLsb = 0, InjModeAutoCommitWidth = 1;
  localparam int unsigned RegErrBadType = 'h100;
  localparam int unsigned RegErrBadDst = 'h108;
  localparam int unsigned RegErrBadLen = 'h110;
  localparam int unsigned RegErrDmaBounds = 'h118;
  localparam int unsigned RegErrInjDesc = 'h120;
  localparam int unsigned RegErrInjWrite = 'h128;
  localparam int unsigned RegErrDoorbell = 'h130;
  localparam int unsigned RegErrCsr = 'h138;
  localparam int unsigned RegErrEjNoring = 'h140;
  localparam int unsigned RegErrTreeWrite = 'h148;
  localparam int unsigned RegErrCollDir = 'h150;
  localparam int unsigned RegErrCollTree = 'h158;
  localparam int unsigned RegErrReduce = 'h160;
  localparam int unsigned RegErrGetBounds = 'h168;
  localparam int unsigned RegErrGetDropped = 'h170;
  localparam int unsigned RegErrDmaWrite = 'h178;
  localparam int unsigned RegTxPkts = 'h180;
  localparam int unsigned RegTxFlits = 'h188;
  localparam int unsigned RegRxPkts = 'h190;
  localparam int unsigned RegRxFlits = 'h198;
  localparam int unsigned RegRxPuts = 'h1A0;
  localparam int unsigned RegPutsAcked = 'h1A8;
  localparam int unsigned RegPutsFailed = 'h1B0;
  localparam int unsigned RegRxBcasts = 'h1B8;
  localparam int unsigned RegReducesSent = 'h1C0;
  localparam int unsigned RegReducesDone = 'h1C8;
  localparam int unsigned RegGetsServed = 'h1D0;
  localparam int unsigned RegGetResps = 'h1D8;
  localparam int unsigned RegGetsDone = 'h1E0;
  localparam int unsigned RegGetsFailed = 'h1E8;
  localparam int unsigned RegReducesRefused = 'h1F0;
  localparam int unsigned RegAmosServed = 'h1F8;
  localparam int unsigned RegErrDmaRead = 'h200;
  localparam int unsigned RegLinkDown = 'h208;
  localparam int unsigned RegLinkDrops = 'h210;
endpackage
/* verilator lint_on UNUSEDPARAM */

`default_nettype wire

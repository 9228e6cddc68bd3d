# sim/sim.mk: Verilator builds of a whole torus fabric and its C++ harness.
#
#   make sim TORUS=3x3 [LINK_LATENCY=1] [WAVES=1]   builds build/sim/<config>/canopy-fabric
#
# TORUS is one size per dimension, X first: 4 (a ring), 3x3, 2x2x2, 4x4x4, 2x2x2x2.
# The fabric parameters are given once, here, to Verilator (as macros) and to the harness
# (-D). Each configuration builds in its own directory, so switching topologies does not
# rebuild the others. Both simulators are hierarchical (sim/hier_*.vlt): the router, or
# the whole node, is verilated once and instanced per node. The model's hot code and the
# harness build at -O2; Verilator's "slow" files (construction) at -O0, which costs
# nothing at run time.

TORUS        ?= 3x3
LINK_LATENCY ?= 1
WAVES        ?= 0
FLIT_BITS    ?= 64
NUM_VCS      ?= 4
LINK_BUF     ?= 64
LOCAL_BUF    ?= 32
EJECT_BUF    ?= 16

sim_sizes   = $(subst x, ,$(1))
sim_ndims   = $(words $(call sim_sizes,$(1)))
sim_size    = $(or $(word $(2),$(call sim_sizes,$(1))),1)
sim_config  = $(1)-L$(LINK_LATENCY)$(if $(filter 1,$(WAVES)),-waves)
sim_dir     = build/sim/$(call sim_config,$(1))
sim_bin     = $(call sim_dir,$(1))/canopy-fabric

# The torus shape, as macros for the top modules. Not -G: with --hierarchical (each router
# or node is verilated once and instanced, which cuts a 64-node build from hours to a
# minute and runs about three times faster) every -G also reaches the block's own
# verilation, which has no SizeX.
sim_shape_defines = +define+CANOPY_FABRIC_NDIMS=$(call sim_ndims,$(1)) \
  +define+CANOPY_FABRIC_SIZE_X=$(call sim_size,$(1),1) +define+CANOPY_FABRIC_SIZE_Y=$(call sim_size,$(1),2) \
  +define+CANOPY_FABRIC_SIZE_Z=$(call sim_size,$(1),3) +define+CANOPY_FABRIC_SIZE_W=$(call sim_size,$(1),4) \
  +define+CANOPY_FABRIC_LINK_LATENCY=$(LINK_LATENCY)

SIM_OPT      := -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2"
SIM_CXX_SRCS := sim/fabric.cpp sim/scoreboard.cpp sim/fabric_main.cpp
SIM_HDRS     := sim/fabric.hpp sim/scoreboard.hpp sim/vl_bits.hpp sim/rng.hpp driver/include/canopy_packet.h
SIM_SV_TOP   := sim/canopy_torus_links.sv sim/canopy_torus_fabric.sv sim/hier_router.vlt

# $(call sim_verilate,TORUS): the Verilator command for one configuration.
define sim_verilate
	@mkdir -p $(call sim_dir,$(1))
	@echo "  VERILATE $(call sim_config,$(1))"
	verilator --cc --exe --build -j 2 -Wall --assert $(RTL_INC) \
	  --hierarchical -Wno-DECLFILENAME --top-module canopy_torus_fabric --Mdir $(call sim_dir,$(1))/obj -o ../canopy-fabric \
	  $(if $(filter 1,$(WAVES)),--trace-fst -CFLAGS -DCANOPY_TRACE,) \
	  $(call sim_shape_defines,$(1)) +define+CANOPY_FABRIC_FLIT_BITS=$(FLIT_BITS) \
	  +define+CANOPY_FABRIC_NUM_VCS=$(NUM_VCS) +define+CANOPY_FABRIC_LINK_BUF=$(LINK_BUF) \
	  +define+CANOPY_FABRIC_LOCAL_BUF=$(LOCAL_BUF) +define+CANOPY_FABRIC_EJECT_BUF=$(EJECT_BUF) \
	  -CFLAGS "-std=c++17 -I$(CURDIR)/sim -I$(CURDIR)/driver/include" $(SIM_OPT) \
	  -CFLAGS "-DCANOPY_NDIMS=$(call sim_ndims,$(1)) -DCANOPY_SIZE_X=$(call sim_size,$(1),1)" \
	  -CFLAGS "-DCANOPY_SIZE_Y=$(call sim_size,$(1),2) -DCANOPY_SIZE_Z=$(call sim_size,$(1),3)" \
	  -CFLAGS "-DCANOPY_SIZE_W=$(call sim_size,$(1),4) -DCANOPY_LINK_LATENCY=$(LINK_LATENCY)" \
	  -CFLAGS "-DCANOPY_FLIT_BITS=$(FLIT_BITS) -DCANOPY_NUM_VCS=$(NUM_VCS)" \
	  -CFLAGS "-DCANOPY_LOCAL_BUF_DEPTH=$(LOCAL_BUF) -DCANOPY_EJECT_CREDITS=$(EJECT_BUF)" \
	  $(RTL_SRCS) $(SIM_SV_TOP) $(addprefix $(CURDIR)/,$(SIM_CXX_SRCS)) > $(call sim_dir,$(1))/build.log 2>&1 \
	  || { tail -n 40 $(call sim_dir,$(1))/build.log; exit 1; }
endef

build/sim/%/canopy-fabric: $(RTL_SRCS) $(SIM_SV_TOP) $(SIM_CXX_SRCS) $(SIM_HDRS) | deps-sim
	$(call sim_verilate,$(firstword $(subst -, ,$*)))

.PHONY: sim
sim: $(call sim_bin,$(TORUS))

# ---------------------------------------------------------------- co-simulation
#   make cosim TORUS=3x3   builds build/cosim/<config>/canopy-cosim (whole nodes + PCIe model)
COSIM_SV_TOP   := sim/canopy_torus_links.sv sim/canopy_node_fabric.sv sim/hier_node.vlt
COSIM_CXX_SRCS := sim/cosim/cosim_main.cpp sim/cosim/pcie_host.cpp
COSIM_HDRS     := sim/cosim/pcie_host.hpp sim/vl_bits.hpp sim/include/canopy_cosim.h driver/include/canopy.h
cosim_dir       = build/cosim/$(call sim_config,$(1))
cosim_bin       = $(call cosim_dir,$(1))/canopy-cosim
BUILD_GIT      := $(shell git rev-parse --short=8 HEAD 2>/dev/null || echo 0)
BUILD_DATE     := $(shell date -u +%Y%m%d)

define cosim_verilate
	@mkdir -p $(call cosim_dir,$(1))
	@echo "  VERILATE cosim $(call sim_config,$(1))"
	verilator --cc --exe --build -j 2 -Wall --assert $(RTL_INC) \
	  --hierarchical -Wno-DECLFILENAME --top-module canopy_node_fabric --Mdir $(call cosim_dir,$(1))/obj -o ../canopy-cosim \
	  $(call sim_shape_defines,$(1)) \
	  +define+CANOPY_FABRIC_BUILD_GIT=32\'h$(BUILD_GIT) +define+CANOPY_FABRIC_BUILD_DATE=$(BUILD_DATE) \
	  -CFLAGS "-std=c++17 -I$(CURDIR)/sim -I$(CURDIR)/sim/cosim -I$(CURDIR)/sim/include -I$(CURDIR)/driver/include" \
	  $(SIM_OPT) \
	  -CFLAGS "-DCANOPY_NDIMS=$(call sim_ndims,$(1)) -DCANOPY_SIZE_X=$(call sim_size,$(1),1)" \
	  -CFLAGS "-DCANOPY_SIZE_Y=$(call sim_size,$(1),2) -DCANOPY_SIZE_Z=$(call sim_size,$(1),3)" \
	  -CFLAGS "-DCANOPY_SIZE_W=$(call sim_size,$(1),4)" \
	  -CFLAGS "-DCANOPY_NODES=$$(( $(call sim_size,$(1),1) * $(call sim_size,$(1),2) * $(call sim_size,$(1),3) * $(call sim_size,$(1),4) ))" \
	  -LDFLAGS "-lrt -lpthread" \
	  $(RTL_SRCS) $(COSIM_SV_TOP) $(addprefix $(CURDIR)/,$(COSIM_CXX_SRCS)) > $(call cosim_dir,$(1))/build.log 2>&1 \
	  || { tail -n 40 $(call cosim_dir,$(1))/build.log; exit 1; }
endef

build/cosim/%/canopy-cosim: $(RTL_SRCS) $(COSIM_SV_TOP) $(COSIM_CXX_SRCS) $(COSIM_HDRS) | deps-sim
	$(call cosim_verilate,$(firstword $(subst -, ,$*)))

.PHONY: cosim
cosim: $(call cosim_bin,$(TORUS))

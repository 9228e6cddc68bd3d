# sim/sim.mk: Verilator builds of a whole torus fabric and its C++ harness.
#
#   make sim TORUS=3x3 [LINK_LATENCY=1] [LINK_PROTECT=1] [WAVES=1] [SIM_PGO=1]
#                                     builds build/sim/<config>/canopy-fabric
#
#   SIM_JOBS=n   compile jobs (default 2; 1 on a shared machine)
#   SIM_ASSERT=  drops --assert, only to measure what the assertions cost: tests and
#                benchmarks keep them
#
# TORUS is one size per dimension, X first: 4 (a ring), 3x3, 2x2x2, 4x4x4, 2x2x2x2.
# LINK_LATENCY >= 1 (the tiles' link outputs must be registers, sim/torus_tiles.hpp).
# LINK_PROTECT=1 (configuration suffix -prot) puts a protected link end (rtl/link/,
# docs/link.md) on every link port; only such a build takes the fault options (--ber ...).
# Both simulators verilate one node, as a tile with the links it transmits on
# (sim/canopy_router_tile.sv, sim/canopy_node_tile.sv), and build the torus in C++ from one
# model instance per node: the build does not grow with the torus, and each node is
# evaluated at most twice a cycle (once in the router fabric: TorusTiles::fall). The
# tile's parameters are given once, here, to Verilator (-G) and to the harness (-D).
#
# One model per dimension count, not per torus. The torus's shape reaches the tiles at run
# time (their coordinate and size inputs) and the harness from its --torus argument, so
# the model of a configuration is built once, in build/sim/model/d<dims>-<options>/
# (the co-simulation's in build/cosim/model/d<dims>-n<max nodes>-<options>/: its
# per-source tables are sized for the node count), and every torus of that dimension count
# runs on it. build/sim/<torus>-<options>/canopy-fabric (build/cosim/.../canopy-cosim) is a
# two-line launcher that runs the model with --torus <torus>: what tests, benchmarks and
# sim/canopy-run call, as before. Why: the test suite ran 2-D tori of three sizes and 3-D
# tori of two, and compiled the same model for each (docs/simulation.md has the times). The
# model's hot code and the harness build at -O2; Verilator's "slow" files (construction)
# at -O0, which costs nothing at run time.
#
# SIM_PGO=1 (configuration suffix -pgo) builds the fabric simulator profile-guided: an
# instrumented build first, trained on the check scenarios (SIM_PGO_TRAIN: full-rate
# uniform traffic, malformed packets, a hotspot; not the speed scenario it is measured
# with), then rebuilt from the same objects' profile. About 20% more simulated cycles per
# second for twice the build time; the results are the same cycle for cycle (the same
# model, compiled differently), so tests use the plain build and `make bench` measures both.

TORUS        ?= 3x3
LINK_LATENCY ?= 1
WAVES        ?= 0
LINK_PROTECT ?= 0
FLIT_BITS    ?= 64
NUM_VCS      ?= 4
LINK_BUF     ?= 64
COLL_BUF     ?= 32
LOCAL_BUF    ?= 32
EJECT_BUF    ?= 16

sim_sizes   = $(subst x, ,$(1))
sim_ndims   = $(words $(call sim_sizes,$(1)))
sim_size    = $(or $(word $(2),$(call sim_sizes,$(1))),1)
SIM_PGO     ?= 0
SIM_JOBS    ?= 2
SIM_ASSERT  ?= --assert
sim_options = -L$(LINK_LATENCY)$(if $(filter 1,$(LINK_PROTECT)),-prot)$(if $(filter 1,$(WAVES)),-waves)$(if $(filter 1,$(SIM_PGO)),-pgo)$(if $(SIM_ASSERT),,-noassert)
sim_config  = $(1)$(sim_options)
sim_dir     = build/sim/$(call sim_config,$(1))
sim_bin     = $(call sim_dir,$(1))/canopy-fabric
# A launcher's directory (its stem, "3x3-L1-prot") -> its model's: the torus replaced by
# its dimension count, the options kept ("d2-L1-prot"); $(2) goes after the dimensions
# (the co-simulation's node count).
sim_stem_torus = $(firstword $(subst -, ,$(1)))
sim_stem_model = d$(call sim_ndims,$(call sim_stem_torus,$(1)))$(2)$(patsubst $(call sim_stem_torus,$(1))%,%,$(1))
sim_model_ndims = $(patsubst d%,%,$(firstword $(subst -, ,$(1))))

# The tile's parameters, for Verilator. The torus shape is the harness's business (-D).
sim_tile_params = -GNumDims=$(1) -GLinkLatency=$(LINK_LATENCY) -GLinkProtect=$(LINK_PROTECT) \
  -GFlitWidth=$(FLIT_BITS) -GNumVcs=$(NUM_VCS) -GLinkBufDepth=$(LINK_BUF) \
  -GCollBufDepth=$(COLL_BUF) -GLocalBufDepth=$(LOCAL_BUF) -GEjectCredits=$(EJECT_BUF)

# Loops of up to 256 iterations are unrolled into straight-line code. A loop Verilator
# leaves rolled that writes a slice of a wide vector costs a generic bit insert per
# iteration: the get table's 256 per-source counters alone took a fifth of the
# co-simulation's time that way.
SIM_VFLAGS   := --unroll-count 256
SIM_OPT      := -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2 OBJCACHE=$(VL_OBJCACHE)"
SIM_CXX_SRCS := sim/fabric.cpp sim/scoreboard.cpp sim/fabric_main.cpp
SIM_HDRS     := sim/fabric.hpp sim/scoreboard.hpp sim/vl_bits.hpp sim/rng.hpp sim/torus_tiles.hpp sim/wire_faults.hpp driver/include/canopy_packet.h
SIM_SV_TOP   := sim/canopy_tile_links.sv sim/canopy_router_tile.sv

# $(call sim_verilate,DIMS,DIR,BUILD): the Verilator command for one model, into
# DIR; BUILD is "--build -j N" (compile too) or empty (generate the C++ only).
define sim_verilate
	@mkdir -p $(2)
	@echo "  VERILATE $(notdir $(2))"
	verilator --cc --exe $(3) -Wall $(SIM_ASSERT) $(RTL_INC) \
	  $(SIM_VFLAGS) -Wno-DECLFILENAME --top-module canopy_router_tile --Mdir $(2)/obj -o ../canopy-fabric \
	  $(if $(filter 1,$(WAVES)),--trace-fst -CFLAGS -DCANOPY_TRACE,) $(call sim_tile_params,$(1)) \
	  -CFLAGS "-std=c++17 -I$(CURDIR)/sim -I$(CURDIR)/driver/include" $(SIM_OPT) \
	  -CFLAGS "-DCANOPY_NDIMS=$(1) -DCANOPY_LINK_LATENCY=$(LINK_LATENCY)" \
	  -CFLAGS "-DCANOPY_FLIT_BITS=$(FLIT_BITS) -DCANOPY_NUM_VCS=$(NUM_VCS) -DCANOPY_LINK_PROTECT=$(LINK_PROTECT)" \
	  -CFLAGS "-DCANOPY_LOCAL_BUF_DEPTH=$(LOCAL_BUF) -DCANOPY_EJECT_CREDITS=$(EJECT_BUF)" \
	  $(RTL_SRCS) $(SIM_SV_TOP) $(addprefix $(CURDIR)/,$(SIM_CXX_SRCS)) > $(2)/build.log 2>&1 \
	  || { tail -n 40 $(2)/build.log; exit 1; }
endef

# The profile-guided build (SIM_PGO): compile the generated model with FLAGS, in place, so
# the training run's profile (DIR/pgo, one file per object) names the objects the second
# compile reads it for. The training torus is fixed per dimension count, so the model is
# the same whichever torus asked for it first.
SIM_PGO_TRAIN := "uniform --flits 30000" "malformed" "hotspot --flits 10000"
SIM_PGO_TORUS_1 := 8
SIM_PGO_TORUS_2 := 3x3
SIM_PGO_TORUS_3 := 4x4x4
SIM_PGO_TORUS_4 := 2x2x2x2
sim_pgo_compile = rm -f $(1)/obj/*.o $(1)/obj/*.a $(1)/canopy-fabric && \
  $(MAKE) --no-print-directory -C $(1)/obj -f Vcanopy_router_tile.mk -j $(SIM_JOBS) ../canopy-fabric \
    OPT_SLOW=-O0 OPT_FAST="-O2 $(2)" OPT_GLOBAL="-O2 $(2)" LDFLAGS="$(2)" >> $(1)/build.log 2>&1 \
  || { tail -n 40 $(1)/build.log; exit 1; }
define sim_pgo_build
	$(call sim_verilate,$(1),$(2),)
	@echo "  PGO      $(notdir $(2)): instrumented build, training, final build"
	@rm -rf $(2)/pgo
	@$(call sim_pgo_compile,$(2),-fprofile-generate=$(CURDIR)/$(2)/pgo)
	@for s in $(SIM_PGO_TRAIN); do $(2)/canopy-fabric --torus $(SIM_PGO_TORUS_$(1)) $$s >> $(2)/build.log || exit 1; done
	@$(call sim_pgo_compile,$(2),-fprofile-use=$(CURDIR)/$(2)/pgo -fprofile-partial-training -Wno-missing-profile)
endef

build/sim/model/%/canopy-fabric: $(RTL_DEPS) $(SIM_SV_TOP) $(SIM_CXX_SRCS) $(SIM_HDRS) | deps-sim
	$(if $(findstring -pgo,$*),$(call sim_pgo_build,$(call sim_model_ndims,$*),build/sim/model/$*),\
	  $(call sim_verilate,$(call sim_model_ndims,$*),build/sim/model/$*,--build -j $(SIM_JOBS)))

# $(call sim_launcher,MODEL,TORUS): bring MODEL (a path under build/<sim|cosim>/) up to
# date, then write $@, a launcher that runs it on TORUS, unless $@ already says that. A
# launcher is remade every time (FORCE), the model by a make of its own: a model named only
# as a prerequisite of a pattern rule would be an intermediate file to make, deleted after
# the build and never remade once deleted. Two runs may write one launcher at once (two
# tests starting sim/canopy-run): each writes a file of its own and renames it into place.
define sim_launcher
	+@$(MAKE) --no-print-directory $(patsubst %/,%,$(dir $(@D)))/$(1)
	@mkdir -p $(@D)
	@want=$$(printf '#!/bin/sh\n# written by sim/sim.mk: the %s torus on the model %s\nexec "$$(dirname "$$0")/../%s" --torus %s "$$@"' \
	  '$(2)' '$(1)' '$(1)' '$(2)'); \
	if [ ! -x $@ ] || [ "$$(cat $@)" != "$$want" ]; then \
	  printf '%s\n' "$$want" > $@.$$$$ && chmod +x $@.$$$$ && mv -f $@.$$$$ $@; fi
endef

# The launchers: the rules with the shorter stem (build/sim/model/...) win for the models.
build/sim/%/canopy-fabric: FORCE
	$(call sim_launcher,model/$(call sim_stem_model,$*)/canopy-fabric,$(call sim_stem_torus,$*))

.PHONY: FORCE print-model
FORCE:

# make print-model LAUNCHER=build/sim/3x3-L1/canopy-fabric: the model it runs (for tools).
print-model:
	@case "$(LAUNCHER)" in \
	  build/sim/*) echo build/sim/model/$(call sim_stem_model,$(notdir $(patsubst %/,%,$(dir $(LAUNCHER)))))/canopy-fabric ;; \
	  build/cosim/*) echo build/cosim/model/$(call cosim_stem_model,$(notdir $(patsubst %/,%,$(dir $(LAUNCHER)))))/canopy-cosim ;; \
	  *) echo "print-model: LAUNCHER=build/sim/<config>/canopy-fabric or build/cosim/<config>/canopy-cosim" >&2; exit 2 ;; \
	esac

.PHONY: sim
sim: $(call sim_bin,$(TORUS))

# ---------------------------------------------------------------- co-simulation
#   make cosim TORUS=3x3   builds build/cosim/<config>/canopy-cosim (whole nodes + PCIe model)
COSIM_SV_TOP   := sim/canopy_tile_links.sv sim/canopy_node_tile.sv
COSIM_CXX_SRCS := sim/cosim/cosim_main.cpp sim/cosim/pcie_host.cpp
COSIM_HDRS     := sim/cosim/pcie_host.hpp sim/torus_tiles.hpp sim/wire_faults.hpp driver/include/canopy_packet.h sim/include/canopy_cosim.h driver/include/canopy.h
cosim_dir       = build/cosim/$(call sim_config,$(1))
cosim_bin       = $(call cosim_dir,$(1))/canopy-cosim
# The node's per-source tables (ACK, get) hold 256 nodes, as synthesized; a larger torus
# gets the next power of two (canopy_node's MaxNodes), so 8x8x8 runs with 512.
cosim_nodes     = $(shell echo $$(( $(call sim_size,$(1),1) * $(call sim_size,$(1),2) * $(call sim_size,$(1),3) * $(call sim_size,$(1),4) )))
cosim_max_nodes = $(shell n=$(call cosim_nodes,$(1)); m=256; while [ $$m -lt $$n ]; do m=$$((m * 2)); done; echo $$m)
BUILD_GIT      := $(shell git rev-parse --short=8 HEAD 2>/dev/null || echo 0)
BUILD_DATE     := $(shell date -u +%Y%m%d)

# $(call cosim_verilate,MODEL): the co-simulation's model MODEL, "d<dims>-n<max nodes>-<options>".
cosim_model_nodes = $(patsubst n%,%,$(word 2,$(subst -, ,$(1))))
define cosim_verilate
	@mkdir -p build/cosim/model/$(1)
	@echo "  VERILATE cosim $(1)"
	verilator --cc --exe --build -j $(SIM_JOBS) -Wall --assert $(RTL_INC) \
	  $(SIM_VFLAGS) -Wno-DECLFILENAME --top-module canopy_node_tile --Mdir build/cosim/model/$(1)/obj -o ../canopy-cosim \
	  $(call sim_tile_params,$(call sim_model_ndims,$(1))) -GBuildGit=32\'h$(BUILD_GIT) -GBuildDate=$(BUILD_DATE) \
	  -GMaxNodes=$(call cosim_model_nodes,$(1)) \
	  -CFLAGS "-std=c++17 -I$(CURDIR)/sim -I$(CURDIR)/sim/cosim -I$(CURDIR)/sim/include -I$(CURDIR)/driver/include" \
	  $(SIM_OPT) \
	  -CFLAGS "-DCANOPY_NDIMS=$(call sim_model_ndims,$(1)) -DCANOPY_MAX_NODES=$(call cosim_model_nodes,$(1))" \
	  -CFLAGS "-DCANOPY_NUM_VCS=$(NUM_VCS) -DCANOPY_LINK_PROTECT=$(LINK_PROTECT)" \
	  -LDFLAGS "-lrt -lpthread" \
	  $(RTL_SRCS) $(COSIM_SV_TOP) $(addprefix $(CURDIR)/,$(COSIM_CXX_SRCS)) > build/cosim/model/$(1)/build.log 2>&1 \
	  || { tail -n 40 build/cosim/model/$(1)/build.log; exit 1; }
endef

build/cosim/model/%/canopy-cosim: $(RTL_DEPS) $(COSIM_SV_TOP) $(COSIM_CXX_SRCS) $(COSIM_HDRS) | deps-sim
	$(call cosim_verilate,$*)

# The launchers (see the top): build/cosim/3x3-L1/canopy-cosim runs model/d2-n256-L1.
cosim_stem_model = $(call sim_stem_model,$(1),-n$(call cosim_max_nodes,$(call sim_stem_torus,$(1))))
build/cosim/%/canopy-cosim: FORCE
	$(call sim_launcher,model/$(call cosim_stem_model,$*)/canopy-cosim,$(call sim_stem_torus,$*))

.PHONY: cosim
cosim: $(call cosim_bin,$(TORUS))

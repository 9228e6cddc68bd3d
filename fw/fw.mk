# fw/fw.mk: the fabric manager (build/fw/libcanopy_fm.a) and its host-only unit test.
#
# C11, -Wall -Wextra -Werror, like libcanopy. fm_tree.c is pure (no device); fm_program.c
# calls libcanopy through canopy.h only, so programs link libcanopy_fm.a before libcanopy.a.
# The unit tests (build/tests/fw/fm_tree_test, fm_program_test with a mock of libcanopy)
# compile the sources themselves, with AddressSanitizer + UndefinedBehaviorSanitizer, and
# need no device or simulator.

FW_CC      ?= gcc
FW_CFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -fPIC -Ifw/include -Idriver/include
FW_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FW_SRCS    := fw/src/fm_tree.c fw/src/fm_program.c
FW_HDRS    := $(wildcard fw/include/*.h fw/src/*.h) driver/include/canopy.h driver/include/canopy_packet.h

build/fw/%.o: fw/src/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

build/fw/libcanopy_fm.a: $(patsubst fw/src/%.c,build/fw/%.o,$(FW_SRCS))
	@rm -f $@; ar rcs $@ $^

build/tests/fw/fm_tree_test: tests/fw/fm_tree_test.c tests/fw/fm_check.h fw/src/fm_tree.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(FW_SAN) tests/fw/fm_tree_test.c fw/src/fm_tree.c -o $@

# The largest tori (16x16x16x4 by default): root costs against brute force, the shmem_init
# tree set built and checked independently (suite name fw-scale).
build/tests/fw/fm_scale_test: tests/fw/fm_scale_test.c tests/fw/fm_check.h fw/src/fm_tree.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(FW_SAN) -Ifw/src tests/fw/fm_scale_test.c fw/src/fm_tree.c -o $@

# The fabric manager at scale (host only; fw/bench/fm_scale_bench.c, tools/bench.py --only
# fm-scale): optimized, no sanitizers, since it times.
build/fw/fm_scale_bench: fw/bench/fm_scale_bench.c fw/src/fm_tree.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -Ifw/src fw/bench/fm_scale_bench.c fw/src/fm_tree.c -o $@

# canopy_fm_setup against a mock of the libcanopy calls it makes (one process, fake fabric).
build/tests/fw/fm_program_test: tests/fw/fm_program_test.c $(FW_SRCS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(FW_SAN) tests/fw/fm_program_test.c $(FW_SRCS) -o $@

# On the co-simulation through the real libcanopy (sanitizer build; needs driver/driver.mk,
# i.e. the top-level Makefile): sim/canopy-run -n 9 --torus 3x3 build/tests/fw/fm_setup_sim
build/tests/fw/fm_setup_sim: tests/fw/fm_setup_sim.c $(FW_SRCS) $(FW_HDRS) build/driver-asan/libcanopy.a
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(FW_SAN) tests/fw/fm_setup_sim.c $(FW_SRCS) build/driver-asan/libcanopy.a \
	    -lpciaccess -lpthread -lrt -o $@

.PHONY: fw fw-tests
fw: build/fw/libcanopy_fm.a
fw-tests: build/tests/fw/fm_tree_test build/tests/fw/fm_program_test build/tests/fw/fm_scale_test
	build/tests/fw/fm_tree_test
	build/tests/fw/fm_program_test
	build/tests/fw/fm_scale_test

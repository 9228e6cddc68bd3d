# driver/driver.mk: libcanopy (build/driver/libcanopy.a) and the tools linked with it.
#
# C11, -Wall -Wextra -Werror. Two builds of the library: the normal one and one with
# AddressSanitizer + UndefinedBehaviorSanitizer (build/driver-asan/) that the driver tests
# use, so misuse and memory errors in the library fail the tests.

DRV_CC      ?= gcc
DRV_CFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -fPIC \
               -Idriver/include -Idriver/src -Isim/include
DRV_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
DRV_SRCS    := $(wildcard driver/src/*.c)
DRV_HDRS    := $(wildcard driver/include/*.h driver/src/*.h sim/include/*.h)
DRV_LIBS    := -lpciaccess -lpthread -lrt

build/driver/%.o: driver/src/%.c $(DRV_HDRS) | deps-pci
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_CFLAGS) -c $< -o $@

build/driver-asan/%.o: driver/src/%.c $(DRV_HDRS) | deps-pci
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_CFLAGS) $(DRV_SAN) -c $< -o $@

build/driver/libcanopy.a: $(patsubst driver/src/%.c,build/driver/%.o,$(DRV_SRCS))
	@rm -f $@; ar rcs $@ $^

build/driver-asan/libcanopy.a: $(patsubst driver/src/%.c,build/driver-asan/%.o,$(DRV_SRCS))
	@rm -f $@; ar rcs $@ $^

.PHONY: driver deps-pci
driver: build/driver/libcanopy.a build/driver-asan/libcanopy.a

deps-pci:
	@tools/ensure-deps.sh pci

# Programs linked with libcanopy: the examples (normal build) and the driver-level tests
# (sanitizer build), both run under sim/canopy-run.
DRV_TEST_CFLAGS := $(DRV_CFLAGS) $(DRV_SAN) -Itests/driver

build/driver/examples/%: driver/examples/%.c build/driver/libcanopy.a build/fw/libcanopy_fm.a
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_CFLAGS) -Ifw/include $< build/fw/libcanopy_fm.a build/driver/libcanopy.a $(DRV_LIBS) -o $@

# The collective benchmarks share a harness (hello, barrier, ring order, reports).
BENCH_HARNESS := driver/examples/bench_harness.c driver/examples/bench_harness.h
build/driver/examples/bcast_bench build/driver/examples/reduce_bench build/driver/examples/amo_bench: build/driver/examples/%: driver/examples/%.c \
		$(BENCH_HARNESS) build/driver/libcanopy.a build/fw/libcanopy_fm.a
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_CFLAGS) -Ifw/include $< driver/examples/bench_harness.c build/fw/libcanopy_fm.a \
		build/driver/libcanopy.a $(DRV_LIBS) -o $@

# The fabric manager (fw/) is compiled into the tests with the same sanitizers.
build/tests/driver/%: tests/driver/%.c tests/driver/test_util.h build/driver-asan/libcanopy.a $(FW_SRCS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_TEST_CFLAGS) -Ifw/include $< $(FW_SRCS) build/driver-asan/libcanopy.a $(DRV_LIBS) -o $@

# The driver's route walk against the unit tests' reference route (host only).
build/tests/driver/route_test: tests/driver/route_test.cpp driver/src/route.c $(DRV_HDRS) tests/unit/route_ref.hpp
	@mkdir -p $(@D)
	$(DRV_CC) $(DRV_CFLAGS) $(DRV_SAN) -c driver/src/route.c -o $@-route.o
	$${CXX:-g++} -std=c++17 -Wall -Wextra -Werror -O2 -g $(DRV_SAN) -Idriver/src -Itests/unit $< $@-route.o -o $@

DRIVER_TESTS := put_sizes adversarial misuse rings bcast coll_rules coll_fail reduce get amo dma_fault link_cut
.PHONY: driver-tests-build
driver-tests-build: $(addprefix build/tests/driver/,$(DRIVER_TESTS)) build/driver/examples/put_demo

# shmem/shmem.mk: libcanopy_shmem, OpenSHMEM 1.5 over libcanopy (docs/shmem.md), and the
# programs linked with it. Included from the top-level Makefile after driver/driver.mk
# (it uses DRV_SAN, DRV_LIBS and the fw sources).
#
# C11, -Wall -Wextra -Werror. Two builds, like libcanopy: build/shmem/libcanopy_shmem.a
# (what shmem/oshcc links) and build/shmem-asan/ with AddressSanitizer + UBSan, together
# with sanitizer builds of libcanopy_fm, that the tests in tests/shmem/ link.

SHM_CC      ?= gcc
SHM_CFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -fPIC \
               -Ishmem/include -Ishmem/src -Idriver/include -Ifw/include
SHM_SRCS    := $(wildcard shmem/src/*.c)
SHM_HDRS    := $(wildcard shmem/include/*.h shmem/src/*.h) driver/include/canopy.h \
               driver/include/canopy_packet.h fw/include/canopy_fm.h
SHMEM_LIBS      := build/shmem/libcanopy_shmem.a build/fw/libcanopy_fm.a build/driver/libcanopy.a
SHMEM_ASAN_LIBS := build/shmem-asan/libcanopy_shmem.a build/shmem-asan/libcanopy_fm.a build/driver-asan/libcanopy.a

build/shmem/%.o: shmem/src/%.c $(SHM_HDRS)
	@mkdir -p $(@D)
	$(SHM_CC) $(SHM_CFLAGS) -c $< -o $@

build/shmem-asan/%.o: shmem/src/%.c $(SHM_HDRS)
	@mkdir -p $(@D)
	$(SHM_CC) $(SHM_CFLAGS) $(DRV_SAN) -c $< -o $@

build/shmem/libcanopy_shmem.a: $(patsubst shmem/src/%.c,build/shmem/%.o,$(SHM_SRCS))
	@rm -f $@; ar rcs $@ $^

build/shmem-asan/libcanopy_shmem.a: $(patsubst shmem/src/%.c,build/shmem-asan/%.o,$(SHM_SRCS))
	@rm -f $@; ar rcs $@ $^

build/shmem-asan/fw/%.o: fw/src/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(SHM_CC) $(FW_CFLAGS) $(DRV_SAN) -c $< -o $@

build/shmem-asan/libcanopy_fm.a: $(patsubst fw/src/%.c,build/shmem-asan/fw/%.o,$(FW_SRCS))
	@rm -f $@; ar rcs $@ $^

.PHONY: shmem shmem-tests-build
shmem: $(SHMEM_LIBS) build/shmem-asan/libcanopy_shmem.a

# Tests: ordinary SHMEM programs against the sanitizer builds (run with shmem/oshrun).
SHM_TEST_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g $(DRV_SAN) -Ishmem/include -Itests/shmem
build/tests/shmem/%: tests/shmem/%.c $(wildcard tests/shmem/*.h) $(SHMEM_ASAN_LIBS)
	@mkdir -p $(@D)
	$(SHM_CC) $(SHM_TEST_CFLAGS) $< $(SHMEM_ASAN_LIBS) $(DRV_LIBS) -lm -o $@

# The header alone, as user code: C99, C11 and GNU C11 with -pedantic, and C++ (no
# library needed).
build/tests/shmem/header_check.stamp: $(wildcard shmem/include/*.h) tests/shmem/header_check.c
	@mkdir -p $(@D)
	$(SHM_CC) -std=c99 -pedantic -Wall -Wextra -Werror -Ishmem/include -c tests/shmem/header_check.c -o $(@D)/header_c99.o
	$(SHM_CC) -std=c11 -pedantic -Wall -Wextra -Werror -Ishmem/include -c tests/shmem/header_check.c -o $(@D)/header_c11.o
	$(SHM_CC) -std=gnu11 -pedantic -Wall -Wextra -Werror -Ishmem/include -c tests/shmem/header_check.c -o $(@D)/header_gnu11.o
	$${CXX:-g++} -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror -Ishmem/include -c tests/shmem/header_check.c -o $(@D)/header_cxx.o
	@touch $@

# Example programs (shmem/examples/*.c), normal build, as shmem/oshcc would link them.
build/shmem/examples/%: shmem/examples/%.c $(SHMEM_LIBS) $(wildcard shmem/include/*.h)
	@mkdir -p $(@D)
	$(SHM_CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g -Ishmem/include $< $(SHMEM_LIBS) $(DRV_LIBS) -lm -o $@

# Pre-1.2 SHMEM code, built the way a user builds it: by the wrapper, as GNU C99.
build/tests/shmem/legacy: tests/shmem/legacy.c shmem/oshcc $(SHMEM_LIBS) $(wildcard shmem/include/*.h)
	@mkdir -p $(@D)
	shmem/oshcc -std=gnu99 -Wall -Wextra -Werror -O1 -g $< -o $@

SHMEM_TESTS := conformance teams p2p barrier errors legacy amo sync2 dead_link
shmem-tests-build: $(addprefix build/tests/shmem/,$(SHMEM_TESTS)) build/tests/shmem/header_check.stamp

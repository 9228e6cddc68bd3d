# tests/driver-pci/pci.mk: tests of libcanopy's "pci" backend (driver/src/hal_pci.c) that
# need no board.
#
#   make pci-tests    build build/driver-pci/pci_test (ASan + UBSan) and run it
#
# Included by the top-level Makefile. The test #includes driver/src/hal_pci.c to reach its
# static parsers and helpers, so it builds without the rest of libcanopy. It prints one
# PASS/FAIL line per check and exits non-zero if any failed. It reads this machine's PCI
# list and config space but never maps, enables or writes a real device, and never
# reserves hugepages (with none reserved it checks dma_alloc's failure message instead).
# Run as root, it also opens a fake board: a fake sysfs tree in a private mount namespace
# of a child process (skipped otherwise).

PCI_TEST_DIR    := tests/driver-pci
PCI_BUILD_DIR   := build/driver-pci
PCI_TEST_BIN    := $(PCI_BUILD_DIR)/pci_test
PCI_TEST_CC     ?= gcc
PCI_TEST_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g \
                   -fsanitize=address,undefined -fno-omit-frame-pointer \
                   -fno-sanitize-recover=all -Idriver/include -Idriver/src
PCI_TEST_LIBS   := -lpciaccess -pthread

$(PCI_TEST_BIN): $(PCI_TEST_DIR)/pci_test.c driver/src/hal_pci.c driver/src/pci_vfio.c driver/src/pci_vfio.h driver/src/hal.h \
                 driver/include/canopy.h driver/include/canopy_regs.h
	@tools/ensure-deps.sh pci
	@mkdir -p $(@D)
	$(PCI_TEST_CC) $(PCI_TEST_CFLAGS) $< -o $@ $(PCI_TEST_LIBS)

.PHONY: pci-tests
pci-tests: $(PCI_TEST_BIN)
	@$(PCI_TEST_BIN)

# pmudb - build, test and benchmark.
#
#   make            everything: the compiler, the catalog, the library, the command
#   make run        builds and encodes a few events with the built-in catalog
#   make test       every test, plainly and under ASan and UBSan, side by side
#   make bench      speed against libpfm (ratios beside a null control)
#   make fuzz       each libFuzzer target for FUZZ_SECONDS
#   make static     one static binary (ARCH=arm64 cross-builds); make dist a tarball
#   make install    PREFIX=/usr/local DESTDIR=
#
# The recipes live in mk/, one file a job; mk/packages lists the Debian
# packages, for `make` and for CI alike.  See README.md and docs/.

CC := gcc
BUILD ?= build
# LIBPFM=/prefix builds from another libpfm4 install (include/ and lib/ under it).
LIBPFM ?=
# PMU_EVENTS="DIR..." reads the vendors' event lists from those directories
# (perf's tools/perf/pmu-events/arch tree of any kernel, a checkout of
# Intel's perfmon repository or of ARM-software/data); by default the tree
# of Debian's linux-source-6.12, extracted once into build/pmu-events and
# again only when that package changes.  PMU_EVENTS_EXTRA="DIR..." adds
# sources after those; the newest list of each µarch is encoded.
PMU_EVENTS ?=
PMU_EVENTS_EXTRA ?=

CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP -I. -Iinclude
PLAIN_CFLAGS := $(CFLAGS)
ifneq ($(SAN),)
CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

.PHONY: all run
all: deps $(BUILD)/pmudb-build $(BUILD)/pmudb.db $(BUILD)/libpmudb.a $(BUILD)/libpmudb.so $(BUILD)/pmudb

run: all
	@$(BUILD)/pmudb encode amd64_fam19h_zen4::RETIRED_INSTRUCTIONS amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u \
		perf::PERF_COUNT_HW_CPU_CYCLES skl::INST_RETIRED:ANY_P:c=1 skx_unc_cha0::UNC_C_CLOCKTICKS \
		amd64_fam1ah_zen5::RETIRED_INSTRUCTIONS gnr::OCR.DEMAND_DATA_RD.ANY_RESPONSE arm_n2::CPU_CYCLES:u

include mk/deps.mk
include mk/build.mk
include mk/catalog.mk
include mk/static.mk
include mk/fuzz.mk
include mk/tests.mk
include mk/install.mk

.PHONY: clean
clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# pmudb - build, test and benchmark.  `make` builds everything, `make run`
# builds and runs the main job, `make test` runs every test (also under
# AddressSanitizer and UndefinedBehaviorSanitizer).  See README.md.

CC := gcc
BUILD ?= build
# LIBPFM=/prefix builds from another libpfm4 install (include/ and lib/ under it).
LIBPFM ?=
# PMU_EVENTS=DIR reads the vendors' event lists from DIR (perf's
# tools/perf/pmu-events/arch tree, or a checkout of Intel's perfmon
# repository); by default the tree of Debian's linux-source-6.12, extracted
# once into build/pmu-events and again only when that package changes.
PMU_EVENTS ?=
KERNEL_SOURCE := /usr/src/linux-source-6.12.tar.xz
PMU_EVENTS_CACHE := build/pmu-events

CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP
ifneq ($(SAN),)
CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

ifneq ($(LIBPFM),)
PFM_CFLAGS := -I$(LIBPFM)/include
PFM_LIBS := -L$(LIBPFM)/lib -Wl,-rpath,$(LIBPFM)/lib -lpfm
else
PFM_CFLAGS :=
PFM_LIBS := -lpfm
endif

COMPILER_SRC := $(wildcard compiler/*.c)
# The compiler reads its packed blobs back with the runtime's reader, and
# checks family names against the runtime's encoders.
RUNTIME_READER := $(addprefix $(BUILD)/db/,packed.o unpack.o name_index.o arena.o family_encoders.o \
	family_netburst.o rules.o request.o errors.o)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/%.o) $(BUILD)/compiler/schema_sql.o $(RUNTIME_READER)
DB_SRC := $(wildcard db/*.c)
DB_OBJ := $(DB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/db/builtin.o
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TESTS := $(BUILD)/tests/test_catalog $(BUILD)/tests/test_tables $(BUILD)/tests/test_build \
	$(BUILD)/tests/test_encode $(BUILD)/tests/test_cli $(BUILD)/tests/test_detect $(BUILD)/tests/test_vendor \
	$(BUILD)/tests/test_reconcile $(BUILD)/tests/test_hostile $(BUILD)/tests/test_stat
# The static binaries cannot link the sanitizers: test_static runs in the
# plain pass only.
ifeq ($(SAN),)
TESTS += $(BUILD)/tests/test_static
endif

.PHONY: all run test check bench deps clean static dist sizes deps-cross check-static
all: deps $(BUILD)/pmudb-build $(BUILD)/pmudb.db $(BUILD)/libpmudb.a $(BUILD)/libpmudb.so $(BUILD)/pmudb

# The packages the build needs; installed when running as root, else the
# command to run is printed.
DEB_PACKAGES := gcc make pkg-config libsqlite3-dev libzstd-dev libyaml-dev libcmocka-dev libjansson-dev linux-source-6.12
ifeq ($(LIBPFM),)
DEB_PACKAGES += libpfm4-dev
endif
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:" $$missing; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
		else \
			echo "missing packages; run: sudo apt-get install" $$missing >&2; exit 1; \
		fi; \
	fi

# pkg-config is asked when a recipe runs, after `deps` has installed it.
SQLITE_LIBS = $(shell pkg-config --libs sqlite3)
ZSTD_LIBS = $(shell pkg-config --libs libzstd)
YAML_LIBS = $(shell pkg-config --libs yaml-0.1)
JSON_LIBS = $(shell pkg-config --libs jansson)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

# The compiler and the tests may use libpfm; the runtime (db/, cli/) never.
$(BUILD)/compiler/%.o: compiler/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -Idb -c $< -o $@

$(BUILD)/db/%.o: db/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(BUILD)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Idb -c $< -o $@

$(BUILD)/db/builtin.o: db/builtin.S $(BUILD)/pmudb.db
	@mkdir -p $(dir $@)
	$(CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' $< -o $@

$(BUILD)/libpmudb.a: $(DB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/libpmudb.so: $(DB_OBJ)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libpmudb.so.0 $^ -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread

# Linked statically, libc included: no libpfm at run time, a binary that
# runs on any Linux of its architecture, and a one-event process that
# neither loads nor relocates a library (each page the loader writes costs
# a short process a fault; see `make bench`).  The link warns that SQLite
# refers to dlopen(): only sqlite3_load_extension() reaches it, which
# pmudb never calls.  The sanitizers' runtimes do not link statically: under
# SAN=1 the binary is dynamic.
ifeq ($(SAN),)
CLI_LINK := -static
else
CLI_LINK :=
endif
$(BUILD)/pmudb: $(CLI_OBJ) $(BUILD)/libpmudb.a
	$(CC) $(LDFLAGS) $(CLI_LINK) $(CLI_OBJ) $(BUILD)/libpmudb.a -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread -lm \
		2>&1 | grep -v -e 'unixDlOpen' -e 'statically linked applications requires at runtime' >&2 || true
	@test -x $@

# ---- static binaries: `make static [ARCH=arm64]`, `make dist [ARCH=arm64]` ----
# One binary with no dynamic dependency at all (no ELF interpreter, no
# shared library), the catalog inside: it runs on any Linux of its
# architecture, old distributions and empty containers included.
# Static glibc, as Debian ships SQLite's archive for it (libsqlite3.a, for
# arm64 too by multiarch).  The link warns that SQLite refers to dlopen();
# only sqlite3_load_extension() reaches it, and pmudb never calls it.
#
# ARCH: this host's (default, into $(BUILD)/pmudb-static) or arm64,
# cross-built with Debian's gcc-aarch64-linux-gnu into
# $(BUILD)/arm64/pmudb-static; the catalog is compiled on this host either way.
HOST_ARCH := $(shell uname -m)
arch_name = $(if $(filter $(1),arm64 aarch64),aarch64,$(if $(filter $(1),x86_64 amd64 x86),x86_64,$(1)))
ARCH ?= $(HOST_ARCH)
TARGET_ARCH := $(call arch_name,$(ARCH))
VERSION := $(shell sed -n 's/^\#define PMUDB_VERSION "\(.*\)"/\1/p' db/pmudb.h)
ifeq ($(TARGET_ARCH),$(call arch_name,$(HOST_ARCH)))
STATIC_BIN := $(BUILD)/pmudb-static
STRIP := strip
else ifeq ($(TARGET_ARCH),aarch64)
CROSS_DIR := $(BUILD)/arm64
CROSS_CC := aarch64-linux-gnu-gcc
STRIP := aarch64-linux-gnu-strip
CROSS_SQLITE := /usr/lib/aarch64-linux-gnu/libsqlite3.a /usr/lib/aarch64-linux-gnu/libzstd.a
STATIC_BIN := $(CROSS_DIR)/pmudb-static
else
STATIC_BIN := unsupported-ARCH
endif
# What cross-building for arm64 needs (and testing it: qemu-user-static).
CROSS_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross libsqlite3-dev:arm64 libzstd-dev:arm64
CROSS_TEST_PACKAGES := $(CROSS_PACKAGES) qemu-user-static

static: deps $(if $(CROSS_DIR),deps-cross) $(STATIC_BIN)
	@$(MAKE) --no-print-directory sizes

# The size of each binary there is, and of the catalog inside it.
sizes:
	@echo "sizes (the catalog inside: the bytes between pmudb_builtin_catalog and its end):"
	@for b in $(BUILD)/pmudb $(BUILD)/pmudb-static $(BUILD)/arm64/pmudb-static; do \
		[ -f $$b ] || continue; \
		lo=$$(nm $$b | awk '$$3 == "pmudb_builtin_catalog" { print $$1 }'); \
		hi=$$(nm $$b | awk '$$3 == "pmudb_builtin_catalog_end" { print $$1 }'); \
		kind=$$(if readelf -lW $$b | grep -q INTERP; then echo dynamic; else echo static; fi); \
		case "$$(readelf -hW $$b | grep Machine:)" in *X86-64*) machine=x86_64;; *AArch64*) machine=aarch64;; \
			*) machine=unknown;; esac; \
		awk -v b=$$b -v size=$$(stat -c %s $$b) -v cat=$$((0x$$hi - 0x$$lo)) -v what="$$machine, $$kind" \
			'BEGIN { printf "  %-34s %5.1f MB (%d bytes), %s; the catalog inside %.1f MB (%d bytes)\n", \
				b, size / 1e6, size, what, cat / 1e6, cat }'; \
	done
	@awk -v b=$(BUILD)/pmudb.db -v size=$$(stat -c %s $(BUILD)/pmudb.db) \
		'BEGIN { printf "  %-34s %5.1f MB (%d bytes), the catalog file\n", b, size / 1e6, size }'
	@for t in $(BUILD)/pmudb-*.tar.gz; do \
		[ -f $$t ] || continue; \
		awk -v b=$$t -v size=$$(stat -c %s $$t) \
			'BEGIN { printf "  %-34s %5.1f MB (%d bytes), make dist\n", b, size / 1e6, size }'; \
	done

ifneq ($(SAN),)
$(STATIC_BIN):
	@echo "make static: not with SAN=1 (the sanitizers' runtimes do not link statically)" >&2; exit 2
else ifeq ($(STATIC_BIN),unsupported-ARCH)
$(STATIC_BIN):
	@echo "make static: ARCH=$(ARCH): this host ($(HOST_ARCH)) builds for itself or, cross, for arm64" >&2; exit 2
else ifeq ($(CROSS_DIR),)
$(BUILD)/pmudb-static: $(CLI_OBJ) $(BUILD)/libpmudb.a
	$(CC) $(LDFLAGS) -static $(CLI_OBJ) $(BUILD)/libpmudb.a -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread -lm
	@echo "(the linker's dlopen warning: SQLite's load_extension refers to it; pmudb never calls it)"
	$(STRIP) --strip-debug $@
else
CROSS_OBJ := $(DB_SRC:%.c=$(CROSS_DIR)/%.o) $(CROSS_DIR)/db/builtin.o $(CLI_SRC:%.c=$(CROSS_DIR)/%.o)
$(CROSS_DIR)/db/%.o: db/%.c
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -c $< -o $@
$(CROSS_DIR)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -Idb -c $< -o $@
$(CROSS_DIR)/db/builtin.o: db/builtin.S $(BUILD)/pmudb.db
	@mkdir -p $(dir $@)
	$(CROSS_CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' $< -o $@
$(CROSS_DIR)/pmudb-static: $(CROSS_OBJ)
	$(CROSS_CC) $(LDFLAGS) -static $^ -o $@ $(CROSS_SQLITE) -lpthread -lm
	@echo "(the linker's dlopen warning: SQLite's load_extension refers to it; pmudb never calls it)"
	$(STRIP) --strip-debug $@
endif

# make dist: build/pmudb-VERSION-ARCH.tar.gz, the static binary (as
# pmudb), the catalog file, the man pages and the README, for copying onto
# a machine with nothing installed.  Reproducible: sorted, owned by root,
# dated by the last commit (or $SOURCE_DATE_EPOCH).
DIST_NAME := pmudb-$(VERSION)-$(TARGET_ARCH)
DIST_TGZ := $(BUILD)/$(DIST_NAME).tar.gz
DIST_DATE = $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null),0)
dist: deps $(if $(CROSS_DIR),deps-cross) $(DIST_TGZ)
	@$(MAKE) --no-print-directory sizes

$(DIST_TGZ): $(STATIC_BIN) $(BUILD)/pmudb.db README.md docs/pmudb.1 docs/libpmudb.3 docs/schema.md
	rm -rf $(BUILD)/dist/$(DIST_NAME)
	mkdir -p $(BUILD)/dist/$(DIST_NAME)/man/man1 $(BUILD)/dist/$(DIST_NAME)/man/man3 $(BUILD)/dist/$(DIST_NAME)/docs
	install -m 755 $(STATIC_BIN) $(BUILD)/dist/$(DIST_NAME)/pmudb
	install -m 644 $(BUILD)/pmudb.db README.md $(BUILD)/dist/$(DIST_NAME)/
	install -m 644 docs/schema.md $(BUILD)/dist/$(DIST_NAME)/docs/
	install -m 644 docs/pmudb.1 $(BUILD)/dist/$(DIST_NAME)/man/man1/
	install -m 644 docs/libpmudb.3 $(BUILD)/dist/$(DIST_NAME)/man/man3/
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(DIST_DATE) -C $(BUILD)/dist -cf - $(DIST_NAME) \
		| gzip -9n > $@.tmp
	mv $@.tmp $@

# What `make check` needs for test_static: this host's static binary and
# tarball, and the arm64 binary where Debian's cross toolchain is (or can
# be) installed; test_static says SKIP, naming the package, where not.
check-static:
	@$(MAKE) --no-print-directory ARCH=$(HOST_ARCH) $(BUILD)/pmudb-static \
		$(BUILD)/pmudb-$(VERSION)-$(call arch_name,$(HOST_ARCH)).tar.gz
ifneq ($(call arch_name,$(HOST_ARCH)),aarch64)
	@$(MAKE) --no-print-directory deps-cross OPTIONAL=1
	@if [ -x /usr/bin/aarch64-linux-gnu-gcc ] && [ -f /usr/aarch64-linux-gnu/lib/libc.a ] \
		&& [ -f /usr/lib/aarch64-linux-gnu/libsqlite3.a ]; then \
		$(MAKE) --no-print-directory ARCH=arm64 $(BUILD)/arm64/pmudb-static; \
	fi
endif
	@$(MAKE) --no-print-directory sizes

# The cross toolchain and arm64 SQLite, installed as `deps` installs the
# rest (the arm64 architecture added to dpkg first).  OPTIONAL=1 (as
# `make check` asks): a missing package is reported, not an error, and
# the arm64 tests say SKIP naming it.
deps-cross:
	@missing=$$(for p in $(if $(OPTIONAL),$(CROSS_TEST_PACKAGES),$(CROSS_PACKAGES)); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:" $$missing; \
			{ dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64; } && \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null \
			|| { [ -n "$(OPTIONAL)" ] || exit 1; echo "could not install" $$missing "(arm64 tests will SKIP)"; }; \
		else \
			echo "missing packages; run: sudo dpkg --add-architecture arm64 && sudo apt-get update &&" \
				"sudo apt-get install" $$missing >&2; \
			[ -n "$(OPTIONAL)" ] || exit 1; \
		fi; \
	fi

$(BUILD)/compiler/schema_sql.o: compiler/schema_sql.S compiler/schema.sql
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(BUILD)/pmudb-build: $(COMPILER_OBJ)
	$(CC) $(LDFLAGS) $^ -o $@ $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) $(YAML_LIBS) $(JSON_LIBS) -ldl

# The vendor tree: Debian's, extracted once (about 10 s), or PMU_EVENTS.
ifeq ($(PMU_EVENTS),)
PMU_EVENTS_DIR := $(PMU_EVENTS_CACHE)/arch
PMU_EVENTS_DEPS := $(PMU_EVENTS_CACHE)/.extracted
$(PMU_EVENTS_CACHE)/.extracted: $(KERNEL_SOURCE) | deps
	rm -rf $(PMU_EVENTS_CACHE) && mkdir -p $(PMU_EVENTS_CACHE)
	tar -xJf $(KERNEL_SOURCE) -C $(PMU_EVENTS_CACHE) --strip-components=4 \
		linux-source-6.12/tools/perf/pmu-events
	touch $@
$(KERNEL_SOURCE): | deps
else
PMU_EVENTS_DIR := $(PMU_EVENTS)
PMU_EVENTS_DEPS := $(shell find $(PMU_EVENTS) -name '*.json' -o -name '*.csv' 2>/dev/null)
endif

# Not deleted on error: a failed build keeps the previous catalog.
$(BUILD)/pmudb.db: $(BUILD)/pmudb-build $(wildcard tables/*.yaml) $(PMU_EVENTS_DEPS)
	$(BUILD)/pmudb-build --tables tables --pmu-events $(PMU_EVENTS_DIR) --out $@

run: all
	@$(BUILD)/pmudb encode amd64_fam19h_zen4::RETIRED_INSTRUCTIONS amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u \
		perf::PERF_COUNT_HW_CPU_CYCLES skl::INST_RETIRED:ANY_P:c=1 skx_unc_cha0::UNC_C_CLOCKTICKS \
		amd64_fam1ah_zen5::RETIRED_INSTRUCTIONS gnr::OCR.DEMAND_DATA_RD.ANY_RESPONSE arm_n2::CPU_CYCLES:u

TEST_LIBS := $(BUILD)/tests/testlib.o $(BUILD)/tests/libpfm_ask.o $(BUILD)/tests/vendor_json.o
$(BUILD)/tests/%: tests/%.c $(TEST_LIBS) $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -Idb $< $(TEST_LIBS) -o $@ $(LDFLAGS) $(BUILD)/libpmudb.a \
		$(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) $(JSON_LIBS) $(CMOCKA_LIBS) -lpthread

# The hostile-catalog test packs rows as a careless writer would: with the
# compiler's packer.
$(BUILD)/tests/test_hostile: tests/test_hostile.c $(BUILD)/compiler/pack.o $(TEST_LIBS) $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Idb $< $(BUILD)/compiler/pack.o $(TEST_LIBS) -o $@ $(LDFLAGS) $(BUILD)/libpmudb.a \
		$(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) $(JSON_LIBS) $(CMOCKA_LIBS) -lpthread

# The differential harness links libpfm (test-only) and the compiler's
# sysfs spy, so that libpfm encodes uncore PMUs here too.
$(BUILD)/tests/harness: tests/harness.c $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o $(BUILD)/compiler/sysfs_spy.o $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -Idb $< $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o \
		$(BUILD)/compiler/sysfs_spy.o $(BUILD)/libpmudb.a -o $@ $(LDFLAGS) $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) -ldl -lpthread

$(BUILD)/tests/bench: tests/bench.c $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o $(BUILD)/compiler/sysfs_spy.o \
		$(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -Idb $< $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o \
		$(BUILD)/compiler/sysfs_spy.o $(BUILD)/libpmudb.a -o $@ $(LDFLAGS) $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) -ldl -lpthread

$(BUILD)/tests/libpfm_once: tests/libpfm_once.c $(BUILD)/tests/libpfm_ask.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) $< $(BUILD)/tests/libpfm_ask.o -o $@ $(LDFLAGS) $(PFM_LIBS)

$(BUILD)/tests/libpfm_batch: tests/libpfm_batch.c $(BUILD)/tests/libpfm_ask.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) $< $(BUILD)/tests/libpfm_ask.o -o $@ $(LDFLAGS) $(PFM_LIBS)

$(BUILD)/tests/spawner: tests/spawner.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS)

# Speed, as ratios against libpfm with a null control (never a timed test).
BENCH_TOOLS := $(BUILD)/tests/libpfm_once $(BUILD)/tests/libpfm_batch $(BUILD)/tests/spawner
bench: all $(BUILD)/tests/bench $(BENCH_TOOLS)
	$(BUILD)/tests/bench $(BUILD)/pmudb $(BENCH_TOOLS)

# The harness checks the committed floors (agreements per family group,
# which may only rise); under the sanitizers it runs on every 25th string.
ifeq ($(SAN),)
HARNESS_ARGS := --floor tests/harness_floor.txt
else
HARNESS_ARGS := --sample 25
endif

# Runs the tests against the catalog and programs of $(BUILD).
check: all $(TESTS) $(BUILD)/tests/harness $(if $(SAN),,check-static)
	@for t in $(TESTS); do \
		echo "== $$t"; \
		PMUDB_BUILD=$(BUILD) PMUDB_PMU_EVENTS=$(PMU_EVENTS_DIR) $$t || exit 1; \
	done
	$(if $(SAN),@echo "== test_static: in the plain pass only (a static binary cannot link the sanitizers)")
	@echo "== $(BUILD)/tests/harness $(HARNESS_ARGS)"
	@$(BUILD)/tests/harness $(HARNESS_ARGS)

test:
	$(MAKE) --no-print-directory check BUILD=build
	$(MAKE) --no-print-directory check BUILD=build/san SAN=1

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

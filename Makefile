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
PLAIN_CFLAGS := $(CFLAGS)
ifneq ($(SAN),)
CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

# The runtime (db/, cli/) is compiled with -O3 and for link-time
# optimisation: an encoding crosses a dozen small files (parse, rules,
# family encoder, perf layer, fstr), and a link that sees them all inlines
# across them (warm core strings: 11 to 13 % fewer instructions; see the
# commit that brought it).  The objects carry plain code too, so a program
# that links libpmudb.a without -flto gets the -O3 code of each file; the
# CLI, libpmudb.so, the bench and the harness link with it.  Not under the
# sanitizers.
ifeq ($(SAN),)
RUNTIME_OPT ?= -O3 -flto=auto -ffat-lto-objects
endif

ifneq ($(LIBPFM),)
PFM_CFLAGS := -I$(LIBPFM)/include
PFM_LIBS := -L$(LIBPFM)/lib -Wl,-rpath,$(LIBPFM)/lib -lpfm
PFM_FILES = $(LIBPFM)/include/perfmon/pfmlib.h $(LIBPFM)/lib/libpfm.so
else
PFM_CFLAGS :=
PFM_LIBS := -lpfm
PFM_FILES = /usr/include/perfmon/pfmlib.h $(shell $(CC) -print-file-name=libpfm.so)
endif
# Which libpfm this build dir was compiled against: LIBPFM and the header
# and library files (size, time).  Everything compiled or linked against
# libpfm depends on it, so `make LIBPFM=...` in a build dir made with
# another libpfm rebuilds the compiler, the catalog and the tests.
PFM_ID = $(BUILD)/libpfm.id

COMPILER_SRC := $(wildcard compiler/*.c)
# The compiler reads its packed blobs back with the runtime's reader, and
# checks family names against the runtime's encoders.
RUNTIME_READER := $(addprefix $(BUILD)/db/,packed.o unpack.o shared_sets.o name_index.o arena.o pages.o family_encoders.o \
	family_netburst.o rules.o request.o errors.o fstr_form.o image.o catalog_file.o)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/%.o) $(BUILD)/compiler/schema_sql.o $(RUNTIME_READER)
DB_SRC := $(wildcard db/*.c)
DB_OBJ := $(DB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/db/builtin.o
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TESTS := $(BUILD)/tests/test_catalog $(BUILD)/tests/test_tables $(BUILD)/tests/test_build \
	$(BUILD)/tests/test_encode $(BUILD)/tests/test_cli $(BUILD)/tests/test_detect $(BUILD)/tests/test_vendor \
	$(BUILD)/tests/test_reconcile $(BUILD)/tests/test_hostile $(BUILD)/tests/test_stat \
	$(BUILD)/tests/test_perf_syntax $(BUILD)/tests/test_export $(BUILD)/tests/test_decode \
	$(BUILD)/tests/test_express
# The static binaries cannot link the sanitizers: test_static runs in the
# plain pass only.
# Nor can a program link an ASan-built libpmudb.so without the sanitizer
# runtime first: test_install runs in the plain pass too.
ifeq ($(SAN),)
TESTS += $(BUILD)/tests/test_static $(BUILD)/tests/test_install
endif
# The fuzz targets (tests/fuzz/fuzz_*.c; see `make fuzz` below): `make
# check` replays their seeds and regression inputs.
FUZZ_TARGETS ?= event catalog_bytes catalog_rows packed cpuinfo yaml vendor_json
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/replay_%)

.PHONY: all run test check bench deps clean static dist sizes deps-cross check-static fuzz fuzz-deps fuzz-build install uninstall FORCE test-plain test-san
all: deps $(BUILD)/pmudb-build $(BUILD)/pmudb.db $(BUILD)/libpmudb.a $(BUILD)/libpmudb.so $(BUILD)/pmudb

# The packages the build needs; installed when running as root, else the
# command to run is printed.  linux-perf and python3 are for the tests: perf
# parses `--format perf` output (test_perf_syntax), python3 runs perf's
# jevents.py over the perf-json export (test_export).
DEB_PACKAGES := gcc make pkg-config libsqlite3-dev libzstd-dev libyaml-dev libcmocka-dev libjansson-dev linux-source-6.12 \
	linux-perf python3
ifeq ($(LIBPFM),)
DEB_PACKAGES += libpfm4-dev
endif
# $(call install_packages,PACKAGES): installs those missing, as root;
# otherwise prints the command to run and fails.
define install_packages
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:" $$missing; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
		else \
			echo "missing packages; run: sudo apt-get install" $$missing >&2; exit 1; \
		fi; \
	fi
endef
deps:
	$(call install_packages,$(DEB_PACKAGES))

# pkg-config is asked when a recipe runs, after `deps` has installed it.
SQLITE_LIBS = $(shell pkg-config --libs sqlite3)
ZSTD_LIBS = $(shell pkg-config --libs libzstd)
YAML_LIBS = $(shell pkg-config --libs yaml-0.1)
JSON_LIBS = $(shell pkg-config --libs jansson)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

# The compiler and the tests may use libpfm; the runtime (db/, cli/) never.
$(PFM_ID): FORCE | deps
	@mkdir -p $(dir $@)
	@id="LIBPFM=$(LIBPFM) $$(stat -L -c '%n %s %Y' $(PFM_FILES) 2>/dev/null | tr '\n' ' ')"; \
	if [ "$$(cat $@ 2>/dev/null)" != "$$id" ]; then echo "$$id" > $@; echo "libpfm for $(BUILD): $$id"; fi

$(BUILD)/compiler/%.o: compiler/%.c $(PFM_ID)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c $(PFM_ID)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -Idb -c $< -o $@

$(BUILD)/db/%.o: db/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) -fPIC -c $< -o $@

# Where the library looks for the installed catalog when it finds none
# beside itself (db/installed.c): the PREFIX it was built with.
$(BUILD)/db/installed.o: CFLAGS += -DPMUDB_PREFIX='"$(PREFIX)"'

$(BUILD)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) -Idb -c $< -o $@

$(BUILD)/db/builtin.o: db/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image
	@mkdir -p $(dir $@)
	$(CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' -DIMAGE='"$(BUILD)/pmudb.image"' $< -o $@

$(BUILD)/libpmudb.a: $(DB_OBJ)
	rm -f $@
	gcc-ar rcs $@ $^

$(BUILD)/libpmudb.so: $(DB_OBJ)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) $(LDFLAGS) -shared -Wl,-soname,libpmudb.so.0 $^ -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread

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
	$(CC) $(CFLAGS) $(RUNTIME_OPT) $(LDFLAGS) $(CLI_LINK) $(CLI_OBJ) $(BUILD)/libpmudb.a -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread -lm \
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
	@echo "sizes (the catalog inside: the bytes between pmudb_builtin_catalog and its end; its image: db/image.h):"
	@for b in $(BUILD)/pmudb $(BUILD)/pmudb-static $(BUILD)/arm64/pmudb-static; do \
		[ -f $$b ] || continue; \
		lo=$$(nm $$b | awk '$$3 == "pmudb_builtin_catalog" { print $$1 }'); \
		hi=$$(nm $$b | awk '$$3 == "pmudb_builtin_catalog_end" { print $$1 }'); \
		ilo=$$(nm $$b | awk '$$3 == "pmudb_builtin_image" { print $$1 }'); \
		ihi=$$(nm $$b | awk '$$3 == "pmudb_builtin_image_end" { print $$1 }'); \
		kind=$$(if readelf -lW $$b | grep -q INTERP; then echo dynamic; else echo static; fi); \
		case "$$(readelf -hW $$b | grep Machine:)" in *X86-64*) machine=x86_64;; *AArch64*) machine=aarch64;; \
			*) machine=unknown;; esac; \
		awk -v b=$$b -v size=$$(stat -c %s $$b) -v cat=$$((0x$$hi - 0x$$lo)) -v image=$$((0x$$ihi - 0x$$ilo)) \
			-v what="$$machine, $$kind" \
			'BEGIN { printf "  %-34s %5.1f MB (%d bytes), %s; the catalog inside %.1f MB (%d bytes), its image %.1f MB\n", \
				b, size / 1e6, size, what, cat / 1e6, cat, image / 1e6 }'; \
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
	$(CC) $(CFLAGS) $(RUNTIME_OPT) $(LDFLAGS) -static $(CLI_OBJ) $(BUILD)/libpmudb.a -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread -lm
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
$(CROSS_DIR)/db/builtin.o: db/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image
	@mkdir -p $(dir $@)
	$(CROSS_CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' -DIMAGE='"$(BUILD)/pmudb.image"' $< -o $@
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

$(BUILD)/pmudb-build: $(COMPILER_OBJ) $(PFM_ID)
	$(CC) $(LDFLAGS) $(COMPILER_OBJ) -o $@ $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) $(YAML_LIBS) $(JSON_LIBS) -ldl

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

# The built-in catalog's blobs, unpacked, which the library reads in place
# (db/image.h): a one-event process opens no SQLite.
$(BUILD)/pmudb.image: $(BUILD)/pmudb.db $(BUILD)/pmudb-build
	$(BUILD)/pmudb-build --image-of $< --out $@

run: all
	@$(BUILD)/pmudb encode amd64_fam19h_zen4::RETIRED_INSTRUCTIONS amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u \
		perf::PERF_COUNT_HW_CPU_CYCLES skl::INST_RETIRED:ANY_P:c=1 skx_unc_cha0::UNC_C_CLOCKTICKS \
		amd64_fam1ah_zen5::RETIRED_INSTRUCTIONS gnr::OCR.DEMAND_DATA_RD.ANY_RESPONSE arm_n2::CPU_CYCLES:u

TEST_LIBS := $(BUILD)/tests/testlib.o $(BUILD)/tests/libpfm_ask.o $(BUILD)/tests/vendor_json.o $(BUILD)/tests/libpfm_cpu.o
$(BUILD)/tests/%: tests/%.c $(TEST_LIBS) $(BUILD)/libpmudb.a $(PFM_ID)
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
# sysfs spy, so that libpfm encodes uncore PMUs here too; and the runtime
# optimised as the CLI and the bench link it, so that the code it checks
# is the code they run.
$(BUILD)/tests/harness: tests/harness.c $(BUILD)/tests/corpus.o $(BUILD)/tests/floors.o $(BUILD)/tests/libpfm_ask.o \
		$(BUILD)/compiler/sysfs_spy.o $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) $(PFM_CFLAGS) -Idb $< $(BUILD)/tests/corpus.o $(BUILD)/tests/floors.o $(BUILD)/tests/libpfm_ask.o \
		$(BUILD)/compiler/sysfs_spy.o $(BUILD)/libpmudb.a -o $@ $(LDFLAGS) $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) -ldl -lpthread

$(BUILD)/tests/bench: tests/bench.c $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o $(BUILD)/compiler/sysfs_spy.o \
		$(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) $(PFM_CFLAGS) -Idb $< $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o \
		$(BUILD)/compiler/sysfs_spy.o $(BUILD)/libpmudb.a -o $@ $(LDFLAGS) $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) -ldl -lpthread

# The decode property over the harness corpus (libpfm enumerates it).
$(BUILD)/tests/decode_property: tests/decode_property.c $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -Idb $< $(BUILD)/tests/corpus.o $(BUILD)/tests/libpfm_ask.o \
		$(BUILD)/libpmudb.a -o $@ $(LDFLAGS) $(PFM_LIBS) $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread

# What libpfm detects on another CPU: run under qemu-x86_64 by test_detect
# (libpfm_cpu.h), so built without the sanitizers, which qemu-user cannot run.
$(BUILD)/tests/libpfm_detect: tests/libpfm_detect.c $(PFM_ID)
	@mkdir -p $(dir $@)
	$(CC) $(PLAIN_CFLAGS) $(PFM_CFLAGS) $< -o $@ $(PFM_LIBS)

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

# The harness checks the committed floors, per PMU (tests/floors.h): no
# PMU's agreement may fall, none may disagree more, and a PMU the file
# does not list (a newer libpfm's) may not disagree at all.  Under the
# sanitizers it runs on every 25th string and checks the disagreements
# only.  HARNESS_FLOOR=FILE takes floors written for another libpfm
# (harness --write-floor FILE).  decode_property decodes every 4th
# core-PMU string (35,588 of 142,349): every one took 206 s on a Zen 3 VM,
# four times the whole harness, and put CI past its 20 minutes there;
# DECODE_SAMPLE=1 decodes them all.
HARNESS_FLOOR ?= tests/harness_floor.txt
DECODE_SAMPLE ?= 4
ifeq ($(SAN),)
HARNESS_ARGS := --floor $(HARNESS_FLOOR)
DECODE_ARGS := --sample $(DECODE_SAMPLE)
else
HARNESS_ARGS := --sample 25 --floor $(HARNESS_FLOOR)
DECODE_ARGS := --sample 25
endif

# Runs the tests against the catalog and programs of $(BUILD).
check: all $(TESTS) $(BUILD)/tests/harness $(BUILD)/tests/decode_property $(BUILD)/tests/libpfm_detect \
		$(if $(SAN),,check-static) $(FUZZ_REPLAYS) $(BUILD)/fuzz/seed.db
	@for t in $(TESTS); do \
		echo "== $$t"; \
		PMUDB_BUILD=$(BUILD) PMUDB_PMU_EVENTS=$(PMU_EVENTS_DIR) \
		PMUDB_MAKE_FLAGS="BUILD=$(BUILD) $(if $(PMU_EVENTS),PMU_EVENTS=$(PMU_EVENTS)) $(if $(LIBPFM),LIBPFM=$(LIBPFM))" \
			$$t || exit 1; \
	done
	@echo "== the fuzz targets on their seeds and regression inputs (tests/fuzz)"
	@for t in $(FUZZ_TARGETS); do \
		PMUDB_FUZZ_SEED=$(BUILD)/fuzz/seed.db $(BUILD)/tests/fuzz/replay_$$t tests/fuzz/seeds/$$t \
			tests/fuzz/regressions/$$t $$(ls -d $(BUILD)/fuzz/seeds/$$t 2>/dev/null) || exit 1; \
	done
	$(if $(SAN),@echo "== test_static and test_install: in the plain pass only (a static binary cannot link the sanitizers; a program cannot link an ASan library without them)")
	@echo "== $(BUILD)/tests/harness $(HARNESS_ARGS)"
	@$(BUILD)/tests/harness $(HARNESS_ARGS)
	@echo "== $(BUILD)/tests/decode_property $(DECODE_ARGS)  (decoding core-PMU strings of the corpus)"
	@$(BUILD)/tests/decode_property $(DECODE_ARGS)

# The two passes run side by side (two jobs; each pass's output printed
# whole when it ends), after what they share: the packages and the
# extracted vendor tree.
test: deps $(PMU_EVENTS_DEPS)
	$(MAKE) --no-print-directory -j2 --output-sync=recurse test-plain test-san
test-plain:
	$(MAKE) --no-print-directory check BUILD=build
test-san:
	$(MAKE) --no-print-directory check BUILD=build/san SAN=1

# ---- fuzzing: `make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS=...]` ----------------
# libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang under ASan and
# UBSan into $(BUILD)/fuzz/, each run for FUZZ_SECONDS by tests/fuzz/run.sh,
# which prints one line per target.  `make check` replays their seeds and
# regression inputs with gcc-built drivers (replay.c), plain and sanitized.
FUZZ_SECONDS ?= 60
# Debian 12's clang; libFuzzer's runtime is in libclang-rt-14-dev.
LLVM_VERSION := 14
FUZZ_CC := clang-$(LLVM_VERSION)
FUZZ_PACKAGES := clang-$(LLVM_VERSION) libclang-rt-$(LLVM_VERSION)-dev
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer -MMD -MP \
	$(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_DB_OBJ := $(DB_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/db/builtin.o
FUZZ_TABLES := tables family_check table_cpuid table_differences table_families table_match table_overrides table_vendor_pmus \
	yaml_doc model

# What each target links besides itself and fuzz.c: tests/fuzz files,
# compiler files, the runtime or not, and libraries.
fuzz_tests_catalog_bytes := browse
fuzz_tests_catalog_rows := browse
fuzz_compiler_catalog_rows := pack
fuzz_compiler_yaml := $(FUZZ_TABLES)
fuzz_compiler_vendor_json := vendor_tree model
fuzz_libs_yaml = $(YAML_LIBS)
fuzz_libs_vendor_json = $(JSON_LIBS)
fuzz_runtime = $(if $(filter vendor_json,$(1)),,yes)
# of the runtime, what a target without it calls (the one-line rule of errors)
fuzz_db_vendor_json := errors

fuzz-deps:
	$(call install_packages,$(FUZZ_PACKAGES))

# clang is installed (fuzz-deps) before anything is compiled with it.
$(FUZZ_DIR)/obj/db/%.o: db/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/db/builtin.o: db/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' -DIMAGE='"$(BUILD)/pmudb.image"' $< -o $@
$(FUZZ_DIR)/obj/compiler/%.o: compiler/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(PFM_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/tests/fuzz/%.o: tests/fuzz/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Idb -c $< -o $@

# $(call fuzz_objs,TARGET,DIR of tests/ objects,DIR of compiler objects)
fuzz_objs = $(2)/fuzz_$(1).o $(2)/fuzz.o $(fuzz_tests_$(1):%=$(2)/%.o) $(fuzz_compiler_$(1):%=$(3)/%.o)
fuzz_link_libs = $(fuzz_libs_$(1)) $(if $(call fuzz_runtime,$(1)),$(SQLITE_LIBS) $(ZSTD_LIBS)) -lpthread

define fuzz_target
$(FUZZ_DIR)/fuzz_$(1): $(call fuzz_objs,$(1),$(FUZZ_DIR)/obj/tests/fuzz,$(FUZZ_DIR)/obj/compiler) \
		$(if $(call fuzz_runtime,$(1)),$(FUZZ_DB_OBJ),$(fuzz_db_$(1):%=$(FUZZ_DIR)/obj/db/%.o))
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $$^ -o $$@ $$(call fuzz_link_libs,$(1))
$(BUILD)/tests/fuzz/replay_$(1): $(BUILD)/tests/fuzz/replay.o \
		$(call fuzz_objs,$(1),$(BUILD)/tests/fuzz,$(BUILD)/compiler) $(BUILD)/libpmudb.a
	$(CC) $(LDFLAGS) $$^ -o $$@ $$(call fuzz_link_libs,$(1)) $(SQLITE_LIBS) $(ZSTD_LIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_target,$(t))))

# The small catalog the catalog targets start from (seed_catalog.c), and
# fuzz_packed's seeds: the blobs inside it.
$(BUILD)/tests/fuzz/seed_catalog: tests/fuzz/seed_catalog.c $(BUILD)/compiler/pack.o $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Idb $< $(BUILD)/compiler/pack.o -o $@ $(LDFLAGS) $(BUILD)/libpmudb.a $(SQLITE_LIBS) $(ZSTD_LIBS) \
		-lpthread
$(BUILD)/fuzz/seed.db: $(BUILD)/tests/fuzz/seed_catalog $(BUILD)/pmudb.db
	@mkdir -p $(BUILD)/fuzz/seeds/catalog_bytes $(BUILD)/fuzz/seeds/packed
	$(BUILD)/tests/fuzz/seed_catalog $(BUILD)/pmudb.db $@ 8 $(BUILD)/fuzz/seeds/packed
	cp $@ $(BUILD)/fuzz/seeds/catalog_bytes/seed.db

fuzz-build: all fuzz-deps $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(BUILD)/fuzz/seed.db

# Each target for FUZZ_SECONDS, one after another, under nice.
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# ---- make install PREFIX=/usr/local DESTDIR= ; make uninstall ----------
# The command, the library (shared, with its soname links, and static),
# its header, the catalog file (share/pmudb/pmudb.db, which
# pmudb_open_installed() finds), pmudb.pc for pkg-config, the man pages.
# uninstall removes exactly these files (and share/pmudb when it is left
# empty), nothing else: the list is INSTALLED_FILES.
PREFIX ?= /usr/local
DESTDIR ?=
SONAME := libpmudb.so.0
INSTALLED_FILES := bin/pmudb lib/libpmudb.so.$(VERSION) lib/$(SONAME) lib/libpmudb.so lib/libpmudb.a \
	include/pmudb.h share/pmudb/pmudb.db lib/pkgconfig/pmudb.pc share/man/man1/pmudb.1 share/man/man3/libpmudb.3
$(BUILD)/pmudb.pc: docs/pmudb.pc.in db/pmudb.h FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
FORCE:

install: $(BUILD)/pmudb $(BUILD)/libpmudb.so $(BUILD)/libpmudb.a $(BUILD)/pmudb.db $(BUILD)/pmudb.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/share/pmudb $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 755 $(BUILD)/pmudb $(DESTDIR)$(PREFIX)/bin/pmudb
	install -m 755 $(BUILD)/libpmudb.so $(DESTDIR)$(PREFIX)/lib/libpmudb.so.$(VERSION)
	ln -sf libpmudb.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libpmudb.so
	install -m 644 $(BUILD)/libpmudb.a $(DESTDIR)$(PREFIX)/lib/libpmudb.a
	install -m 644 db/pmudb.h $(DESTDIR)$(PREFIX)/include/pmudb.h
	install -m 644 $(BUILD)/pmudb.db $(DESTDIR)$(PREFIX)/share/pmudb/pmudb.db
	install -m 644 $(BUILD)/pmudb.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/pmudb.pc
	install -m 644 docs/pmudb.1 $(DESTDIR)$(PREFIX)/share/man/man1/pmudb.1
	install -m 644 docs/libpmudb.3 $(DESTDIR)$(PREFIX)/share/man/man3/libpmudb.3

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED_FILES))
	rmdir $(DESTDIR)$(PREFIX)/share/pmudb 2>/dev/null || true

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# mk/static.mk - one static binary for any Linux of its architecture (make
# static [ARCH=arm64]), a tarball of it (make dist), and their sizes.

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
VERSION := $(shell sed -n 's/^\#define PMUDB_VERSION "\(.*\)"/\1/p' include/pmudb.h)
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


.PHONY: static sizes dist check-static
static: deps $(if $(CROSS_DIR),deps-cross) $(STATIC_BIN)
	@$(MAKE) --no-print-directory sizes

# The size of each binary there is, and of the catalog inside it.
sizes:
	@echo "sizes (the catalog inside: the bytes between pmudb_builtin_catalog and its end; its image: catalog/image.h):"
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
CROSS_OBJ := $(CATALOG_SRC:%.c=$(CROSS_DIR)/%.o) $(CROSS_DIR)/catalog/schema_sql.o $(RUNTIME_SRC:%.c=$(CROSS_DIR)/%.o) \
	$(CROSS_DIR)/runtime/api/builtin.o $(CLI_SRC:%.c=$(CROSS_DIR)/%.o)
$(CROSS_DIR)/catalog/%.o: catalog/%.c
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -c $< -o $@
$(CROSS_DIR)/catalog/schema_sql.o: catalog/schema_sql.S catalog/schema.sql
	@mkdir -p $(dir $@)
	$(CROSS_CC) -c $< -o $@
$(CROSS_DIR)/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -c $< -o $@
$(CROSS_DIR)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(CROSS_CC) $(CFLAGS) -c $< -o $@
$(CROSS_DIR)/runtime/api/builtin.o: runtime/api/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image
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

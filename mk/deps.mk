# mk/deps.mk - the Debian packages the build needs (mk/packages), installed
# with apt-get when make runs as root; otherwise the command to run is
# printed and make stops.

# $(call packages,GROUP...): the packages of those groups of mk/packages.
packages = $(foreach g,$(1),$(shell sed -n 's/^$(g):[[:space:]]*//p' mk/packages))

DEB_PACKAGES := $(call packages,build test) $(if $(LIBPFM),,$(call packages,libpfm))

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

.PHONY: deps deps-cross
deps:
	$(call install_packages,$(DEB_PACKAGES))

# The cross toolchain and arm64 SQLite, installed as `deps` installs the
# rest (the arm64 architecture added to dpkg first).  OPTIONAL=1 (as
# `make check` asks): a missing package is reported, not an error, and
# the arm64 tests say SKIP naming it.
deps-cross:
	@missing=$$(for p in $(call packages,cross $(if $(OPTIONAL),cross-test)); do \
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

# pkg-config is asked when a recipe runs, after `deps` has installed it.
SQLITE_LIBS = $(shell pkg-config --libs sqlite3)
ZSTD_LIBS = $(shell pkg-config --libs libzstd)
YAML_LIBS = $(shell pkg-config --libs yaml-0.1)
JSON_LIBS = $(shell pkg-config --libs jansson)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)

# libpfm: the compiler and the tests may use it; the runtime never.
ifneq ($(LIBPFM),)
PFM_CFLAGS := -I$(LIBPFM)/include
PFM_LIBS := -L$(LIBPFM)/lib -Wl,-rpath,$(LIBPFM)/lib -lpfm
PFM_ARCHIVE = $(LIBPFM)/lib/libpfm.a
PFM_SHARED = $(LIBPFM)/lib/libpfm.so
PFM_FILES = $(LIBPFM)/include/perfmon/pfmlib.h $(PFM_SHARED) $(PFM_ARCHIVE)
else
PFM_CFLAGS :=
PFM_LIBS := -lpfm
PFM_ARCHIVE = $(shell $(CC) -print-file-name=libpfm.a)
PFM_SHARED = $(shell $(CC) -print-file-name=libpfm.so)
PFM_FILES = /usr/include/perfmon/pfmlib.h $(PFM_SHARED) $(PFM_ARCHIVE)
endif
# Which libpfm this build dir was compiled against: LIBPFM and the header
# and library files (size, time).  Everything compiled or linked against
# libpfm depends on it, so `make LIBPFM=...` in a build dir made with
# another libpfm rebuilds the compiler, the catalog and the tests.
PFM_ID = $(BUILD)/libpfm.id
$(PFM_ID): FORCE | deps
	@mkdir -p $(dir $@)
	@id="LIBPFM=$(LIBPFM) $$(stat -L -c '%n %s %Y' $(PFM_FILES) 2>/dev/null | tr '\n' ' ')"; \
	if [ "$$(cat $@ 2>/dev/null)" != "$$id" ]; then echo "$$id" > $@; echo "libpfm for $(BUILD): $$id"; fi
.PHONY: FORCE
FORCE:

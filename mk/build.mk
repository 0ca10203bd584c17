# mk/build.mk - compiling and linking: the catalog layer (catalog/), which
# the compiler and the runtime both link; the compiler (compiler/,
# pmudb-build); the runtime library (runtime/, libpmudb.a and .so) with the
# built-in catalog; the command (cli/, pmudb).

# The runtime (catalog/, runtime/, cli/) is compiled with -O3 and for
# link-time optimisation: an encoding crosses a dozen small files (parse,
# rules, family encoder, perf layer, fstr), and a link that sees them all
# inlines across them.  The objects carry plain code too, so a program
# that links libpmudb.a without -flto gets the -O3 code of each file; the
# CLI, libpmudb.so, the bench and the harness link with it.  Not under the
# sanitizers.
ifeq ($(SAN),)
RUNTIME_OPT ?= -O3 -flto=auto -ffat-lto-objects
endif

CATALOG_SRC := $(wildcard catalog/*.c)
CATALOG_OBJ := $(CATALOG_SRC:%.c=$(BUILD)/%.o) $(BUILD)/catalog/schema_sql.o
RUNTIME_SRC := $(wildcard runtime/*/*.c)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
# the library: the catalog layer, the runtime and the built-in catalog
LIB_OBJ := $(CATALOG_OBJ) $(RUNTIME_OBJ) $(BUILD)/runtime/api/builtin.o
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
COMPILER_SRC := $(wildcard compiler/*.c)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/%.o)

$(BUILD)/compiler/%.o: compiler/%.c $(PFM_ID)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PFM_CFLAGS) -c $< -o $@

# The version of the libpfm linked, from its shared library's file name
# (compiler/ingest.c).
$(BUILD)/compiler/ingest.o: CFLAGS += -DLIBPFM_SHARED='"$(realpath $(PFM_SHARED))"'

$(BUILD)/catalog/%.o: catalog/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) -fPIC -c $< -o $@

$(BUILD)/catalog/schema_sql.o: catalog/schema_sql.S catalog/schema.sql
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(BUILD)/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) -fPIC -c $< -o $@

# Where the library looks for the installed catalog when it finds none
# beside itself (runtime/api/installed.c): the PREFIX it was built with.
$(BUILD)/runtime/api/installed.o: CFLAGS += -DPMUDB_PREFIX='"$(PREFIX)"'

$(BUILD)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) -c $< -o $@

$(BUILD)/runtime/api/builtin.o: runtime/api/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image
	@mkdir -p $(dir $@)
	$(CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' -DIMAGE='"$(BUILD)/pmudb.image"' $< -o $@

$(BUILD)/libpmudb.a: $(LIB_OBJ)
	rm -f $@
	gcc-ar rcs $@ $^

$(BUILD)/libpmudb.so: $(LIB_OBJ)
	$(CC) $(CFLAGS) $(RUNTIME_OPT) $(LDFLAGS) -shared -Wl,-soname,libpmudb.so.0 $^ -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread

# libpfm's static archive with its fopen() calls renamed to
# sysfs_spy_fopen() (compiler/sysfs_spy.c): what the compiler and the
# programs that ask libpfm about uncore PMUs (the harness, the bench) link.
$(BUILD)/libpfm-spied.a: $(PFM_ID)
	objcopy --redefine-sym fopen=sysfs_spy_fopen $(PFM_ARCHIVE) $@

# It links the runtime too, whose built-in catalog is made from what it
# writes: here builtin.S holds nothing (opening it fails as a damaged one
# would; pmudb-build never does).  The last step of a build encodes every
# bare string of the new catalog with it (compiler/name_encodings.c).
$(BUILD)/compiler/no_builtin.o: runtime/api/builtin.S
	@mkdir -p $(dir $@)
	: > $(BUILD)/compiler/empty
	$(CC) -c -DCATALOG='"$(BUILD)/compiler/empty"' -DIMAGE='"$(BUILD)/compiler/empty"' $< -o $@

$(BUILD)/pmudb-build: $(COMPILER_OBJ) $(BUILD)/compiler/no_builtin.o $(RUNTIME_OBJ) $(CATALOG_OBJ) $(BUILD)/libpfm-spied.a
	$(CC) $(LDFLAGS) $(COMPILER_OBJ) $(BUILD)/compiler/no_builtin.o $(RUNTIME_OBJ) $(CATALOG_OBJ) \
		$(BUILD)/libpfm-spied.a -o $@ $(SQLITE_LIBS) $(ZSTD_LIBS) $(YAML_LIBS) $(JSON_LIBS) -lpthread -lm

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

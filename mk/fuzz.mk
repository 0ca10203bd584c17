# mk/fuzz.mk - the libFuzzer targets: make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS=...]
#
# libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang under ASan and
# UBSan into $(BUILD)/fuzz/, each run for FUZZ_SECONDS by tests/fuzz/run.sh,
# which prints one line per target.  `make check` replays their seeds and
# regression inputs with gcc-built drivers (replay.c), plain and sanitized.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= event catalog_bytes catalog_rows packed cpuinfo yaml vendor_json
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/replay_%)
# Debian 12's clang; libFuzzer's runtime is in libclang-rt-14-dev.
LLVM_VERSION := 14
FUZZ_CC := clang-$(LLVM_VERSION)
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer -MMD -MP -I. -Iinclude \
	$(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LIB_OBJ := $(CATALOG_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/catalog/schema_sql.o \
	$(RUNTIME_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/runtime/api/builtin.o
FUZZ_TABLES := tables family_check table_cpuid table_differences table_families table_match table_overrides table_vendor_pmus \
	yaml_doc model

# What each target links besides itself and fuzz.c: tests/fuzz files,
# compiler files, the runtime or not, and libraries.
fuzz_tests_catalog_bytes := browse
fuzz_tests_catalog_rows := browse
fuzz_compiler_yaml := $(FUZZ_TABLES)
fuzz_compiler_vendor_json := vendor_tree model
fuzz_libs_yaml = $(YAML_LIBS)
fuzz_libs_vendor_json = $(JSON_LIBS)
fuzz_runtime = $(if $(filter vendor_json,$(1)),,yes)
# of the catalog layer, what a target without the runtime calls (the one-line rule of errors)
fuzz_catalog_vendor_json := errors

.PHONY: fuzz fuzz-deps fuzz-build
fuzz-deps:
	$(call install_packages,$(call packages,fuzz))

# clang is installed (fuzz-deps) before anything is compiled with it.
$(FUZZ_DIR)/obj/catalog/%.o: catalog/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/catalog/schema_sql.o: catalog/schema_sql.S catalog/schema.sql | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -c $< -o $@
$(FUZZ_DIR)/obj/runtime/%.o: runtime/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/runtime/api/builtin.o: runtime/api/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' -DIMAGE='"$(BUILD)/pmudb.image"' $< -o $@
$(FUZZ_DIR)/obj/compiler/%.o: compiler/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(PFM_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/tests/fuzz/%.o: tests/fuzz/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

# $(call fuzz_objs,TARGET,DIR of tests/ objects,DIR of compiler objects)
fuzz_objs = $(2)/fuzz_$(1).o $(2)/fuzz.o $(fuzz_tests_$(1):%=$(2)/%.o) $(fuzz_compiler_$(1):%=$(3)/%.o)
fuzz_link_libs = $(fuzz_libs_$(1)) $(if $(call fuzz_runtime,$(1)),$(SQLITE_LIBS) $(ZSTD_LIBS)) -lpthread

define fuzz_target
$(FUZZ_DIR)/fuzz_$(1): $(call fuzz_objs,$(1),$(FUZZ_DIR)/obj/tests/fuzz,$(FUZZ_DIR)/obj/compiler) \
		$(if $(call fuzz_runtime,$(1)),$(FUZZ_LIB_OBJ),$(fuzz_catalog_$(1):%=$(FUZZ_DIR)/obj/catalog/%.o))
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $$^ -o $$@ $$(call fuzz_link_libs,$(1))
$(BUILD)/tests/fuzz/replay_$(1): $(BUILD)/tests/fuzz/replay.o \
		$(call fuzz_objs,$(1),$(BUILD)/tests/fuzz,$(BUILD)/compiler) $(BUILD)/libpmudb.a
	$(CC) $(LDFLAGS) $$^ -o $$@ $$(call fuzz_link_libs,$(1)) $(SQLITE_LIBS) $(ZSTD_LIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_target,$(t))))

# The small catalog the catalog targets start from (seed_catalog.c), and
# fuzz_packed's seeds: the blobs inside it.
$(BUILD)/tests/fuzz/seed_catalog: tests/fuzz/seed_catalog.c $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS) $(BUILD)/libpmudb.a $(SQLITE_LIBS) $(ZSTD_LIBS) \
		-lpthread
$(BUILD)/fuzz/seed.db: $(BUILD)/tests/fuzz/seed_catalog $(BUILD)/pmudb.db
	@mkdir -p $(BUILD)/fuzz/seeds/catalog_bytes $(BUILD)/fuzz/seeds/packed
	$(BUILD)/tests/fuzz/seed_catalog $(BUILD)/pmudb.db $@ 8 $(BUILD)/fuzz/seeds/packed
	cp $@ $(BUILD)/fuzz/seeds/catalog_bytes/seed.db

fuzz-build: all fuzz-deps $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(BUILD)/fuzz/seed.db

# Each target for FUZZ_SECONDS, one after another, under nice.
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)


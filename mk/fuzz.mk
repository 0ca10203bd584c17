# mk/fuzz.mk - the libFuzzer targets: make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS=...]
#
# libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang under ASan and
# UBSan into $(BUILD)/fuzz/, each run for FUZZ_SECONDS by tests/fuzz/run.sh,
# which prints one line per target.  `make check` replays their seeds and
# regression inputs with gcc-built drivers (replay.c), plain and sanitized.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= event catalog_bytes catalog_rows catalog_blobs packed image cpuinfo yaml vendor_json
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
FUZZ_TABLES := tables family_check table_cpuid table_differences table_families table_match table_overrides table_vendor_pmus table_counters \
	table_uncore vendor_uncore vendor_events kernel_formats \
	yaml_doc model

# What each target links besides itself and fuzz.c: tests/fuzz files,
# compiler files, the runtime or not, and libraries.
fuzz_tests_catalog_bytes := browse
fuzz_tests_catalog_rows := browse
fuzz_tests_catalog_blobs := browse
fuzz_tests_packed := blobs
fuzz_tests_image := blobs
fuzz_compiler_yaml := $(FUZZ_TABLES)
fuzz_compiler_vendor_json := vendor_tree vendor_read vendor_kernel vendor_perfmon vendor_armdata vendor_newest vendor_metrics model
fuzz_libs_yaml = $(YAML_LIBS)
fuzz_libs_vendor_json = $(JSON_LIBS)
fuzz_runtime = $(if $(filter vendor_json,$(1)),,yes)
# of the catalog layer, what a target without the runtime calls (the one-line rule of errors)
fuzz_catalog_vendor_json := errors metric_expr

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
# the seeds of fuzz_packed and fuzz_catalog_blobs (the blobs inside it) and
# of fuzz_image (its image).
$(BUILD)/tests/fuzz/seed_catalog: tests/fuzz/seed_catalog.c $(BUILD)/libpmudb.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS) $(BUILD)/libpmudb.a $(SQLITE_LIBS) $(ZSTD_LIBS) \
		-lpthread
$(BUILD)/fuzz/seed.db: $(BUILD)/tests/fuzz/seed_catalog $(BUILD)/pmudb.db $(BUILD)/pmudb-build
	@mkdir -p $(BUILD)/fuzz/seeds/catalog_bytes $(BUILD)/fuzz/seeds/packed $(BUILD)/fuzz/seeds/image
	$(BUILD)/tests/fuzz/seed_catalog $(BUILD)/pmudb.db $@ 8 $(BUILD)/fuzz/seeds/packed $(BUILD)/fuzz/seeds/catalog_blobs
	cp $@ $(BUILD)/fuzz/seeds/catalog_bytes/seed.db
	$(BUILD)/pmudb-build --image-of $@ --out $(BUILD)/fuzz/seeds/image/seed.image

fuzz-build: all fuzz-deps $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(BUILD)/fuzz/seed.db

# Each target for FUZZ_SECONDS, one after another, under nice; then the
# reader's coverage by what they found.
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS); status=$$?; \
		$(MAKE) --no-print-directory fuzz-coverage || exit 1; exit $$status


# The reader's coverage by the targets' corpora: the targets that reach it,
# built with gcc --coverage (replay.c drivers, as `make check` replays),
# replay their corpus, seeds and regression inputs, and gcov prints the
# share of lines run of catalog/unpack.c, catalog/image.c and
# runtime/decode/decode.c.  `make fuzz` ends with it.
COV_DIR := $(BUILD)/cov
COV_CFLAGS := $(filter-out -O2,$(PLAIN_CFLAGS)) -O0 --coverage
COV_TARGETS := event catalog_bytes catalog_rows catalog_blobs packed image
COV_FILES := catalog/unpack.c catalog/image.c runtime/decode/decode.c
COV_LIB_OBJ := $(CATALOG_SRC:%.c=$(COV_DIR)/%.o) $(COV_DIR)/catalog/schema_sql.o \
	$(RUNTIME_SRC:%.c=$(COV_DIR)/%.o) $(COV_DIR)/runtime/api/builtin.o

$(COV_DIR)/catalog/%.o: catalog/%.c
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) -c $< -o $@
$(COV_DIR)/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) -c $< -o $@
$(COV_DIR)/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) -c $< -o $@
$(COV_DIR)/catalog/schema_sql.o: catalog/schema_sql.S catalog/schema.sql
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@
$(COV_DIR)/runtime/api/builtin.o: runtime/api/builtin.S $(BUILD)/pmudb.db $(BUILD)/pmudb.image
	@mkdir -p $(dir $@)
	$(CC) -c -DCATALOG='"$(BUILD)/pmudb.db"' -DIMAGE='"$(BUILD)/pmudb.image"' $< -o $@

define cov_target
$(COV_DIR)/replay_$(1): $(COV_DIR)/tests/fuzz/replay.o $(call fuzz_objs,$(1),$(COV_DIR)/tests/fuzz,) $(COV_LIB_OBJ)
	$(CC) --coverage $$^ -o $$@ $(SQLITE_LIBS) $(ZSTD_LIBS) -lpthread
endef
$(foreach t,$(COV_TARGETS),$(eval $(call cov_target,$(t))))

.PHONY: fuzz-coverage
cov_replay = PMUDB_FUZZ_SEED=$(BUILD)/fuzz/seed.db $(COV_DIR)/replay_$(1) tests/fuzz/seeds/$(1) tests/fuzz/regressions/$(1) \
	$$(ls -d $(BUILD)/fuzz/seeds/$(1) $(FUZZ_DIR)/corpus/$(1) 2>/dev/null) >/dev/null
cov_lines = for f in $(COV_FILES); do \
		gcov -n -o $(COV_DIR)/$$(dirname $$f) $$f 2>/dev/null | awk -v f=$$f \
			'/^File/ { keep = index($$0, f) > 0 } keep && /^Lines executed/ { sub("Lines executed:", ""); \
			printf " %s %s", substr(f, match(f, /[a-z_]+\.c$$/)), $$0; keep = 0 }'; \
	done; echo
fuzz-coverage: $(COV_TARGETS:%=$(COV_DIR)/replay_%) $(BUILD)/fuzz/seed.db
	@echo "== lines of the reader run by each target's corpus, seeds and regression inputs"
	@for t in $(COV_TARGETS); do \
		find $(COV_DIR) -name '*.gcda' -delete; \
		$(call cov_replay,$$t) || exit 1; \
		printf '   %-14s' $$t; $(cov_lines); \
	done
	@find $(COV_DIR) -name '*.gcda' -delete
	@for t in $(COV_TARGETS); do $(call cov_replay,$$t) || exit 1; done
	@printf '   %-14s' all; $(cov_lines)

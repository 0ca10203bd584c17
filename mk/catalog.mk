# mk/catalog.mk - the catalog: the vendors' tree (Debian's, extracted once,
# or PMU_EVENTS), build/pmudb.db, and the image of its blobs that the
# library links beside it.

KERNEL_SOURCE := /usr/src/linux-source-6.12.tar.xz
PMU_EVENTS_CACHE := build/pmu-events

# The vendor tree: Debian's, extracted once (about 10 s), or PMU_EVENTS.
ifeq ($(PMU_EVENTS),)
PMU_EVENTS_DIR := $(PMU_EVENTS_CACHE)/arch
# what --version says the tree is (tests rebuild with the same words)
PMU_EVENTS_ORIGIN_TEXT := Debian linux-source-6.12 $(shell dpkg-query -W -f='$${Version}' linux-source-6.12 2>/dev/null), tools/perf/pmu-events/arch
PMU_EVENTS_ORIGIN := --pmu-events-origin '$(PMU_EVENTS_ORIGIN_TEXT)'
PMU_EVENTS_DEPS := $(PMU_EVENTS_CACHE)/.extracted
$(PMU_EVENTS_CACHE)/.extracted: $(KERNEL_SOURCE) | deps
	rm -rf $(PMU_EVENTS_CACHE) && mkdir -p $(PMU_EVENTS_CACHE)
	tar -xJf $(KERNEL_SOURCE) -C $(PMU_EVENTS_CACHE) --strip-components=4 \
		linux-source-6.12/tools/perf/pmu-events
	touch $@
$(KERNEL_SOURCE): | deps
else
PMU_EVENTS_DIR := $(firstword $(PMU_EVENTS))
PMU_EVENTS_MORE := $(wordlist 2,$(words $(PMU_EVENTS)),$(PMU_EVENTS))
PMU_EVENTS_DEPS := $(shell find $(PMU_EVENTS) -name '*.json' -o -name '*.csv' 2>/dev/null)
endif
# PMU_EVENTS_EXTRA: more sources after those (a checkout of intel/perfmon,
# of ARM-software/data, a newer kernel's tree); the newest list of each
# µarch is encoded (docs/vendors.md).
PMU_EVENTS_MORE += $(PMU_EVENTS_EXTRA)
PMU_EVENTS_DEPS += $(if $(PMU_EVENTS_EXTRA),$(shell find $(PMU_EVENTS_EXTRA) -name '*.json' -o -name '*.csv' 2>/dev/null))
PMU_EVENTS_ARGS := --pmu-events $(PMU_EVENTS_DIR) $(PMU_EVENTS_ORIGIN) $(foreach d,$(PMU_EVENTS_MORE),--pmu-events $(d))

# The uncore drivers of Debian's kernel source (x86's and drivers/perf, the
# system PMUs of Arm SoCs), whose format attributes
# encode the vendors' uncore entries (tables/uncore.yaml): extracted once
# too, or KERNEL_SOURCE_DIR, a Linux tree of the user's.
KERNEL_SOURCE_CACHE := build/kernel-source
ifeq ($(KERNEL_SOURCE_DIR),)
KERNEL_SOURCE_DIR := $(KERNEL_SOURCE_CACHE)
KERNEL_SOURCE_DEPS := $(KERNEL_SOURCE_CACHE)/.extracted
# (this file is a prerequisite: a new folder here extracts again)
$(KERNEL_SOURCE_CACHE)/.extracted: $(KERNEL_SOURCE) mk/catalog.mk | deps
	rm -rf $(KERNEL_SOURCE_CACHE) && mkdir -p $(KERNEL_SOURCE_CACHE)
	tar -xJf $(KERNEL_SOURCE) -C $(KERNEL_SOURCE_CACHE) --strip-components=1 \
		linux-source-6.12/arch/x86/events/intel linux-source-6.12/arch/x86/events/amd \
		linux-source-6.12/drivers/perf
	touch $@
endif

# Not deleted on error: a failed build keeps the previous catalog.
$(BUILD)/pmudb.db: $(BUILD)/pmudb-build $(wildcard tables/*.yaml) $(PMU_EVENTS_DEPS) $(KERNEL_SOURCE_DEPS)
	$(BUILD)/pmudb-build --tables tables $(PMU_EVENTS_ARGS) --kernel-source $(KERNEL_SOURCE_DIR) --out $@

# The built-in catalog's blobs, unpacked, which the library reads in place
# (catalog/image.h): a one-event process opens no SQLite.
$(BUILD)/pmudb.image: $(BUILD)/pmudb.db $(BUILD)/pmudb-build
	$(BUILD)/pmudb-build --image-of $< --out $@

/*
 * vendor_json.h - the tests' own reading of the vendors' JSON (jansson):
 * the config an entry's fields state, computed without pmudb's compiler.
 */
#ifndef PMUDB_TESTS_VENDOR_JSON_H
#define PMUDB_TESTS_VENDOR_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* A field as the vendors write numbers ("0x2A,0x2B" is its first); 0 absent. */
uint64_t vendor_field(json_t *e, const char *key);

/* The config and config1 entry E states on a PMU of FAMILY (intel_x86:
 * event, umask, edge, any, inv, cmask, and the offcore, load-latency or
 * frontend MSR value in config1; amd64: the split event select; else the
 * event number). */
void vendor_expected_config(const char *family, json_t *e, uint64_t *config, uint64_t *config1);

/* A field of counters (KEY: Counter, CounterHTOff, PEBScounters): "0,1,2,3"
 * as general counters (bit n: counter n), "Fixed counter N" as fixed
 * counter N; 0 and 0 when absent. */
void vendor_counters(json_t *e, const char *key, uint64_t *general, uint64_t *fixed);

/* perf's replacement of event NAME (jevents.py's real_event: INST_RETIRED.ANY
 * is event 0xc0 ...) in *CONFIG, where perf has one. */
bool vendor_perf_form(const char *name, uint64_t *config);

/* The list of a JSON file (a perfmon file's "Events"); fails the test on a
 * parse error.  vendor_load_dir: every list of a folder, as one array. */
json_t *vendor_load_json(const char *path);
json_t *vendor_load_dir(const char *dir);

/* arm64's standard event NAME in STD (from vendor_load_dir), or NULL. */
json_t *vendor_std_event(json_t *std, const char *name);

#endif

-- schema.sql - the pmudb catalog, version 12.  docs/schema.md explains every
-- table; the columns of event, umask and modifier are declared in
-- catalog/field_lists.h, and catalog/schema.c writes their CREATE TABLE where a
-- "@fields" line stands, each column with its meaning.  Integers are
-- SQLite's 64-bit signed integers: codes and masks that use bit 63 read
-- back negative and are meant as unsigned.

PRAGMA user_version = 12;

CREATE TABLE meta (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

-- Descriptions, stored once however many events and unit masks share them.
CREATE TABLE text (
	id INTEGER PRIMARY KEY,
	value TEXT NOT NULL
);

CREATE TABLE pfm_error (
	code INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	message TEXT NOT NULL
);

-- PACKED and PACKED_ALIASES: the table's rows as the runtime reads them
-- (the packed form, docs/schema.md), its events and its aliases; written
-- from the rows at the end of a build.
CREATE TABLE event_table (
	id INTEGER PRIMARY KEY,
	pmu_count INTEGER NOT NULL,
	packed BLOB,
	packed_aliases BLOB
);

-- The PMUs as the runtime looks them up by name: one blob, one row.
CREATE TABLE pmu_directory (
	packed BLOB NOT NULL
);

CREATE TABLE pmu (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE,
	description TEXT NOT NULL,
	libpfm_id INTEGER NOT NULL,
	kind TEXT NOT NULL CHECK (kind IN ('core', 'uncore', 'os', 'unknown')),
	family TEXT NOT NULL,
	family_group TEXT NOT NULL,
	num_counters INTEGER NOT NULL,
	num_fixed_counters INTEGER NOT NULL,
	max_encoding INTEGER NOT NULL,
	supported_plm INTEGER NOT NULL,
	perf_type INTEGER NOT NULL,
	event_table_id INTEGER NOT NULL REFERENCES event_table(id),
	source TEXT,			-- NULL: libpfm's; 'pmu-events:ARCH/UARCH[@UNIT]': made from a vendor list
	like_pmu TEXT,			-- the libpfm PMU whose rules a vendor PMU takes
	config_cleared INTEGER NOT NULL,	-- config bits libpfm's perf encoding clears (derived)
	-- a vendor uncore PMU's: how the kernel numbers its boxes; a system
	-- PMU's (Arm CMN, i.MX DDR): the pattern its device's sysfs identifier
	-- matches whole (the vendor's Compat); NULL for the others
	box_numbering TEXT CHECK (box_numbering IN ('discovery', 'driver')),
	device_identifier TEXT
);

CREATE TABLE pmu_sysfs (
	pmu_id INTEGER NOT NULL REFERENCES pmu(id),
	position INTEGER NOT NULL,
	name TEXT NOT NULL,
	PRIMARY KEY (pmu_id, position)
) WITHOUT ROWID;

-- The vendors' metrics (MetricName ... of their lists), as written; EXPR
-- reads as perf's metric expressions read (catalog/metric_expr.h).  PMU:
-- the catalog PMU it is for (its µarch's core PMU, a hybrid's of its core
-- type, a system PMU's of its Unit), NULL where none was made; UARCH:
-- ARCH/UARCH of the tree; EXPR, GROUPS (';'-joined), THRESHOLD,
-- SCALE_UNIT, CONSTRAINT_, DEFAULT_GROUP: MetricExpr, MetricGroup,
-- MetricThreshold, ScaleUnit, MetricConstraint, DefaultMetricgroupName;
-- SOURCE: its JSON file in the tree; MISSING: NULL, or what it names that
-- the µarch's lists lack.  (The column notes are here, not inside the
-- CREATE, which SQLite keeps whole in every catalog.)
CREATE TABLE metric (
	id INTEGER PRIMARY KEY,
	pmu TEXT,
	uarch TEXT NOT NULL,
	name TEXT NOT NULL COLLATE NOCASE,
	description TEXT NOT NULL,
	expr TEXT NOT NULL,
	groups TEXT,
	threshold TEXT,
	scale_unit TEXT,
	constraint_ TEXT,
	default_group TEXT,
	source TEXT NOT NULL,
	missing TEXT
);


CREATE TABLE modifier_set (
	id INTEGER PRIMARY KEY
);

-- @fields modifier: catalog/field_lists.h declares its columns

CREATE TABLE modifier_landing (
	set_id INTEGER NOT NULL,
	position INTEGER NOT NULL,
	field TEXT NOT NULL,
	mask INTEGER NOT NULL,
	PRIMARY KEY (set_id, position, field),
	FOREIGN KEY (set_id, position) REFERENCES modifier(set_id, position)
) WITHOUT ROWID;

-- Register bits a modifier sets whenever it is given, whatever its value.
CREATE TABLE modifier_presence (
	set_id INTEGER NOT NULL,
	position INTEGER NOT NULL,
	field TEXT NOT NULL,
	bits INTEGER NOT NULL,
	PRIMARY KEY (set_id, position, field),
	FOREIGN KEY (set_id, position) REFERENCES modifier(set_id, position)
) WITHOUT ROWID;

-- Register bits a modifier sets whenever its value is not 0, beyond the
-- value itself (NetBurst's CCCR compare bit).
CREATE TABLE modifier_nonzero (
	set_id INTEGER NOT NULL,
	position INTEGER NOT NULL,
	field TEXT NOT NULL,
	bits INTEGER NOT NULL,
	PRIMARY KEY (set_id, position, field),
	FOREIGN KEY (set_id, position) REFERENCES modifier(set_id, position)
) WITHOUT ROWID;

-- @fields event: catalog/field_lists.h declares its columns

-- perf modifiers libpfm refuses at a non-zero value when a final unit mask
-- takes no modifiers (umask.takes_no_modifiers), and its error.
CREATE TABLE event_no_modifier (
	event_id INTEGER NOT NULL REFERENCES event(id),
	modifier_position INTEGER NOT NULL,
	error INTEGER NOT NULL REFERENCES pfm_error(code),
	PRIMARY KEY (event_id, modifier_position)
) WITHOUT ROWID;

-- PMU modifiers libpfm leaves out of this event's fstr unless given;
-- given_error: its error when given without a unit mask that needs it.
CREATE TABLE event_hidden_modifier (
	event_id INTEGER NOT NULL REFERENCES event(id),
	modifier_position INTEGER NOT NULL,
	given_error INTEGER NOT NULL REFERENCES pfm_error(code),
	PRIMARY KEY (event_id, modifier_position)
) WITHOUT ROWID;

-- Unit masks that need (and so unlock) a hidden modifier.
CREATE TABLE umask_unlock (
	event_id INTEGER NOT NULL,
	umask_position INTEGER NOT NULL,
	modifier_position INTEGER NOT NULL,
	PRIMARY KEY (event_id, umask_position, modifier_position),
	FOREIGN KEY (event_id, umask_position) REFERENCES umask(event_id, position)
) WITHOUT ROWID;

-- Other names of events: NAME stands for the event with ATTRS (unit masks,
-- ':'-separated) given, or for the bare event when ATTRS is NULL.
CREATE TABLE event_alias (
	table_id INTEGER NOT NULL REFERENCES event_table(id),
	name TEXT NOT NULL COLLATE NOCASE,
	event_id INTEGER NOT NULL REFERENCES event(id),
	attrs TEXT,
	PRIMARY KEY (table_id, name)
) WITHOUT ROWID;

-- @fields umask: catalog/field_lists.h declares its columns

CREATE TABLE event_default (
	event_id INTEGER NOT NULL REFERENCES event(id),
	umask_position INTEGER NOT NULL,
	PRIMARY KEY (event_id, umask_position)
) WITHOUT ROWID;

CREATE TABLE umask_default (
	event_id INTEGER NOT NULL,
	umask_position INTEGER NOT NULL,
	added_position INTEGER NOT NULL,
	PRIMARY KEY (event_id, umask_position, added_position),
	FOREIGN KEY (event_id, umask_position) REFERENCES umask(event_id, position)
) WITHOUT ROWID;

-- Pairs whose defaults are not those both unit masks get alone: what
-- libpfm adds to the pair (added_position -1: nothing).
CREATE TABLE pair_default (
	event_id INTEGER NOT NULL REFERENCES event(id),
	umask_a INTEGER NOT NULL,
	umask_b INTEGER NOT NULL,
	added_position INTEGER NOT NULL,
	PRIMARY KEY (event_id, umask_a, umask_b, added_position)
) WITHOUT ROWID;

CREATE TABLE group_rule (
	event_id INTEGER NOT NULL REFERENCES event(id),
	group_a INTEGER NOT NULL,
	group_b INTEGER NOT NULL,
	error INTEGER NOT NULL REFERENCES pfm_error(code),
	-- 1: libpfm refuses the pair once all attributes are read (after a
	-- modifier's range), not while reading them
	after_reading INTEGER NOT NULL CHECK (after_reading IN (0, 1)),
	-- 1: a third unit mask lifts that refusal (the runtime takes one that
	-- goes with both)
	third_lifts INTEGER NOT NULL CHECK (third_lifts IN (0, 1)),
	-- the modifier (its position) whose presence lifts the refusal, or NULL
	lifted_by INTEGER,
	PRIMARY KEY (event_id, group_a, group_b)
) WITHOUT ROWID;

CREATE TABLE umask_implied (
	event_id INTEGER NOT NULL,
	umask_position INTEGER NOT NULL,
	modifier_position INTEGER NOT NULL,
	value INTEGER NOT NULL,
	hardwired INTEGER NOT NULL,
	PRIMARY KEY (event_id, umask_position, modifier_position),
	FOREIGN KEY (event_id, umask_position) REFERENCES umask(event_id, position)
) WITHOUT ROWID;

CREATE TABLE cpuid_map (
	id INTEGER PRIMARY KEY,
	vendor TEXT NOT NULL,
	family INTEGER NOT NULL,
	model_lo INTEGER NOT NULL,
	model_hi INTEGER NOT NULL,
	stepping_lo INTEGER NOT NULL,
	stepping_hi INTEGER NOT NULL,
	why TEXT NOT NULL,
	source TEXT NOT NULL
);

CREATE TABLE cpuid_map_pmu (
	map_id INTEGER NOT NULL REFERENCES cpuid_map(id),
	position INTEGER NOT NULL,
	pmu_name TEXT NOT NULL COLLATE NOCASE,
	PRIMARY KEY (map_id, position)
) WITHOUT ROWID;

-- What reconciling libpfm's PMUs with the vendors' lists found: every
-- difference and vendor-only entry (agreements, other names, which are
-- aliases, and libpfm-only strings are counted in reconcile_summary).
CREATE TABLE finding (
	id INTEGER PRIMARY KEY,
	pmu TEXT NOT NULL COLLATE NOCASE,
	uarch TEXT NOT NULL,
	match TEXT NOT NULL CHECK (match IN ('differ', 'vendor_only')),
	libpfm_name TEXT,		-- EVENT[:UMASK...]; NULL when vendor-only
	vendor_name TEXT NOT NULL,
	vendor_file TEXT NOT NULL,
	libpfm_config INTEGER,
	libpfm_config1 INTEGER,
	vendor_config INTEGER NOT NULL,
	vendor_config1 INTEGER NOT NULL,
	explained TEXT CHECK (explained IN ('corrected', 'equivalent', 'by_design', 'vendor_error', 'kept')),
	why TEXT,
	added INTEGER NOT NULL
);

CREATE TABLE reconcile_summary (
	pmu TEXT NOT NULL COLLATE NOCASE,
	uarch TEXT NOT NULL,
	agree INTEGER NOT NULL,
	differ INTEGER NOT NULL,
	corrected INTEGER NOT NULL,
	equivalent INTEGER NOT NULL,
	by_design INTEGER NOT NULL,
	vendor_error INTEGER NOT NULL,
	unexplained INTEGER NOT NULL,
	other_name INTEGER NOT NULL,
	vendor_only INTEGER NOT NULL,
	added INTEGER NOT NULL,
	libpfm_only INTEGER NOT NULL,
	kept INTEGER NOT NULL,
	PRIMARY KEY (pmu, uarch)
) WITHOUT ROWID;

CREATE TABLE override_log (
	id INTEGER PRIMARY KEY,
	source TEXT NOT NULL,
	action TEXT NOT NULL,
	target TEXT NOT NULL,
	why TEXT NOT NULL
);

-- Every live event of every PMU.
CREATE VIEW pmu_event AS
	SELECT p.name AS pmu, e.name AS event, e.code AS code, t.value AS description,
	       e.equiv AS equiv, e.is_precise AS is_precise, e.position AS position,
	       e.id AS event_id, p.id AS pmu_id
	FROM pmu p JOIN event e ON e.table_id = p.event_table_id JOIN text t ON t.id = e.description_id
	WHERE e.retired = 0;

-- Every live unit mask of every event of every PMU.
CREATE VIEW pmu_event_umask AS
	SELECT pe.pmu AS pmu, pe.event AS event, u.name AS umask, u.code AS code,
	       u.is_default AS is_default, t.value AS description, u.position AS position,
	       pe.event_id AS event_id
	FROM pmu_event pe JOIN umask u ON u.event_id = pe.event_id JOIN text t ON t.id = u.description_id
	WHERE u.retired = 0;

-- NAME_ENCODING and NAME_ENCODING_PMU: the runtime's answer, as `pmudb encode` gives
-- it, for the bare string of each live event (PMU::EVENT), unit mask
-- (PMU::EVENT:UMASK) and other name of an event (PMU::ALIAS, event_alias):
-- pmudb-build encodes each once the rest of the catalog is written.  Read
-- them through the `encoding` view.  As on a machine whose sysfs lists no
-- PMU, so that a catalog does not depend on the machine that built it.
--
-- NAME_ENCODING holds the answers of an event table, which every PMU
-- sharing it gives alike: UMASK_POSITION -1 for the event alone, ALIAS ''
-- but for an alias.  ERROR is 0 or the refusal (pfm_error), and then the
-- rest is NULL.  TYPE is NULL but on a PMU whose encodings differ in type
-- (perf's generic PMU); PERF is perf's syntax (`perf stat -e`) after
-- NAME_ENCODING_PMU.PERF_PMU and its '/', the whole of it where PERF_PMU is NULL,
-- and NULL where perf has no syntax for it.
CREATE TABLE name_encoding (
	event_id INTEGER NOT NULL REFERENCES event(id),
	umask_position INTEGER NOT NULL,
	alias TEXT NOT NULL,
	error INTEGER NOT NULL REFERENCES pfm_error(code),
	type INTEGER,
	config INTEGER,
	config1 INTEGER,
	config2 INTEGER,
	perf TEXT,
	PRIMARY KEY (event_id, umask_position, alias)
) WITHOUT ROWID;

-- NAME_ENCODING_PMU: what each PMU's encodings share.  TYPE is perf_event_attr.type,
-- NULL where it is the number the kernel gives KERNEL_PMU at run time (an
-- uncore box, a hybrid's core type) or where it differs by event; PERF_PMU
-- the PMU perf's syntax names ("cpu", "uncore_cha_0"), NULL where that
-- differs by event.
CREATE TABLE name_encoding_pmu (
	pmu_id INTEGER PRIMARY KEY REFERENCES pmu(id),
	type INTEGER,
	kernel_pmu TEXT,
	perf_pmu TEXT
);

-- Each bare string of each PMU with its encoding: STRING as `pmudb encode`
-- takes it; ERROR 'PFM_SUCCESS' or how it is refused; TYPE NULL where it
-- is KERNEL_PMU's number at run time; PERF perf's syntax, NULL where perf
-- has none.
CREATE VIEW encoding AS
	SELECT p.name || '::' || coalesce(nullif(b.alias, ''), e.name) || coalesce(':' || u.name, '') AS string,
	       p.name AS pmu, coalesce(nullif(b.alias, ''), e.name) AS event, u.name AS umask, f.name AS error,
	       CASE WHEN b.error = 0 THEN coalesce(b.type, bp.type) END AS type,
	       CASE WHEN b.error = 0 THEN bp.kernel_pmu END AS kernel_pmu,
	       b.config AS config, b.config1 AS config1, b.config2 AS config2,
	       CASE WHEN bp.perf_pmu IS NULL THEN b.perf ELSE bp.perf_pmu || '/' || b.perf END AS perf,
	       p.id AS pmu_id, e.id AS event_id, nullif(b.umask_position, -1) AS umask_position
	FROM pmu p JOIN name_encoding_pmu bp ON bp.pmu_id = p.id JOIN event e ON e.table_id = p.event_table_id
	     JOIN name_encoding b ON b.event_id = e.id JOIN pfm_error f ON f.code = b.error
	     LEFT JOIN umask u ON u.event_id = b.event_id AND u.position = b.umask_position;

-- Names and descriptions to search, events and unit masks alike.
CREATE VIEW search AS
	SELECT pmu, event, NULL AS umask, event AS name, description FROM pmu_event
	UNION ALL
	SELECT pmu, event, umask, umask AS name, description FROM pmu_event_umask;

-- @vendor-lists: the tables below are in a catalog built with vendor lists
-- (pmudb-build --pmu-events) only.
--
-- VENDOR_LIST: every vendor list read, one row per µarch and source.
-- UARCH: ARCH/UARCH; SOURCE: the --pmu-events it is from, as its origin
-- names it; LAYOUT: 'kernel' (perf's tree), 'perfmon' (Intel's) or
-- 'arm-data' (ARM-software/data); FILE: the file that states its VERSION
-- and DATE (each NULL where it states none); EVENTS, UNCORE, METRICS: what
-- it lists; SUPERSEDED_BY: NULL for the list encoded, else the row of the
-- newer list that is; KEPT: of a superseded list, the parts still encoded
-- from it because the newer one has none ('uncore', 'metrics').
CREATE TABLE vendor_list (
	id INTEGER PRIMARY KEY,
	uarch TEXT NOT NULL COLLATE NOCASE,
	source TEXT NOT NULL,
	layout TEXT NOT NULL CHECK (layout IN ('kernel', 'perfmon', 'arm-data')),
	file TEXT,
	version TEXT,
	date TEXT,
	events INTEGER NOT NULL,
	uncore INTEGER NOT NULL,
	metrics INTEGER NOT NULL,
	superseded_by INTEGER REFERENCES vendor_list(id),
	kept TEXT
);

-- LIST_CHANGE: what the encoded list of a µarch changed of a superseded
-- one (LIST_ID): EVENT as the lists name it (CORE_TYPE/NAME on a hybrid),
-- WAS and NOW the fields that encode it (NULL where it is not listed).
CREATE TABLE list_change (
	list_id INTEGER NOT NULL REFERENCES vendor_list(id),
	event TEXT NOT NULL,
	change TEXT NOT NULL CHECK (change IN ('added', 'removed', 'changed')),
	was TEXT,
	now TEXT
);

-- COUNTER_COUNT: a PMU's counters where a vendor list or tables/counters.yaml
-- states them: GENERIC general ones (GENERIC_SMT_OFF with SMT off, NULL
-- where no list says), FIXED fixed ones; SOURCE the file and line (a
-- counter.json's Unit, the table's row) or how they were found.  A PMU
-- without a row has pmu.num_counters and num_fixed_counters (libpfm's).
CREATE TABLE counter_count (
	pmu TEXT PRIMARY KEY COLLATE NOCASE,
	generic INTEGER NOT NULL CHECK (generic BETWEEN 0 AND 64),
	generic_smt_off INTEGER CHECK (generic_smt_off BETWEEN 0 AND 64),
	fixed INTEGER NOT NULL CHECK (fixed BETWEEN 0 AND 32),
	source TEXT NOT NULL
) WITHOUT ROWID;

-- COUNTER_RULE: where an encoding of PMU may be counted, where that is not
-- "any general counter": the encodings whose config under MASK is CONFIG.
-- COUNTERS, COUNTERS_SMT_OFF, PEBS_COUNTERS: bit n for general counter n
-- (0: not stated; PEBS_COUNTERS bit 32+n: fixed counter n); FIXED_COUNTERS:
-- bit n for fixed counter n; TAKEN_ALONE: counted with no other event on
-- the general counters; FREE_RUNNING: a free-running counter counts it.
-- EVENT: the vendor's names of the encoding, or the kernel's rule; SOURCE:
-- the entry's FILE:LINE, or the tables/counters.yaml row and its why.
CREATE TABLE counter_rule (
	pmu TEXT NOT NULL COLLATE NOCASE,
	config INTEGER NOT NULL,
	mask INTEGER NOT NULL,
	counters INTEGER NOT NULL,
	counters_smt_off INTEGER NOT NULL,
	pebs_counters INTEGER NOT NULL,
	fixed_counters INTEGER NOT NULL,
	taken_alone INTEGER NOT NULL CHECK (taken_alone IN (0, 1)),
	free_running INTEGER NOT NULL CHECK (free_running IN (0, 1)),
	event TEXT NOT NULL,
	source TEXT NOT NULL,
	PRIMARY KEY (pmu, config, mask)
) WITHOUT ROWID;

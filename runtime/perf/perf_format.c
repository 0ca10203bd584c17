/*
 * perf_format.c - the field layout of a kernel PMU, as perf reads it from
 * /sys/bus/event_source/devices/NAME/format/ ("event" holds
 * "config:0-7"), for reading perf's PMU syntax (cpu/event=0xc0,inv/) and
 * naming the bits of a raw config (pmudb_perf_format).
 *
 * The layout is read from this machine's sysfs when it has the PMU; for
 * PMUs it does not have, a table of the standard kernel PMUs stands in.
 * The table is data copied from the kernel's own format attributes
 * (linux-source-6.12):
 *   cpu (Intel), cpu_core, cpu_atom  arch/x86/events/intel/core.c
 *   cpu (AMD)                        arch/x86/events/amd/core.c
 *   armv8_ / armv9_ (Arm PMUv3)       drivers/perf/arm_pmuv3.c
 *   uncore_* (Intel)                  arch/x86/events/intel/uncore_snbep.c and
 *                                     uncore_snb.c: the fields every generation
 *                                     shares (filters go in config1= raw)
 *   amd_l3, amd_df, amd_nb, amd_umc_  arch/x86/events/amd/uncore.c (Zen 4)
 *   power (RAPL)                      arch/x86/events/rapl.c
 *   arm_cmn, imx8_ddr, imx9_ddr,      drivers/perf: arm-cmn.c (but wp_combine, on
 *   ali_drw, hisi_scclN_ddrcM ...     occupid's bits), fsl_imx8_ddr_perf.c,
 *                                     fsl_imx9_ddr_perf.c, alibaba_uncore_drw_pmu.c,
 *                                     hisilicon/ (version 2's event, the wider)
 * Sysfs text is untrusted: each file is bounded, and a malformed one is
 * refused naming the file, never guessed at.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/errors.h"
#include "runtime/sysfs/sysfs.h"

struct format_row {
	const char *pmu;	/* fnmatch pattern of kernel PMU names */
	const char *family;	/* the catalog family it is for, or NULL: any */
	const char *terms;	/* "name=config:0-7;name=..." */
};

static const struct format_row table[] = {
	{ "cpu", "amd64",
	  "event=config:0-7,32-35;umask=config:8-15;edge=config:18;inv=config:23;cmask=config:24-31" },
	{ "cpu", NULL,
	  "event=config:0-7;umask=config:8-15;edge=config:18;pc=config:19;any=config:21;inv=config:23;"
	  "cmask=config:24-31;in_tx=config:32;in_tx_cp=config:33;offcore_rsp=config1:0-63;ldlat=config1:0-15;"
	  "frontend=config1:0-23" },
	{ "cpu_core", NULL,
	  "event=config:0-7;umask=config:8-15;edge=config:18;pc=config:19;any=config:21;inv=config:23;"
	  "cmask=config:24-31;in_tx=config:32;in_tx_cp=config:33;offcore_rsp=config1:0-63;ldlat=config1:0-15;"
	  "frontend=config1:0-23" },
	{ "cpu_atom", NULL,
	  "event=config:0-7;umask=config:8-15;edge=config:18;pc=config:19;inv=config:23;cmask=config:24-31;"
	  "offcore_rsp=config1:0-63;ldlat=config1:0-15;snoop_rsp=config1:0-63" },
	/* the low-power E-cores of a three-type hybrid (Arrow Lake-H): newer
	 * kernels than 6.12 name them apart, with the E-cores' formats */
	{ "cpu_lowpower", NULL,
	  "event=config:0-7;umask=config:8-15;edge=config:18;pc=config:19;inv=config:23;cmask=config:24-31;"
	  "offcore_rsp=config1:0-63;ldlat=config1:0-15;snoop_rsp=config1:0-63" },
	{ "armv[89]_*", NULL, "event=config:0-15;long=config1:0;rdpmc=config1:1" },
	{ "uncore_*", NULL, "event=config:0-7;umask=config:8-15;edge=config:18;tid_en=config:19;inv=config:23;thresh=config:24-31" },
	{ "uncore", NULL, "event=config:0-7;umask=config:8-15;edge=config:18;inv=config:23;cmask=config:24-28" },
	{ "amd_l3", NULL,
	  "event=config:0-7;umask=config:8-15;coreid=config:42-44;enallslices=config:46;enallcores=config:47;"
	  "sliceid=config:48-50;threadmask=config:56-57" },
	{ "amd_df", NULL, "event=config:0-7,32-37;umask=config:8-15,24-27" },
	{ "amd_nb", NULL, "event=config:0-7,32-35;umask=config:8-15" },
	{ "amd_umc*", NULL, "event=config:0-7;rdwrmask=config:8-9" },
	{ "power", NULL, "event=config:0-7" },
	{ "arm_cmn*", NULL,
	  "type=config:0-15;eventid=config:16-26;occupid=config:27-30;bynodeid=config:31;nodeid=config:32-47;"
	  "wp_dev_sel=config:48-50;wp_chn_sel=config:51-55;wp_grp=config:56-57;wp_exclusive=config:58;"
	  "wp_val=config1:0-63;wp_mask=config2:0-63" },
	{ "imx8_ddr*", NULL,
	  "event=config:0-7;axi_id=config1:0-15;axi_mask=config1:16-31;axi_port=config2:0-2;axi_channel=config2:3" },
	{ "imx9_ddr*", NULL, "event=config:0-7,16-23;counter=config:8-15;axi_id=config1:0-17;axi_mask=config2:0-17" },
	{ "ali_drw*", NULL, "event=config:0-7" },
	{ "hisi_sicl*_cpa*", NULL, "event=config:0-15" },
	{ "hisi_sccl*", NULL, "event=config:0-7" },
};

/* Parses "config1:0-7,32-35" (one field, ranges in order) into TERM. */
static int parse_spec(const char *spec, struct pmudb_format_term *term)
{
	int field;
	const char *p;
	if (!strncmp(spec, "config2:", 8))
		field = 2, p = spec + 8;
	else if (!strncmp(spec, "config1:", 8))
		field = 1, p = spec + 8;
	else if (!strncmp(spec, "config:", 7))
		field = 0, p = spec + 7;
	else
		return -1;
	uint64_t mask = 0;
	for (;;) {
		char *end;
		errno = 0;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p || errno || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtoul(++p, &end, 10);
			if (end == p || errno || hi > 63 || hi < lo)
				return -1;
			p = end;
		}
		for (unsigned long b = lo; b <= hi; b++) {
			if (mask >> b & 1)
				return -1;	/* a bit twice */
			mask |= 1ULL << b;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n' && !p[1])
			break;
		if (*p)
			return -1;
		break;
	}
	term->field = field;
	term->mask = mask;
	return 0;
}

static int add_term(struct pmudb_perf_format *fmt, const char *name, size_t nlen, const char *spec,
		    struct pmudb_error *err)
{
	if (fmt->count == PMUDB_FORMAT_MAX)
		return set_error(err, PMUDB_ERR_TOOMANY, "%s: more than %d format terms in %s",
				 pmudb_strerror(PMUDB_ERR_TOOMANY), PMUDB_FORMAT_MAX, fmt->source);
	struct pmudb_format_term *t = &fmt->terms[fmt->count];
	if (!nlen || nlen >= sizeof(t->name) || parse_spec(spec, t))
		return set_error(err, PMUDB_ERR_INVAL, "%s: format term '%.*s' of %s: '%.40s' is not configN:BITS",
				 pmudb_strerror(PMUDB_ERR_INVAL), (int)(nlen < 40 ? nlen : 40), name, fmt->source, spec);
	memcpy(t->name, name, nlen);
	t->name[nlen] = '\0';
	fmt->count++;
	return 0;
}

static int from_table(const struct format_row *row, struct pmudb_perf_format *fmt, struct pmudb_error *err)
{
	char spec[64];
	for (const char *p = row->terms; *p;) {
		size_t n = strcspn(p, "=");
		const char *s = p + n + 1;
		size_t sn = strcspn(s, ";");
		snprintf(spec, sizeof(spec), "%.*s", (int)sn, s);
		int r = add_term(fmt, p, n, spec, err);
		if (r)
			return r;
		p = s + sn + (s[sn] == ';');
	}
	return 0;
}

/* Reads the format directory DIR (every regular file a term). */
static int from_sysfs(const char *dir, struct pmudb_perf_format *fmt, struct pmudb_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return 1;
	struct dirent *de;
	int r = 0;
	while (!r && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[512], text[256];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* at most 254 bytes */
		int n = sysfs_read_small(path, text, sizeof(text) - 1);
		if (n < 0)
			r = set_error(err, PMUDB_ERR_INVAL, "%s: cannot read %s (or it is too long)",
				      pmudb_strerror(PMUDB_ERR_INVAL), path);
		else {
			r = add_term(fmt, de->d_name, strlen(de->d_name), text, err);
		}
	}
	closedir(d);
	return r;
}

int pmudb_perf_format(const char *pmu, const char *family, struct pmudb_perf_format *fmt, struct pmudb_error *err)
{
	if (!pmu || !fmt || !*pmu || strchr(pmu, '/') || strlen(pmu) > 200 || !strcmp(pmu, ".") || !strcmp(pmu, ".."))
		return set_error(err, PMUDB_ERR_INVAL, "%s: not a kernel PMU name", pmudb_strerror(PMUDB_ERR_INVAL));
	memset(fmt, 0, sizeof(*fmt));
	const char *devices = sysfs_devices_dir();
	snprintf(fmt->source, sizeof(fmt->source), "%s/%s/format", devices, pmu);
	int r = from_sysfs(fmt->source, fmt, err);
	if (r > 0) {
		/* numbered boxes (uncore_cha_0 ...): box 0's format */
		snprintf(fmt->source, sizeof(fmt->source), "%s/%s_0/format", devices, pmu);
		r = from_sysfs(fmt->source, fmt, err);
	}
	if (r <= 0)
		return r;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (fnmatch(table[i].pmu, pmu, 0) || (table[i].family && (!family || strcmp(family, table[i].family))))
			continue;
		snprintf(fmt->source, sizeof(fmt->source), "pmudb's table of kernel PMU formats (%s)", table[i].pmu);
		return from_table(&table[i], fmt, err);
	}
	return set_error(err, PMUDB_ERR_NOTFOUND, "%s: no format for kernel PMU '%s': not in sysfs, not in pmudb's table",
			 pmudb_strerror(PMUDB_ERR_NOTFOUND), pmu);
}

uint64_t pmudb_format_put(uint64_t mask, uint64_t value)
{
	uint64_t out = 0;
	for (int b = 0; b < 64 && mask; b++)
		if (mask >> b & 1) {
			out |= (value & 1) << b;
			value >>= 1;
			mask &= ~(1ULL << b);
		}
	return out;
}

uint64_t pmudb_format_get(uint64_t mask, uint64_t bits)
{
	uint64_t out = 0;
	int k = 0;
	for (int b = 0; b < 64; b++)
		if (mask >> b & 1)
			out |= (bits >> b & 1) << k++;
	return out;
}

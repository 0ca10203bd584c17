/*
 * probe.c - one call to libpfm's encoder, with its fstr split into tokens.
 */
#include "compiler/probe.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "PMU::EVENT:A:B=3" -> tokens A and B=3.  EVENT itself is not a token. */
static void split_fstr(const char *fstr, struct probe *out)
{
	const char *s = strstr(fstr, "::");
	s = s ? s + 2 : fstr;
	s = strchr(s, ':');
	while (s && out->token_count < PROBE_MAX_TOKENS) {
		const char *start = s + 1;
		const char *end = strchr(start, ':');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		struct probe_token *t = &out->tokens[out->token_count++];
		const char *eq = memchr(start, '=', len);
		size_t name_len = eq ? (size_t)(eq - start) : len;
		if (name_len >= sizeof(t->name))
			name_len = sizeof(t->name) - 1;
		memcpy(t->name, start, name_len);
		t->name[name_len] = '\0';
		t->has_value = eq != NULL;
		t->value = eq ? strtoull(eq + 1, NULL, 0) : 0;
		s = end;
	}
}

void probe_encode(const char *str, int plm, struct probe *out)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;

	memset(out, 0, sizeof(*out));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &out->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	out->attr.size = sizeof(out->attr);

	out->error = pfm_get_os_event_encoding(str, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	out->cpu = arg.cpu;
	out->flags = arg.flags;
	if (out->error == PFM_ERR_NOTSUPP) {
		uint64_t *codes = NULL;
		free(fstr);
		fstr = NULL;
		out->raw_only = true;
		out->error = pfm_get_event_encoding(str, plm, &fstr, NULL, &codes, &out->code_count);
		if (out->code_count > 4)
			out->code_count = 4;
		if (out->error == PFM_SUCCESS)
			memcpy(out->codes, codes, (size_t)out->code_count * sizeof(*codes));
		free(codes);
	}
	out->has_fstr = fstr != NULL;
	if (out->error == PFM_SUCCESS && fstr)
		split_fstr(fstr, out);
	free(fstr);
}

int probe_raw_codes(const char *str, int plm, uint64_t codes[4], int *count)
{
	uint64_t *buf = NULL;
	int n = 0;
	int err = pfm_get_event_encoding(str, plm, NULL, NULL, &buf, &n);
	*count = 0;
	if (err == PFM_SUCCESS) {
		*count = n < 4 ? n : 4;
		memcpy(codes, buf, (size_t)*count * sizeof(*codes));
	}
	free(buf);
	return err;
}

void probe_pmu_strings(const struct pmu *p, struct pmu_strings *out)
{
	for (size_t e = 0; e < p->events.count; e++) {
		const struct event *ev = &p->events.items[e];
		if (ev->libpfm_index < 0 || ev->retired)
			continue;
		for (int u = -1; u < (int)ev->umasks.count; u++) {
			if (u >= 0 && (ev->umasks.items[u].libpfm_index < 0 || ev->umasks.items[u].retired))
				continue;
			char *s = u < 0 ? xprintf("%s::%s", p->name, ev->name)
					: xprintf("%s::%s:%s", p->name, ev->name, ev->umasks.items[u].name);
			struct probe q;
			probe_encode(s, PFM_PLM0 | PFM_PLM3, &q);
			free(s);
			if (q.error || q.raw_only)
				continue;
			struct pmu_string *ps = vec_push(out);
			ps->event = (int)e;
			ps->umask = u;
			ps->config = q.attr.config;
			ps->config1 = q.attr.config1;
		}
	}
}

const struct probe_token *probe_modifier(const struct probe *p, const char *name)
{
	for (int i = 0; i < p->token_count; i++)
		if (p->tokens[i].has_value && !strcasecmp(p->tokens[i].name, name))
			return &p->tokens[i];
	return NULL;
}

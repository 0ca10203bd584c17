/*
 * libpfm_ask.c - see libpfm_ask.h.
 */
#include "tests/libpfm_ask.h"

#include <string.h>

int libpfm_ask(const char *event, struct perf_event_attr *attr, char **fstr, int *cpu)
{
	pfm_perf_encode_arg_t arg;
	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	attr->size = sizeof(*attr);
	arg.attr = attr;
	arg.fstr = fstr;
	arg.size = sizeof(arg);
	int r = pfm_get_os_event_encoding(event, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (cpu)
		*cpu = arg.cpu;
	return r;
}

/*
 * libpfm_once.c - the baseline of the process benchmark: a program that
 * initialises libpfm and encodes one event, as a tool using libpfm would.
 */
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 2 || pfm_initialize() != PFM_SUCCESS)
		return 2;
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	attr.size = sizeof(attr);
	arg.attr = &attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	int r = pfm_get_os_event_encoding(argv[1], PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	printf("%s type=%u config=0x%llx\n", r ? pfm_strerror(r) : fstr, attr.type, (unsigned long long)attr.config);
	free(fstr);
	return r ? 1 : 0;
}

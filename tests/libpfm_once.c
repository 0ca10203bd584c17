/*
 * libpfm_once.c - the baseline of the process benchmark: a program that
 * initialises libpfm and encodes one event, as a tool using libpfm would.
 */
#include "tests/libpfm_ask.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 2 || pfm_initialize() != PFM_SUCCESS)
		return 2;
	struct perf_event_attr attr;
	char *fstr = NULL;
	int r = libpfm_ask(argv[1], &attr, &fstr, NULL);
	printf("%s type=%u config=0x%llx\n", r ? pfm_strerror(r) : fstr, attr.type, (unsigned long long)attr.config);
	free(fstr);
	return r ? 1 : 0;
}

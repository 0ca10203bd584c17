/*
 * libpfm_batch.c - the baseline of the batch benchmark: a program that
 * reads event strings a line at a time, as `pmudb encode --stdin` does,
 * encodes each with libpfm and prints what it got (fstr, type, config,
 * config1, or the error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/libpfm_ask.h"

int main(void)
{
	if (pfm_initialize() != PFM_SUCCESS)
		return 2;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		line[strcspn(line, "\r\n")] = '\0';
		struct perf_event_attr attr;
		char *fstr = NULL;
		int r = libpfm_ask(line, &attr, &fstr, NULL);
		if (r)
			printf("%s: %s\n", line, pfm_strerror(r));
		else
			printf("%s type=%u config=0x%llx config1=0x%llx\n", fstr, attr.type, (unsigned long long)attr.config,
			       (unsigned long long)attr.config1);
		free(fstr);
	}
	free(line);
	return 0;
}

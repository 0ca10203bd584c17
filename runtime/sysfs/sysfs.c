/*
 * sysfs.c - where this machine's kernel PMUs are listed (see sysfs.h).
 */
#include <stdlib.h>

#include "runtime/sysfs/sysfs.h"

const char *sysfs_devices_dir(void)
{
	const char *d = getenv("PMUDB_SYSFS_DEVICES");
	return d && *d ? d : SYSFS_DEFAULT_DEVICES;
}

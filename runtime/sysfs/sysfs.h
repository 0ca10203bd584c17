/*
 * sysfs.h - where this machine's kernel PMUs are listed.
 *
 * /sys/bus/event_source/devices, or the directory $PMUDB_SYSFS_DEVICES
 * names: a stand-in for tests, for a copy of another machine's tree, and
 * for the compiler, which encodes the catalog's bare strings as they would
 * encode on a machine with no kernel PMUs (compiler/name_encodings.c).
 * Every room that reads sysfs asks here, so one setting moves them all.
 */
#ifndef PMUDB_RUNTIME_SYSFS_H
#define PMUDB_RUNTIME_SYSFS_H

#define SYSFS_DEFAULT_DEVICES "/sys/bus/event_source/devices"

/* The devices directory: never NULL, never empty. */
const char *sysfs_devices_dir(void);

#endif

/*
 * catalog_limits.h - how much one event may hold: what the runtime reads and the
 * compiler checks before it writes (what the runtime would refuse, the
 * compiler must not write).
 */
#ifndef PMUDB_CATALOG_LIMITS_H
#define PMUDB_CATALOG_LIMITS_H

#define MAX_UMASKS 256		/* unit masks of one event */
#define MAX_MODIFIERS 64	/* modifiers of one event (bits of a 64-bit mask) */
/* The longest event name an equivalence may name (the encoder copies it
 * to look it up). */
#define MAX_EQUIV_NAME 255
/* The longest device identifier pattern of a system PMU (a regular
 * expression the runtime compiles; the vendors' are under 40 bytes). */
#define MAX_DEVICE_IDENTIFIER 255

#endif

/*
 * name_encodings.h - the last step of a build: the runtime encodes every
 * bare string of the catalog just written, into its name_encoding table.
 */
#ifndef PMUDB_COMPILER_NAME_ENCODINGS_H
#define PMUDB_COMPILER_NAME_ENCODINGS_H

/* Opens the catalog at PATH with the runtime (which refuses it as it would
 * anyone's), encodes each live event's, unit mask's and alias's bare
 * string and writes the answers to PATH's name_encoding table.  *ROWS is
 * their number.  Returns 0, or -1 with *error malloc'd: the runtime refused
 * the catalog, or an answer no encoding gives (a catalog error). */
int name_encodings_fill(const char *path, long *rows, char **error);

#endif

/*
 * out_target.h - where pmudb-build writes, checked before any work: see
 * out_target.c.
 */
#ifndef PMUDB_OUT_TARGET_H
#define PMUDB_OUT_TARGET_H

/* The file OUT names, checked: none yet, or a regular file (a symlink is
 * followed to it) that is none of the INPUTS (COUNT paths: files, or
 * directories of *.yaml), in a directory the build can write.  Returns
 * the path to write (malloc'd), or NULL with *ERROR set. */
char *out_target(const char *out, char *const *inputs, int count, char **error);

/* Gives TEMP the mode of the file at TARGET, when there is one: a
 * rebuilt catalog keeps its permissions. */
void out_keep_mode(const char *temp, const char *target);

#endif

/*
 * emit_image.h - writes the built-in image (catalog/image.h) of a finished catalog.
 */
#ifndef PMUDB_EMIT_IMAGE_H
#define PMUDB_EMIT_IMAGE_H

/* Reads CATALOG's packed blobs through SQLite, unpacks them and writes
 * the image to OUT (through TEMP, a file beside it, renamed when
 * complete), then checks it as the runtime will.  0, or -1 with *ERROR
 * (malloc'd) naming the file at fault. */
int image_write(const char *catalog, const char *out, const char *temp, char **error);

#endif

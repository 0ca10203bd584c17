/* builtin.S - links the catalog `make` built into the library, so that
 * pmudb works with no file of ours beside it, and the image of its blobs
 * (image.h) that a one-event process reads instead of opening SQLite.
 * CATALOG and IMAGE are their paths. */
	.section .rodata
	.global pmudb_builtin_catalog
	.global pmudb_builtin_catalog_end
	.global pmudb_builtin_image
	.global pmudb_builtin_image_end
	.balign 64
pmudb_builtin_catalog:
	.incbin CATALOG
pmudb_builtin_catalog_end:
	.balign 64
pmudb_builtin_image:
	.incbin IMAGE
pmudb_builtin_image_end:
	/* packed.h's PACKED_READ_PAD: its last name is read as any other */
	.zero 64
	.section .note.GNU-stack, "", @progbits

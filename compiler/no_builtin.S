/* no_builtin.S - pmudb-build links the runtime to encode the catalog it
 * writes (name_encodings.c), which it opens by path: the runtime's built-in
 * catalog, made from that very file, is empty here.  Opening it fails as
 * a damaged image would; pmudb-build never does. */
	.section .rodata
	.global pmudb_builtin_catalog
	.global pmudb_builtin_catalog_end
	.global pmudb_builtin_image
	.global pmudb_builtin_image_end
	.balign 64
pmudb_builtin_catalog:
pmudb_builtin_catalog_end:
pmudb_builtin_image:
pmudb_builtin_image_end:
	.zero 64
	.section .note.GNU-stack, "", @progbits

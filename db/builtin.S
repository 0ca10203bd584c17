/* builtin.S - links the catalog `make` built into the library, so that
 * pmudb works with no file of ours beside it.  CATALOG is its path. */
	.section .rodata
	.global pmudb_builtin_catalog
	.global pmudb_builtin_catalog_end
	.balign 64
pmudb_builtin_catalog:
	.incbin CATALOG
pmudb_builtin_catalog_end:
	.section .note.GNU-stack, "", @progbits

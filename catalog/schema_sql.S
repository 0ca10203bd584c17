/* schema_sql.S - compiles schema.sql into the compiler as pmudb_schema_sql,
 * so the file and the program cannot disagree. */
	.section .rodata
	.global pmudb_schema_sql
	.type pmudb_schema_sql, @object
pmudb_schema_sql:
	.incbin "catalog/schema.sql"
	.byte 0
	.section .note.GNU-stack, "", @progbits

import { PostgresDialect, sql } from 'kysely';
import type { DatabaseIntrospector, Kysely, SchemaMetadata, TableMetadata } from 'kysely';

/**
 * Kysely's PostgreSQL dialect with an introspector that sees only the connection's current
 * schema, where every table of ours lives.
 *
 * Kysely's own introspector (used by its migrator to find the migration tables) reads every
 * schema in the database and calls `has_schema_privilege(name, ...)` on each, so a schema that
 * another session drops during that query fails our migration with 3F000 ("schema ... does not
 * exist"), and a schema we may not use fails it with 42501. A database shared with other
 * applications, other replicas' test schemas, or a managed service's own schemas must not stop
 * us migrating ours. Columns are not listed: nothing of ours reads them.
 */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(
      this.#db,
    );
    return rows.flatMap((row) => (row.name === null ? [] : [{ name: row.name }]));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.#db);
    return rows.map((row) => ({
      name: row.name,
      schema: row.schema,
      isView: row.kind === 'v',
      // Foreign tables (relkind 'f') are not listed: none of ours is one.
      isForeign: false,
      columns: [],
    }));
  }
}

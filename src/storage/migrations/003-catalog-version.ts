import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The committed catalogue version (issue 15): one row, bumped by every apply inside its own
// transaction. Its row lock orders concurrent applies, so versions follow commit order on every
// backend (an id handed out at INSERT did not, on PostgreSQL). Caches and the in-memory index are
// keyed by it, and a replica that missed an invalidation message notices a change by reading it.

export function catalogVersionMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('catalog_version')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('version', 'bigint', (c) => c.notNull().check(sql`version >= 0`))
        .execute();
      // A database that already holds syncs starts past their ids, so the version only grows.
      await sql`insert into catalog_version (id, version)
        select 1, coalesce(max(id), 0) from sync_runs where success = 1`.execute(db);
    },
  };
}

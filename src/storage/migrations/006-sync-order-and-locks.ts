import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The change feed in commit order (issue 22 item 4). A change's `at` is taken before its apply
// commits, so on PostgreSQL two applies can commit in the other order than their times and a
// client paging by time past the later one misses the earlier. The catalogue version is bumped
// as the last write of every apply under the catalog_version row lock, so it is commit order:
// sync_runs.catalog_version records it per successful run and price_changes.run_id ties each
// item to its run. The feed pages by (catalog_version, id).
//
// Rows written before this migration are all committed, so any fixed order of them is exact:
// their runs get version 0 (below every later apply's) and they keep their id order.
//
// sync_locks (issue 22 item 5): one lease row per provider being synced on SQLite, so two
// processes on one database file (the server and `cloudprice sync`) never sync one provider at
// once (D24; sqlite/sqlite-provider-lock.ts). PostgreSQL uses advisory locks and leaves it empty.

export const syncOrderAndLocksMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('sync_runs').addColumn('catalog_version', 'bigint').execute();
    await db.schema.alterTable('price_changes').addColumn('run_id', 'integer').execute();
    await sql`update sync_runs set catalog_version = 0 where success = 1`.execute(db);
    await sql`
      update price_changes set run_id = (
        select max(s.id) from sync_runs s
        where s.sync_id = price_changes.sync_id and s.provider = price_changes.provider
          and s.success = 1)`.execute(db);
    await db.schema
      .createIndex('sync_runs_catalog_version_idx')
      .on('sync_runs')
      .column('catalog_version')
      .execute();
    await db.schema
      .createIndex('price_changes_run_idx')
      .on('price_changes')
      .columns(['run_id', 'id'])
      .execute();
    await db.schema
      .createTable('sync_locks')
      .addColumn('provider', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

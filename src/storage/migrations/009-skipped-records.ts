import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Issue 35 item 2: each run records how many upstream records it skipped for failing
// validation, so /health can report a provider whose last sync skipped any as degraded. Runs
// recorded before this migration read as 0 (nothing known to be skipped).
export const skippedRecordsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('sync_runs')
      .addColumn('skipped_records', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};

import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// D37 provenance. pricing.observed_at: epoch ms at which the record's price was observed
// upstream (a snapshot's recording date, or the fetch of a live sync); rows stored before this
// migration take the time their last sync wrote them, the best date known for them, and get
// the true one at their next sync. sync_runs.source_*: what a successful run applied
// (snapshot or live, observed when, from what), which /health shows per provider; null on
// failed runs and on runs stored before this migration.
export const provenanceMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('pricing')
      .addColumn('observed_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update pricing set observed_at = updated_at`.execute(db);
    await db.schema.alterTable('sync_runs').addColumn('source_kind', 'text').execute();
    await db.schema.alterTable('sync_runs').addColumn('source_observed_at', 'bigint').execute();
    await db.schema.alterTable('sync_runs').addColumn('source_text', 'text').execute();
  },
};

import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// D61: a record's prices under the purchase options other than on-demand (on-demand stays in
// `pricing`, whose columns are the list price), and AWS's spot advice. One row per record and
// option it is sold under; a record without rows here is on-demand only. Pricing rows are never
// deleted (a record that goes is marked unavailable), so these rows need no cascade.
export const purchaseOptionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('pricing_options')
      .addColumn('pricing_id', 'integer', (c) => c.notNull().references('pricing.id'))
      .addColumn('purchase_option', 'text', (c) =>
        c
          .notNull()
          .check(
            sql`purchase_option in ('spot', 'reserved_1y', 'reserved_3y', 'convertible_1y', 'convertible_3y')`,
          ),
      )
      .addColumn('hourly_micros', 'bigint', (c) => c.notNull().check(sql`hourly_micros >= 0`))
      .addColumn('monthly_micros', 'bigint', (c) => c.notNull().check(sql`monthly_micros >= 0`))
      // When this option's figure was observed upstream (D37): a spot feed dates its own.
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('pricing_options_pk', ['pricing_id', 'purchase_option'])
      .execute();
    await db.schema
      .createTable('spot_advice')
      .addColumn('pricing_id', 'integer', (c) => c.primaryKey().references('pricing.id'))
      .addColumn('interruption_band', 'text', (c) =>
        c.notNull().check(sql`interruption_band in ('<5%', '5-10%', '10-15%', '15-20%', '>20%')`),
      )
      .addColumn('savings_pct', 'integer', (c) =>
        c.notNull().check(sql`savings_pct >= 0 and savings_pct <= 100`),
      )
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .execute();
  },
};

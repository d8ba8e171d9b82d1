import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// D61: the price history and the change feed per record and purchase option. Every period and
// feed item stored before this migration is on-demand (the only option there was). A record has
// at most one open period per option, enforced by the database as before per record.
export const optionHistoryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of ['price_history', 'price_changes']) {
      await db.schema
        .alterTable(table)
        .addColumn('purchase_option', 'text', (c) => c.notNull().defaultTo('on_demand'))
        .execute();
    }
    await db.schema.dropIndex('price_history_open_idx').execute();
    await db.schema
      .createIndex('price_history_open_idx')
      .on('price_history')
      .columns(['pricing_id', 'purchase_option'])
      .unique()
      .where(sql.ref('valid_to'), 'is', null)
      .execute();
  },
};

import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectCapabilities } from '../dialect-capabilities.js';

// Price history (D38) and the change feed (D40). A catalogue that exists before this migration
// gets one open period per record, starting at the record's last write: history begins with
// what was stored then, and the first sync after the upgrade reports only real changes.

export function priceHistoryMigration(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('price_history')
        .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
        .addColumn('pricing_id', 'integer', (c) => c.notNull().references('pricing.id'))
        .addColumn('sync_id', 'text', (c) => c.notNull())
        .addColumn('valid_from', 'bigint', (c) => c.notNull())
        .addColumn('valid_to', 'bigint')
        .addColumn('hourly_micros', 'bigint', (c) => c.notNull().check(sql`hourly_micros >= 0`))
        .addColumn('monthly_micros', 'bigint', (c) => c.notNull().check(sql`monthly_micros >= 0`))
        .addColumn('available', 'integer', (c) => c.notNull().check(sql`available in (0, 1)`))
        // When the period's price was observed upstream (D37), so as_of answers carry it.
        .addColumn('observed_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('price_history_record_idx')
        .on('price_history')
        .columns(['pricing_id', 'valid_from'])
        .execute();
      // At most one open period per record, enforced by the database.
      await db.schema
        .createIndex('price_history_open_idx')
        .on('price_history')
        .column('pricing_id')
        .unique()
        .where(sql.ref('valid_to'), 'is', null)
        .execute();
      await db.schema
        .createIndex('price_history_from_idx')
        .on('price_history')
        .columns(['valid_from', 'valid_to'])
        .execute();

      await db.schema
        .createTable('price_changes')
        .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
        .addColumn('sync_id', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('region_code', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('pricing_id', 'integer', (c) => c.notNull().references('pricing.id'))
        .addColumn('kind', 'text', (c) =>
          c
            .notNull()
            .check(
              sql`kind in ('added', 'removed', 'returned', 'price_increased', 'price_decreased')`,
            ),
        )
        .addColumn('old_hourly_micros', 'bigint')
        .addColumn('old_monthly_micros', 'bigint')
        .addColumn('new_hourly_micros', 'bigint')
        .addColumn('new_monthly_micros', 'bigint')
        .execute();
      await db.schema
        .createIndex('price_changes_at_idx')
        .on('price_changes')
        .columns(['at', 'id'])
        .execute();

      await sql`
        insert into price_history
          (pricing_id, sync_id, valid_from, valid_to, hourly_micros, monthly_micros, available,
           observed_at)
        select id, 'migration', updated_at, null, hourly_micros, monthly_micros, available,
          observed_at
        from pricing`.execute(db);
    },
  };
}

import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectCapabilities } from '../dialect-capabilities.js';

// Webhook subscriptions and their delivery queue (D42). Deliveries are rows, so they survive a
// restart and every replica sees the same queue; a lease marks the one replica sending a row.

export function webhooksMigration(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('filter_provider', 'text')
        .addColumn('filter_region', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
        .addColumn('webhook_id', 'text', (c) =>
          c.notNull().references('webhooks.id').onDelete('cascade'),
        )
        .addColumn('message_id', 'text', (c) => c.notNull().unique())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_webhook_idx')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'id'])
        .execute();
    },
  };
}

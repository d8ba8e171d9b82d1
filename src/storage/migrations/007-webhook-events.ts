import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectCapabilities } from '../dialect-capabilities.js';

// Webhook events stored once (issue 22 item 2). A sync's event body used to be copied into
// every subscriber's delivery row, so 100 subscribers stored it 100 times inside the sync's
// transaction. Now `webhook_events` holds each body once and a delivery is the pair (event,
// webhook) with its attempts. Queued deliveries are carried over, each keeping its message id
// (receivers deduplicate on it) and its attempts.
//
// And a slot per subscription (issue 22 item 7): `webhooks.slot` is unique and a new
// subscription takes a free slot below the cap in the statement that inserts it, so concurrent
// creates cannot exceed the cap on either backend.

export function webhookEventsMigration(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // Only while this migration runs: which old delivery row an event came from.
        .addColumn('from_delivery', 'integer')
        .execute();
      await sql`insert into webhook_events (event_type, payload, created_at, from_delivery)
        select event_type, payload, created_at, id from webhook_deliveries order by id`.execute(db);

      await db.schema
        .createTable('webhook_deliveries_007')
        .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
        .addColumn('event_id', 'integer', (c) => c.notNull().references('webhook_events.id'))
        .addColumn('webhook_id', 'text', (c) =>
          c.notNull().references('webhooks.id').onDelete('cascade'),
        )
        .addColumn('message_id', 'text', (c) => c.notNull().unique())
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
      await sql`insert into webhook_deliveries_007 (event_id, webhook_id, message_id, status,
          attempts, created_at, next_attempt_at, lease_owner, lease_until, last_status,
          last_error, delivered_at)
        select e.id, d.webhook_id, d.message_id, d.status, d.attempts, d.created_at,
          d.next_attempt_at, d.lease_owner, d.lease_until, d.last_status, d.last_error,
          d.delivered_at
        from webhook_deliveries d join webhook_events e on e.from_delivery = d.id
        order by d.id`.execute(db);
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.alterTable('webhook_deliveries_007').renameTo('webhook_deliveries').execute();
      await db.schema.alterTable('webhook_events').dropColumn('from_delivery').execute();

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
      await db.schema
        .createIndex('webhook_deliveries_event_idx')
        .on('webhook_deliveries')
        .column('event_id')
        .execute();

      // Existing subscriptions take slots 0, 1, ... oldest first. (More than the cap could exist
      // through the race this closes; they keep their slots and new ones are refused until
      // enough are deleted.)
      await db.schema.alterTable('webhooks').addColumn('slot', 'integer').execute();
      await sql`update webhooks set slot = (select count(*) from webhooks w
        where w.created_at < webhooks.created_at
          or (w.created_at = webhooks.created_at and w.id < webhooks.id))`.execute(db);
      await db.schema
        .createIndex('webhooks_slot_idx')
        .on('webhooks')
        .column('slot')
        .unique()
        .execute();
    },
  };
}

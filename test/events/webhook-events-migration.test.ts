// Migration 007 on every backend: a database queued under migration 005 (one body per delivery
// row) keeps every delivery, with its message id, attempts and body, once the bodies move to
// webhook_events; existing subscriptions take slots oldest first.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/storage/catalog-schema.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import type { DialectCapabilities } from '../../src/storage/dialect-capabilities.js';
import { catalogMigrations } from '../../src/storage/migrations/run-migrations.js';
import { CurrentSchemaPostgresDialect } from '../../src/storage/postgres/current-schema-dialect.js';
import { postgresCapabilities } from '../../src/storage/postgres/postgres-catalog-store.js';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { sqliteCapabilities } from '../../src/storage/sqlite/sqlite-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { rawQuery } from './raw-database.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function open(url: string): { db: Kysely<CatalogDatabase>; caps: DialectCapabilities } {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    mkdirSync(path.dirname(file), { recursive: true });
    return {
      db: new Kysely({ dialect: new SqliteDialect({ database: openSqlite(file) }) }),
      caps: sqliteCapabilities,
    };
  }
  return {
    db: new Kysely({
      dialect: new CurrentSchemaPostgresDialect({
        pool: new pg.Pool({ connectionString: url, max: 1 }),
      }),
    }),
    caps: postgresCapabilities,
  };
}

const SECRET = 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=';

const body = (n: number) => JSON.stringify({ type: 'sync.completed', timestamp: 'x', data: { n } });

for (const backend of await storeBackends()) {
  describeStoreBackend('migration 007 (webhook events)', backend, () => {
    let database: IsolatedDatabase;
    beforeEach(async () => {
      database = await backend.isolate();
    });
    afterEach(() => database.drop());

    it('carries queued deliveries over, each body into its own event', async () => {
      const { db, caps } = open(database.url);
      try {
        // The program before 007.
        const { ['007-webhook-events']: late, ...before } = catalogMigrations(caps);
        expect(late).toBeDefined();
        const older = new Migrator({
          db,
          provider: { getMigrations: () => Promise.resolve<Record<string, Migration>>(before) },
          migrationTableSchema: await caps.migrationTableSchema(db),
          allowUnorderedMigrations: true,
        });
        expect((await older.migrateToLatest()).error).toBeUndefined();
        // Two subscriptions (the later one first in id order) and three queued rows.
        await sql`insert into webhooks (id, url, secret, events, created_at) values
          (${'wh_b'}, ${'http://127.0.0.1:9/b'}, ${'s'}, ${'["sync.completed"]'}, ${T0 - 2_000}),
          (${'wh_a'}, ${'http://127.0.0.1:9/a'}, ${'s'}, ${'["sync.completed"]'}, ${T0 - 1_000})`.execute(
          db,
        );
        for (const [hook, message, status, attempts] of [
          ['wh_a', 'msg_one', 'pending', 2],
          ['wh_b', 'msg_two', 'delivered', 1],
          ['wh_a', 'msg_three', 'pending', 0],
        ] as const) {
          await sql`insert into webhook_deliveries (webhook_id, message_id, event_type, payload,
              status, attempts, created_at, next_attempt_at, last_status)
            values (${hook}, ${message}, ${'sync.completed'}, ${body(attempts)}, ${status},
              ${attempts}, ${T0}, ${T0}, ${attempts > 0 ? 500 : null})`.execute(db);
        }
      } finally {
        await db.destroy();
      }

      const store = await createCatalogStore(database.url, {});
      try {
        await store.migrate();
        const rows = await store.webhooks.deliveries({ limit: 10 });
        expect(
          rows.map((d) => [d.webhookId, d.messageId, d.eventType, d.status, d.attempts]),
        ).toEqual([
          ['wh_a', 'msg_three', 'sync.completed', 'pending', 0],
          ['wh_b', 'msg_two', 'sync.completed', 'delivered', 1],
          ['wh_a', 'msg_one', 'sync.completed', 'pending', 2],
        ]);
        const due = await store.webhooks.claimDue('replica', T0, 30_000, 10);
        expect(due.map((d) => [d.messageId, d.payload, d.url])).toEqual([
          ['msg_one', body(2), 'http://127.0.0.1:9/a'],
          ['msg_three', body(0), 'http://127.0.0.1:9/a'],
        ]);
        const events = await rawQuery(database.url, 'select * from webhook_events order by id');
        expect(events.map((e) => [e['payload'], Object.keys(e).sort()])).toEqual(
          [body(2), body(1), body(0)].map((b) => [
            b,
            ['created_at', 'event_type', 'id', 'payload'],
          ]),
        );
        // Slots by age: wh_b (older) 0, wh_a 1; the next create takes 2 and the cap counts both.
        const slots = await rawQuery(database.url, 'select id, slot from webhooks order by slot');
        expect(slots.map((r) => [r['id'], Number(r['slot'])])).toEqual([
          ['wh_b', 0],
          ['wh_a', 1],
        ]);
        const next = await store.webhooks.create(
          {
            url: 'http://127.0.0.1:9/c',
            secret: SECRET,
            events: ['sync.failed'],
            filter: {},
            createdAt: new Date(T0),
          },
          3,
        );
        expect(next).not.toBeNull();
        const full = await store.webhooks.create(
          {
            url: 'http://127.0.0.1:9/d',
            secret: SECRET,
            events: ['sync.failed'],
            filter: {},
            createdAt: new Date(T0),
          },
          3,
        );
        expect(full).toBeNull();
      } finally {
        await store.close();
      }
    });
  });
}

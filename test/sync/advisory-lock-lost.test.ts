// Issue 22, suspected: "a lost PostgreSQL advisory-lock session goes unnoticed (errors
// swallowed), so another replica could start the same sync". Proven: the lock's session was
// ended (pg_terminate_backend, as a failover or an idle-session killer would) while a sync
// fetched; the server freed the lock at once and another replica could take it, yet the first
// sync went on and committed, unprotected (D24). Now the lock's session ending aborts the sync:
// it fails with SYNC_LOCK_LOST and applies nothing.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROVIDER_NAMES, type ProviderName } from '../../src/catalog/model.js';
import { MemoryInvalidationBus } from '../../src/infra/memory/memory-invalidation-bus.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { providerLockKey } from '../../src/storage/postgres/postgres-advisory-lock.js';
import type { ProviderAdapter, ProviderCatalog } from '../../src/catalog/offers.js';
import { createSyncService } from '../../src/sync/sync-service.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { eventually, sleep, waitFor } from '../support/wait.js';

const silent = { error: () => undefined, info: () => undefined };
const LOCK_NAMESPACE = 0x636c7072;

const postgres = (await storeBackends()).filter((backend) => backend.name === 'postgres');
for (const backend of postgres) {
  describeStoreBackend('lost advisory lock (issue 22)', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    let admin: pg.Client;

    beforeAll(async () => {
      database = await backend.isolate();
      const url = new URL(database.url);
      url.searchParams.set('application_name', `cp_lock_lost_${randomUUID().slice(0, 8)}`);
      store = await createCatalogStore(url.toString(), {});
      await store.migrate();
      admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
    });
    afterAll(async () => {
      await admin.end();
      await store.close();
      await database.drop();
    });

    it('a sync whose lock session is terminated fails with SYNC_LOCK_LOST and applies nothing', async () => {
      const [, b] = generateCatalogs(60, 3);
      await loadCatalogs(store, [b!]);
      const before = await store.readCatalog();
      const upstream: ProviderCatalog = {
        ...b!,
        offers: b!.offers.map((o) => ({ ...o, monthlyMicros: o.monthlyMicros + 50_000 })),
      };
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let fetching = false;
      const adapter = (name: ProviderName): ProviderAdapter => ({
        name,
        fetchCatalog: async () => {
          fetching = true;
          await gate;
          return upstream;
        },
      });
      const sync = createSyncService({
        store,
        adapters: Object.fromEntries(PROVIDER_NAMES.map((n) => [n, adapter(n)])),
        bus: new MemoryInvalidationBus(),
        log: silent,
      });

      const running = sync.sync(['provider_b']);
      await waitFor(() => fetching, 10_000);
      const key = providerLockKey('provider_b');
      const holder = await admin.query<{ pid: number }>(
        `select pid from pg_locks where locktype = 'advisory' and classid = $1::int4::oid
           and objid = $2::int4::oid and granted`,
        [LOCK_NAMESPACE, key],
      );
      expect(holder.rows).toHaveLength(1);
      await admin.query('select pg_terminate_backend($1)', [holder.rows[0]!.pid]);
      // The lock is free now: another replica could start the same sync.
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await eventually(async () => {
          const taken = await other.query<{ ok: boolean }>(
            'select pg_try_advisory_lock($1::int4, $2::int4) as ok',
            [LOCK_NAMESPACE, key],
          );
          if (taken.rows[0]?.ok !== true) throw new Error('still held');
        }, 10_000);
        await sleep(200);
        release();
        const report = await running;
        expect(report.providers[0]).toMatchObject({
          success: false,
          error_details: { code: 'SYNC_LOCK_LOST' },
        });
      } finally {
        await other.end();
      }
      const after = await store.readCatalog();
      expect(after.version).toBe(before.version);
      expect(after.rows.map((r) => r.monthlyMicros)).toEqual(
        before.rows.map((r) => r.monthlyMicros),
      );
      // The store goes on working: the next sync takes a new lock session and applies.
      const next = await sync.sync(['provider_b']);
      expect(next.providers[0]?.success, JSON.stringify(next)).toBe(true);
    });
  });
}

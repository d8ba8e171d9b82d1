// How the webhook queue stores a sync's events (issue 22 item 2), pinned on every backend: each
// event body is stored once however many subscribers receive it, a delivery row is only the
// pair (event, subscriber) and its attempts, subscribers with a region filter share the bodies
// of their region, and bodies nobody still needs are pruned.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { REGION_CODES } from '../../src/catalog/model.js';
import type { EventType } from '../../src/catalog/webhook-event-model.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import type { WebhookFilter } from '../../src/catalog/webhook-event-model.js';
import { catalog, offer, run } from '../storage/catalog-fixtures.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { rawNumber, rawQuery } from './raw-database.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const ALL: EventType[] = ['sync.completed', 'sync.failed', 'price.changed'];
const [R1, R2] = REGION_CODES as [string, string];

async function subscribe(store: CatalogStore, count: number, filter: WebhookFilter = {}) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const hook = await store.webhooks.create(
      {
        url: `http://127.0.0.1:9/hook/${i}`,
        secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=',
        events: ALL,
        filter,
        createdAt: new Date(T0 - 60_000),
      },
      100,
    );
    ids.push(hook!.id);
  }
  return ids;
}

/** 1,200 offers in R1 and 900 in R2: a first sync adds 2,100 records (3 price.changed parts). */
const firstCatalog = () =>
  catalog('provider_a', [
    ...Array.from({ length: 1_200 }, (_, i) => offer({ instanceId: `a-${i}`, regionCode: R1 })),
    ...Array.from({ length: 900 }, (_, i) => offer({ instanceId: `b-${i}`, regionCode: R2 })),
  ]);

for (const backend of await storeBackends()) {
  describeStoreBackend('webhook queue storage', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    beforeEach(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
    });
    afterEach(async () => {
      await store.close();
      await database.drop();
    });
    const count = (text: string) => rawNumber(database.url, text);

    it('stores each event body once for 100 subscribers, and a bare row per delivery', async () => {
      const everything = await subscribe(store, 98);
      const osakaOnly = await subscribe(store, 2, { region: R1 });
      await store.applyProviderCatalog(firstCatalog(), run('provider_a', new Date(T0)));

      // Unfiltered: sync.completed + 3 parts of 2,100 changes. Filtered on R1: sync.completed +
      // 2 parts of its 1,200. Seven bodies, each once; not 98 × 4 + 2 × 3 copies.
      expect(await count('select count(*) as n from webhook_events')).toBe(7);
      expect(await count('select count(distinct payload) as n from webhook_events')).toBe(7);
      const byType = await rawQuery(
        database.url,
        'select event_type, count(*) as n from webhook_events group by event_type order by 1',
      );
      expect(byType.map((r) => [r['event_type'], Number(r['n'])])).toEqual([
        ['price.changed', 5],
        ['sync.completed', 2],
      ]);
      expect(await count('select count(*) as n from webhook_deliveries')).toBe(98 * 4 + 2 * 3);
      expect(await count('select count(distinct message_id) as n from webhook_deliveries')).toBe(
        98 * 4 + 2 * 3,
      );
      // A delivery row holds no body.
      const [row] = await rawQuery(database.url, 'select * from webhook_deliveries limit 1');
      expect(Object.keys(row!)).not.toContain('payload');
      // The bytes stored are the bodies once: about what one subscriber's copy used to be.
      const stored = await count('select sum(length(payload)) as n from webhook_events');
      const oneCopy = await count(
        `select sum(length(e.payload)) as n from webhook_events e
         join webhook_deliveries d on d.event_id = e.id where d.webhook_id = '${everything[0]}'`,
      );
      const regionCopy = await count(
        `select sum(length(e.payload)) as n from webhook_events e
         join webhook_deliveries d on d.event_id = e.id where d.webhook_id = '${osakaOnly[0]}'`,
      );
      expect(stored).toBe(oneCopy + regionCopy);

      // What each subscriber is sent is its own view: the R1 subscriber's items are R1's only.
      const claimed = await store.webhooks.claimDue('replica', T0, 30_000, 1_000);
      expect(claimed).toHaveLength(98 * 4 + 2 * 3);
      const items = (webhookId: string) =>
        claimed
          .filter((d) => d.webhookId === webhookId && d.eventType === 'price.changed')
          .flatMap((d) => {
            const body = JSON.parse(d.payload) as {
              data: { changes: { instance: { region_code: string } }[] };
            };
            return body.data.changes.map((c) => c.instance.region_code);
          });
      expect(items(everything[5]!)).toHaveLength(2_100);
      expect(items(osakaOnly[1]!)).toHaveLength(1_200);
      expect(new Set(items(osakaOnly[1]!))).toEqual(new Set([R1]));
    });

    it('stores nothing when nobody subscribes, and sync.failed once for every filter', async () => {
      await store.applyProviderCatalog(firstCatalog(), run('provider_a', new Date(T0)));
      expect(await count('select count(*) as n from webhook_events')).toBe(0);
      await subscribe(store, 3);
      await subscribe(store, 3, { region: R2 });
      await subscribe(store, 3, { provider: 'provider_b' });
      await store.recordFailedRun({
        ...run('provider_a', new Date(T0 + 1_000)),
        success: false,
        counts: { regions: 0, instances: 0, pricing: 0 },
        errorCode: 'UPSTREAM_HTTP_ERROR',
        errorMessage: 'The upstream answered 503',
      });
      // One body for the six provider_a subscribers, region filter or not; none for provider_b's.
      expect(await count('select count(*) as n from webhook_events')).toBe(1);
      expect(await count('select count(*) as n from webhook_deliveries')).toBe(6);
    });

    it('prunes a body once no delivery refers to it', async () => {
      const [first, second] = await subscribe(store, 2);
      await store.applyProviderCatalog(firstCatalog(), run('provider_a', new Date(T0)));
      expect(await count('select count(*) as n from webhook_events')).toBe(4);
      // Deleting one subscriber keeps the bodies the other still needs.
      expect(await store.webhooks.delete(first!)).toBe(true);
      await store.webhooks.prune(T0 + 1);
      expect(await count('select count(*) as n from webhook_events')).toBe(4);
      for (const d of await store.webhooks.claimDue('replica', T0, 30_000, 100)) {
        expect(d.webhookId).toBe(second);
        await store.webhooks.recordAttempt(d.id, 'replica', { ok: true, status: 204, at: T0 });
      }
      // Delivered rows are kept for the retention period, and their bodies with them.
      await store.webhooks.prune(T0);
      expect(await count('select count(*) as n from webhook_events')).toBe(4);
      await store.webhooks.prune(T0 + 1);
      expect(await count('select count(*) as n from webhook_deliveries')).toBe(0);
      expect(await count('select count(*) as n from webhook_events')).toBe(0);
    });
  });
}

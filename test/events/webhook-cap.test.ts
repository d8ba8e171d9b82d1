// The 100-webhook cap under concurrent creates (issue 22 item 7), on every backend: creates
// racing in one process and on two replicas of one database never leave more than 100.
import { expect, it } from 'vitest';
import { createWebhook, MAX_WEBHOOKS } from '../../src/events/webhook-service.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { useFreshStore } from '../storage/contract/store-context.js';
import { describeStoreBackend, storeBackends } from '../support/backends.js';

const config = { allowPrivate: true, timeoutMs: 5_000 };

const create = (store: CatalogStore, i: number) =>
  createWebhook(
    store.webhooks,
    { url: new URL(`http://127.0.0.1:9/hook/${i}`), events: ['sync.failed'], filter: {} },
    config,
  );

for (const backend of await storeBackends()) {
  describeStoreBackend('webhook cap', backend, () => {
    const ctx = useFreshStore(backend);

    it('holds when 130 creates race on two replicas', async () => {
      const replicas = [ctx.store, await ctx.openAnother()];
      const results = await Promise.all(
        Array.from({ length: 130 }, (_, i) => create(replicas[i % 2]!, i)),
      );
      const created = results.filter((r) => r.ok);
      const refused = results.filter((r) => !r.ok);
      expect(created).toHaveLength(MAX_WEBHOOKS);
      expect(refused).toHaveLength(30);
      for (const r of refused) {
        expect(r.ok ? undefined : r.problem.code).toBe('INVALID_PARAMETER');
        expect(r.ok ? undefined : r.problem.message).toMatch(/at most 100 webhooks/);
      }
      expect(await ctx.store.webhooks.count()).toBe(MAX_WEBHOOKS);
      expect((await ctx.store.webhooks.list()).map((h) => h.id).sort()).toEqual(
        created.map((r) => (r.ok ? r.webhook.id : '')).sort(),
      );
    });

    it('frees a place when one is deleted, and only one', async () => {
      const first = await Promise.all(
        Array.from({ length: MAX_WEBHOOKS }, (_, i) => create(ctx.store, i)),
      );
      expect(first.every((r) => r.ok)).toBe(true);
      const victim = first[37]!;
      expect(await ctx.store.webhooks.delete(victim.ok ? victim.webhook.id : '')).toBe(true);
      const again = await Promise.all(Array.from({ length: 5 }, (_, i) => create(ctx.store, i)));
      expect(again.filter((r) => r.ok)).toHaveLength(1);
      expect(await ctx.store.webhooks.count()).toBe(MAX_WEBHOOKS);
    });
  });
}

// Issue 35 item 3: one slow webhook receiver delayed every other subscriber. With more tarpit
// receivers (they accept the request and never answer) than WEBHOOK_CONCURRENCY slots, oldest
// first, a healthy receiver got each event only after the tarpits' timeouts. Here, on every
// backend and with real local HTTP receivers, the healthy receiver gets its event while the
// tarpits still hold their slots: before their timeout could free one.
import { afterEach, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.js';
import { createDeliveryLoop, type DeliveryLoop } from '../../src/events/delivery-loop.js';
import { createWebhook } from '../../src/events/webhook-service.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { run } from '../storage/catalog-fixtures.js';
import { useFreshStore } from '../storage/contract/store-context.js';
import { describeStoreBackend, storeBackends } from '../support/backends.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const silent = { info: () => undefined, error: () => undefined };
const config: WebhookConfig = {
  allowPrivate: true,
  timeoutMs: 3_000,
  concurrency: 4,
  pollIntervalMs: 50,
  // Retries of the tarpits' attempts are not due within the test.
  retryBaseMs: 600_000,
};
const TARPITS = 6;

async function subscribe(store: CatalogStore, receiver: WebhookReceiver): Promise<string> {
  const created = await createWebhook(
    store.webhooks,
    { url: new URL(receiver.url), events: ['sync.failed'], filter: {} },
    config,
    new Date(Date.now() - 60_000),
  );
  if (!created.ok) throw new Error(created.problem.message);
  receiver.secret = created.webhook.secret;
  return created.webhook.id;
}

async function failSync(store: CatalogStore): Promise<void> {
  await store.recordFailedRun({
    ...run('provider_b', new Date()),
    success: false,
    counts: { regions: 0, instances: 0, pricing: 0 },
    errorCode: 'UPSTREAM_HTTP_ERROR',
    errorMessage: 'The upstream answered 503',
  });
}

for (const backend of await storeBackends()) {
  describeStoreBackend('webhook delivery fairness between targets', backend, () => {
    const ctx = useFreshStore(backend);
    const receivers: WebhookReceiver[] = [];
    const loops: DeliveryLoop[] = [];
    afterEach(async () => {
      await Promise.all(loops.splice(0).map((loop) => loop.stop()));
      await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    });

    it('claims at most perTarget of one target at once, across claimers, and failing targets only within their share', async () => {
      const { store } = ctx;
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      const hook = await subscribe(store, receiver);
      for (let i = 0; i < 5; i++) await failSync(store);
      const now = Date.now() + 1_000;
      const fair = { perTarget: 2, failing: 0 };
      const first = await store.webhooks.claimDue('replica_a', now, 30_000, 10, fair);
      expect(first.map((d) => [d.webhookId, d.targetFailing])).toEqual([
        [hook, false],
        [hook, false],
      ]);
      // The target holds its two: another claimer gets none of its other three.
      const other = await ctx.openAnother();
      expect(await other.webhooks.claimDue('replica_b', now, 30_000, 10, fair)).toEqual([]);
      // One attempt fails: the target is failing, so a claim with no failing share takes none.
      const failed = { ok: false as const, status: 500, error: 'HTTP 500', at: now };
      await store.webhooks.recordAttempt(first[0]!.id, 'replica_a', {
        ...failed,
        retryAt: now + 600_000,
      });
      expect(await other.webhooks.claimDue('replica_b', now, 30_000, 10, fair)).toEqual([]);
      const [taken, ...rest] = await other.webhooks.claimDue('replica_b', now, 30_000, 10, {
        perTarget: 2,
        failing: 1,
      });
      expect([taken?.targetFailing, rest]).toEqual([true, []]);
    });

    it('delivers to a healthy receiver while more tarpits than slots hold theirs', async () => {
      const { store } = ctx;
      const tarpitIds: string[] = [];
      for (let i = 0; i < TARPITS; i++) {
        const tarpit = await startWebhookReceiver();
        tarpit.script([], 'hang');
        receivers.push(tarpit);
        tarpitIds.push(await subscribe(store, tarpit));
      }
      const healthy = await startWebhookReceiver();
      receivers.push(healthy);
      // Deliveries of one event are queued in webhook id order (random ids): the healthy
      // subscription is made again until its id sorts last, as in the report, where oldest
      // first put every tarpit ahead of it.
      for (;;) {
        const id = await subscribe(store, healthy);
        if (tarpitIds.every((tarpit) => tarpit < id)) break;
        await store.webhooks.delete(id);
      }
      const loop = createDeliveryLoop({ store: store.webhooks, config, log: silent });
      loops.push(loop);
      loop.start();

      // The first event: nothing is known of the tarpits yet, so they take the slots until
      // their attempts time out; the healthy receiver gets it after that.
      await failSync(store);
      loop.kick();
      await healthy.waitFor(1, 4 * config.timeoutMs);

      // The second event: the tarpits that timed out are failing and those still in flight are
      // busy, so the healthy receiver's delivery is taken first.
      const sent = Date.now();
      await failSync(store);
      loop.kick();
      await healthy.waitFor(2, 4 * config.timeoutMs);
      expect(Date.now() - sent).toBeLessThan(config.timeoutMs);
      expect(healthy.received.map((r) => r.verified)).toEqual([true, true]);
    });
  });
}

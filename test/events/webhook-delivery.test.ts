// The delivery queue and loop (D42) against every backend and a real HTTP receiver that checks
// signatures: retries after a 500, the 24-hour backoff walked with a moved clock (no waiting),
// leases that keep a delivery to one sender and pass it on when the sender dies, two replicas
// sharing a queue, and a target that never answers.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.js';
import { createDeliveryLoop, leaseMs, type DeliveryLoop } from '../../src/events/delivery-loop.js';
import type { EventType } from '../../src/catalog/webhook-event-model.js';
import { createWebhook } from '../../src/events/webhook-service.js';
import { toChangeItem } from '../../src/catalog/price-change-json.js';
import {
  createPrometheusMetrics,
  type PrometheusMetrics,
} from '../../src/observability/metrics.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { catalog, offer, run } from '../storage/catalog-fixtures.js';
import { useFreshStore } from '../storage/contract/store-context.js';
import { describeStoreBackend, storeBackends } from '../support/backends.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const HOUR = 3_600_000;
const silent = { info: () => undefined, error: () => undefined };

function webhookConfig(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  return {
    allowPrivate: true,
    timeoutMs: 5_000,
    concurrency: 4,
    pollIntervalMs: 1_000,
    retryBaseMs: 60_000,
    ...overrides,
  };
}

async function subscribe(
  store: CatalogStore,
  receiver: WebhookReceiver,
  events: EventType[],
): Promise<string> {
  const created = await createWebhook(
    store.webhooks,
    { url: new URL(receiver.url), events, filter: {} },
    webhookConfig(),
    new Date(T0 - HOUR),
  );
  if (!created.ok) throw new Error(created.problem.message);
  receiver.secret = created.webhook.secret;
  return created.webhook.id;
}

function deliveryCounts(metrics: PrometheusMetrics): Promise<Record<string, number>> {
  return metrics.registry
    .getSingleMetric('cloudprice_webhook_deliveries_total')!
    .get()
    .then((metric) =>
      Object.fromEntries(metric.values.map((v) => [String(v.labels['outcome']), v.value])),
    );
}

const failedRun = (at: number) => ({
  ...run('provider_b', new Date(at)),
  success: false,
  counts: { regions: 0, instances: 0, pricing: 0 },
  errorCode: 'UPSTREAM_HTTP_ERROR',
  errorMessage: 'The upstream answered 503',
});

for (const backend of await storeBackends()) {
  describeStoreBackend('webhook delivery', backend, () => {
    const ctx = useFreshStore(backend);
    let receiver: WebhookReceiver;
    let clock = T0;
    let metrics: PrometheusMetrics;
    const loops: DeliveryLoop[] = [];
    const loopOn = (
      store: CatalogStore,
      overrides: Partial<WebhookConfig> = {},
      owner?: string,
    ) => {
      const loop = createDeliveryLoop({
        store: store.webhooks,
        config: webhookConfig(overrides),
        log: silent,
        metrics,
        now: () => clock,
        random: () => 0,
        ...(owner !== undefined && { owner }),
      });
      loops.push(loop);
      return loop;
    };

    beforeEach(async () => {
      receiver = await startWebhookReceiver();
      clock = T0;
      metrics = createPrometheusMetrics();
    });
    afterEach(async () => {
      await Promise.all(loops.splice(0).map((loop) => loop.stop()));
      await receiver.close();
    });

    it('signs every delivery, retries after a 500 and then delivers the same message', async () => {
      const { store } = ctx;
      const hook = await subscribe(store, receiver, ['sync.completed', 'price.changed']);
      const sync = run('provider_a', new Date(T0));
      await store.applyProviderCatalog(
        catalog('provider_a', [
          offer({ instanceId: 'a-1', regionCode: 'ap-northeast', monthlyMicros: 5_000_000 }),
          offer({ instanceId: 'a-2', regionCode: 'ap-northeast', monthlyMicros: 7_500_000 }),
        ]),
        sync,
      );
      const loop = loopOn(store);
      receiver.script([500, 500]);

      expect(await loop.runOnce()).toBe(2);
      expect(receiver.received.map((r) => [r.event.type, r.answered, r.verified])).toEqual([
        ['sync.completed', 500, true],
        ['price.changed', 500, true],
      ]);
      const pending = await store.webhooks.deliveries({ limit: 10, webhookId: hook });
      expect(
        pending.map((d) => [d.status, d.attempts, d.lastStatus, d.nextAttemptAt.getTime()]),
      ).toEqual([
        ['pending', 1, 500, T0 + 60_000],
        ['pending', 1, 500, T0 + 60_000],
      ]);
      // Not due yet: nothing is sent.
      clock = T0 + 59_999;
      expect(await loop.runOnce()).toBe(0);

      clock = T0 + 60_000;
      expect(await loop.runOnce()).toBe(2);
      const [first, second, third, fourth] = receiver.received;
      expect([third!.id, fourth!.id]).toEqual([first!.id, second!.id]);
      expect([third!.body, fourth!.body]).toEqual([first!.body, second!.body]);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(third!.timestamp).toBe((T0 + 60_000) / 1000);
      const delivered = await store.webhooks.deliveries({ limit: 10, webhookId: hook });
      expect(
        delivered.map((d) => [d.status, d.attempts, d.lastStatus, d.deliveredAt?.getTime()]),
      ).toEqual([
        ['delivered', 2, 200, T0 + 60_000],
        ['delivered', 2, 200, T0 + 60_000],
      ]);
      expect(await deliveryCounts(metrics)).toEqual({ retrying: 2, delivered: 2 });

      // The bodies, exactly.
      const feed = await store.history.changes({ since: new Date(0), limit: 10 });
      expect(JSON.parse(first!.body)).toEqual({
        type: 'sync.completed',
        timestamp: new Date(T0).toISOString(),
        data: {
          sync_id: sync.syncId,
          provider: 'provider_a',
          started_at: new Date(T0 - 1_000).toISOString(),
          completed_at: new Date(T0).toISOString(),
          // The catalogue covers all three provider_a regions (catalog-fixtures.ts).
          regions_synced: 3,
          instances_synced: 2,
          pricing_synced: 2,
          changes: 2,
        },
      });
      expect(JSON.parse(second!.body)).toEqual({
        type: 'price.changed',
        timestamp: new Date(T0).toISOString(),
        data: {
          sync_id: sync.syncId,
          provider: 'provider_a',
          part: 1,
          parts: 1,
          changes: feed.changes.map((change) => toChangeItem(change)),
        },
      });
      expect(feed.changes.map((c) => c.kind)).toEqual(['added', 'added']);
    });

    it('backs off exponentially and gives up 24 hours after the event', async () => {
      const { store } = ctx;
      const hook = await subscribe(store, receiver, ['sync.failed']);
      await store.recordFailedRun(failedRun(T0));
      receiver.script([], 503);
      const loop = loopOn(store, { retryBaseMs: HOUR });
      // Base 1 h, doubling, each wait capped at 6 h: 0, +1, +2, +4, +6, +6 hours; the next
      // (25 h) falls outside the window.
      const due = [0, 1, 3, 7, 13, 19].map((h) => T0 + h * HOUR);
      for (const [i, at] of due.entries()) {
        if (i > 0) {
          clock = at - 1;
          expect(await loop.runOnce(), `before attempt ${i + 1}`).toBe(0);
        }
        clock = at;
        expect(await loop.runOnce(), `attempt ${i + 1}`).toBe(1);
      }
      const [given] = await store.webhooks.deliveries({ limit: 1, webhookId: hook });
      expect([given!.status, given!.attempts, given!.lastStatus]).toEqual(['failed', 6, 503]);
      clock = T0 + 48 * HOUR;
      expect(await loop.runOnce()).toBe(0);
      expect(receiver.received).toHaveLength(6);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
      expect(receiver.received[0]!.event).toEqual({
        type: 'sync.failed',
        timestamp: new Date(T0).toISOString(),
        data: {
          sync_id: expect.stringMatching(/^sync_/) as unknown,
          provider: 'provider_b',
          started_at: new Date(T0 - 1_000).toISOString(),
          completed_at: new Date(T0).toISOString(),
          error: { code: 'UPSTREAM_HTTP_ERROR', message: 'The upstream answered 503' },
        },
      });
      expect(await deliveryCounts(metrics)).toEqual({ retrying: 5, failed: 1 });
    });

    it('keeps a claimed delivery from other claimers until the lease lapses', async () => {
      const { store } = ctx;
      await subscribe(store, receiver, ['sync.failed']);
      await store.recordFailedRun(failedRun(T0));
      const other = await ctx.openAnother();
      const lease = leaseMs(webhookConfig());
      const [mine] = await store.webhooks.claimDue('replica_a', T0, lease, 10);
      expect(mine).toBeDefined();
      expect(await other.webhooks.claimDue('replica_b', T0 + lease - 1, lease, 10)).toEqual([]);
      // replica_a died: once its lease lapses, replica_b takes the delivery over.
      const [taken] = await other.webhooks.claimDue('replica_b', T0 + lease + 1, lease, 10);
      expect(taken?.messageId).toBe(mine!.messageId);
      const late = { ok: true as const, status: 200, at: T0 + lease + 2 };
      expect(await store.webhooks.recordAttempt(mine!.id, 'replica_a', late)).toBe(false);
      expect(await other.webhooks.recordAttempt(taken!.id, 'replica_b', late)).toBe(true);
      const [row] = await store.webhooks.deliveries({ limit: 1 });
      expect([row!.status, row!.attempts]).toEqual(['delivered', 1]);
    });

    it('delivers each event once when two replicas share the queue', async () => {
      const { store } = ctx;
      await subscribe(store, receiver, ['sync.failed']);
      for (let i = 0; i < 24; i++) await store.recordFailedRun(failedRun(T0 - i));
      const replicaA = loopOn(store, { concurrency: 3 }, 'replica_a');
      const replicaB = loopOn(await ctx.openAnother(), { concurrency: 3 }, 'replica_b');
      let claimed = 0;
      for (let pass = 0; pass < 20 && claimed < 24; pass++) {
        const [a, b] = await Promise.all([replicaA.runOnce(), replicaB.runOnce()]);
        claimed += a + b;
      }
      expect(claimed).toBe(24);
      expect(receiver.received).toHaveLength(24);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(24);
      const rows = await store.webhooks.deliveries({ limit: 100 });
      expect(rows.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    });

    it('gives up an attempt on a target that never answers, without holding the loop', async () => {
      const { store } = ctx;
      const hook = await subscribe(store, receiver, ['sync.failed']);
      await store.recordFailedRun(failedRun(T0));
      receiver.script(['hang']);
      const loop = loopOn(store, { timeoutMs: 300 });
      expect(await loop.runOnce()).toBe(1);
      const [row] = await store.webhooks.deliveries({ limit: 1, webhookId: hook });
      expect([row!.status, row!.attempts, row!.lastStatus]).toEqual(['pending', 1, null]);
      expect(row!.lastError).toMatch(/timeout|abort/i);
    });

    it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/'])(
      'never connects to the link-local or metadata target %s, private targets allowed or not',
      async (url) => {
        const { store } = ctx;
        // Stored directly, as a subscription made before the rule existed would be.
        const hook = await store.webhooks.create(
          {
            url,
            secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=',
            events: ['sync.failed'],
            filter: {},
            createdAt: new Date(T0 - HOUR),
          },
          100,
        );
        await store.recordFailedRun(failedRun(T0));
        const loop = loopOn(store, { allowPrivate: true, timeoutMs: 30_000 });
        const started = Date.now();
        expect(await loop.runOnce()).toBe(1);
        // Refused before any connection: no connect timeout was waited for.
        expect(Date.now() - started).toBeLessThan(5_000);
        const [row] = await store.webhooks.deliveries({ limit: 1, webhookId: hook!.id });
        expect([row!.status, row!.attempts, row!.lastStatus]).toEqual(['pending', 1, null]);
        expect(row!.lastError).toMatch(/^target refused: .*link-local or cloud metadata/);
      },
    );

    it('refuses at delivery a target whose address became private', async () => {
      const { store } = ctx;
      const hook = await subscribe(store, receiver, ['sync.failed']);
      await store.recordFailedRun(failedRun(T0));
      const loop = loopOn(store, { allowPrivate: false });
      expect(await loop.runOnce()).toBe(1);
      expect(receiver.received).toEqual([]);
      const [row] = await store.webhooks.deliveries({ limit: 1, webhookId: hook });
      expect(row!.lastError).toMatch(/^target refused: .*private/);
    });
  });
}

// Stopping the delivery loop at shutdown (issue 22, suspicion: "a webhook attempt in flight, up
// to 20 s, outlives SHUTDOWN_GRACE, 5 s"), on every backend, with a real receiver that holds
// the request open: stop() ends the attempt at once instead of waiting out WEBHOOK_TIMEOUT, the
// delivery stays queued without an attempt counted, and another replica sends it at once with
// the same webhook-id.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.js';
import { createDeliveryLoop, type DeliveryLoop } from '../../src/events/delivery-loop.js';
import { createWebhook } from '../../src/events/webhook-service.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { run } from '../storage/catalog-fixtures.js';
import { useFreshStore } from '../storage/contract/store-context.js';
import { describeStoreBackend, storeBackends } from '../support/backends.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
/** The defaults: WEBHOOK_TIMEOUT 10 s (an attempt may take twice that), SHUTDOWN_GRACE 5 s. */
const WEBHOOK_TIMEOUT_MS = 10_000;
const SHUTDOWN_GRACE_MS = 5_000;
const silent = { info: () => undefined, error: () => undefined };

const config: WebhookConfig = {
  allowPrivate: true,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  concurrency: 4,
  pollIntervalMs: 1_000,
  retryBaseMs: 60_000,
};

for (const backend of await storeBackends()) {
  describeStoreBackend('webhook delivery loop at shutdown', backend, () => {
    const ctx = useFreshStore(backend);
    let receiver: WebhookReceiver;
    const loops: DeliveryLoop[] = [];
    const loopOn = (store: CatalogStore, owner: string) => {
      const loop = createDeliveryLoop({
        store: store.webhooks,
        config,
        log: silent,
        now: () => T0,
        random: () => 0,
        owner,
      });
      loops.push(loop);
      return loop;
    };

    beforeEach(async () => {
      receiver = await startWebhookReceiver();
      const created = await createWebhook(
        ctx.store.webhooks,
        { url: new URL(receiver.url), events: ['sync.failed'], filter: {} },
        config,
        new Date(T0 - 60_000),
      );
      if (!created.ok) throw new Error(created.problem.message);
      receiver.secret = created.webhook.secret;
      await ctx.store.recordFailedRun({
        ...run('provider_b', new Date(T0)),
        success: false,
        counts: { regions: 0, instances: 0, pricing: 0 },
        errorCode: 'UPSTREAM_HTTP_ERROR',
        errorMessage: 'The upstream answered 503',
      });
    });
    afterEach(async () => {
      await Promise.all(loops.splice(0).map((loop) => loop.stop()));
      await receiver.close();
    });

    it('aborts an attempt the target holds open, well within the shutdown grace', async () => {
      receiver.script(['hang']);
      const loop = loopOn(ctx.store, 'replica_a');
      const pass = loop.runOnce();
      await receiver.waitFor(1);

      const started = performance.now();
      await loop.stop();
      const stopMs = performance.now() - started;
      expect(stopMs).toBeLessThan(SHUTDOWN_GRACE_MS / 5);
      expect(await pass).toBe(1);

      // Still queued, no attempt counted, claim released: due now, for anyone.
      const [row] = await ctx.store.webhooks.deliveries({ limit: 1 });
      expect([row!.status, row!.attempts, row!.lastStatus]).toEqual(['pending', 0, null]);
      const other = loopOn(await ctx.openAnother(), 'replica_b');
      expect(await other.runOnce()).toBe(1);
      expect(receiver.received.map((r) => r.answered)).toEqual([null, 200]);
      expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      const [done] = await ctx.store.webhooks.deliveries({ limit: 1 });
      expect([done!.status, done!.attempts]).toEqual(['delivered', 1]);
    });

    it('gives attempts in flight the grace asked for, then aborts them', async () => {
      receiver.script(['hang']);
      const loop = loopOn(ctx.store, 'replica_a');
      const pass = loop.runOnce();
      await receiver.waitFor(1);
      const started = performance.now();
      await loop.stop({ graceMs: 400 });
      const stopMs = performance.now() - started;
      expect(stopMs).toBeGreaterThanOrEqual(390);
      expect(stopMs).toBeLessThan(400 + SHUTDOWN_GRACE_MS / 5);
      await pass;
      const [row] = await ctx.store.webhooks.deliveries({ limit: 1 });
      expect([row!.status, row!.attempts]).toEqual(['pending', 0]);
      // A stopped loop claims nothing more on its own.
      loop.start();
      loop.kick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(1);
      const [after] = await ctx.store.webhooks.deliveries({ limit: 1 });
      expect(after!.attempts).toBe(0);
    });
  });
}

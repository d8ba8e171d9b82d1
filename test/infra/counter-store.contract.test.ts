/**
 * The CounterStore contract, run against every backend (memory, Redis). The rate limiter relies
 * on exactly these behaviours: counts start at 1, keys are independent, a counter vanishes ttlMs
 * after its FIRST increment (fixed window, not sliding), and concurrent increments never lose or
 * duplicate a count.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CounterStore } from '../../src/infra/counter-store.js';
import { counterStoreBackends, describeBackend } from '../support/infra-backends.js';
import { sleep } from '../support/wait.js';

/** Long enough never to expire during a test. */
const LONG_TTL_MS = 60_000;

for (const backend of await counterStoreBackends()) {
  describeBackend('CounterStore contract', backend, () => {
    let store: CounterStore;
    let other: CounterStore;

    beforeAll(() => {
      store = backend.create();
      other = backend.create();
    });
    afterAll(async () => {
      await Promise.all([store.close(), other.close()]);
      await backend.cleanup();
    });

    it('counts from 1 upwards', async () => {
      expect(await store.increment('counts-from-one', LONG_TTL_MS)).toBe(1);
      expect(await store.increment('counts-from-one', LONG_TTL_MS)).toBe(2);
      expect(await store.increment('counts-from-one', LONG_TTL_MS)).toBe(3);
    });

    it('keeps separate keys independent', async () => {
      expect(await store.increment('independent:a', LONG_TTL_MS)).toBe(1);
      expect(await store.increment('independent:a', LONG_TTL_MS)).toBe(2);
      expect(await store.increment('independent:b', LONG_TTL_MS)).toBe(1);
      expect(await store.increment('independent:a', LONG_TTL_MS)).toBe(3);
      expect(await store.increment('independent:b', LONG_TTL_MS)).toBe(2);
    });

    it('accepts any key text (addresses, colons, spaces, non-ASCII)', async () => {
      const keys = ['rl:2001:db8::1:/instances:29000000', 'with space', 'ключ-鍵', ''];
      for (const key of keys) expect(await store.increment(`odd:${key}`, LONG_TTL_MS)).toBe(1);
      for (const key of keys) expect(await store.increment(`odd:${key}`, LONG_TTL_MS)).toBe(2);
    });

    it('forgets a counter once ttlMs has passed since its first increment', async () => {
      expect(await store.increment('expires', 200)).toBe(1);
      expect(await store.increment('expires', 200)).toBe(2);
      await sleep(450);
      expect(await store.increment('expires', 200)).toBe(1);
    });

    it('measures the ttl from the first increment, not the latest (fixed window)', async () => {
      // Incrementing every ~25 ms would keep a sliding counter alive for ever; a fixed window
      // must restart at 1 about every 200 ms. The loop is bounded and stops at the first reset.
      let previous = await store.increment('fixed-window', 200);
      expect(previous).toBe(1);
      let restarted = false;
      for (let i = 0; i < 80 && !restarted; i += 1) {
        await sleep(25);
        const count = await store.increment('fixed-window', 200);
        restarted = count === 1;
        if (!restarted) expect(count).toBe(previous + 1);
        previous = count;
      }
      expect(restarted).toBe(true);
    });

    it('gives 200 concurrent increments exactly the counts 1..200', async () => {
      const counts = await Promise.all(
        Array.from({ length: 200 }, () => store.increment('concurrent', LONG_TTL_MS)),
      );
      const expected = Array.from({ length: 200 }, (_, i) => i + 1);
      expect(counts.sort((a, b) => a - b)).toEqual(expected);
    });

    it('rejects a ttl that is not a positive whole number of milliseconds', async () => {
      for (const ttl of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(store.increment('bad-ttl', ttl)).rejects.toThrow(RangeError);
      }
    });

    it('answers ping while it is usable', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it.runIf(backend.sharedAcrossInstances)(
      'counts together across instances (replicas)',
      async () => {
        expect(await store.increment('shared', LONG_TTL_MS)).toBe(1);
        expect(await other.increment('shared', LONG_TTL_MS)).toBe(2);
        expect(await store.increment('shared', LONG_TTL_MS)).toBe(3);
      },
    );

    it('rejects increment and ping after close', async () => {
      const closing = backend.create();
      await closing.close();
      await expect(closing.increment('after-close', LONG_TTL_MS)).rejects.toThrow();
      await expect(closing.ping()).rejects.toThrow();
    });
  });
}

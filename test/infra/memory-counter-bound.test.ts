// Bounded memory where clients choose the key (issue 9 item 3): the in-process counter store
// holds at most RATE_LIMIT_MAX_COUNTERS counters. At the bound a NEW client is refused with
// 503 (fail closed, never served uncounted); clients that already hold a counter keep being
// counted exactly; expired counters make room again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CounterStoreFullError,
  MemoryCounterStore,
} from '../../src/infra/memory/memory-counter-store.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';
import { eventually } from '../support/wait.js';

describe('MemoryCounterStore bound', () => {
  it('refuses a new key when full, keeps counting held keys, and makes room once they expire', async () => {
    const store = new MemoryCounterStore({ maxKeys: 3 });
    try {
      for (const key of ['a', 'b', 'c']) expect(await store.increment(key, 300)).toBe(1);
      await expect(store.increment('d', 60_000)).rejects.toBeInstanceOf(CounterStoreFullError);
      expect(await store.increment('a', 300)).toBe(2);
      expect(store.size).toBe(3);
      // Once a, b and c expired, a full table sweeps (at most once a second) and admits d.
      expect(await eventually(() => store.increment('d', 60_000), 5_000, 100)).toBe(1);
      expect(store.size).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('GET /instances under a flood of new client addresses', () => {
  const MAX = 1_000;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX_COUNTERS: String(MAX),
      CLIENT_IP_HEADER: 'X-Forwarded-For',
    });
    t.setNow(FIXED_NOW);
  });
  afterAll(() => t.close());

  const get = (client: string) =>
    t.app.inject({
      url: '/instances?limit=1',
      headers: { ...auth, 'x-forwarded-for': client },
    });

  it('serves clients up to the bound, refuses the next with 503, and still limits held clients exactly', async () => {
    const first = await get('10.0.0.0');
    expect(first.statusCode).toBe(200);
    for (let i = 1; i < MAX; i++) {
      expect((await get(`10.0.${i >> 8}.${i & 255}`)).statusCode).toBe(200);
    }
    const refused = await get('10.9.9.9');
    expect(refused.statusCode).toBe(503);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.headers['retry-after']).toBeDefined();

    // The first client holds a counter: its limit (100 a minute) is still exact.
    for (let n = 2; n <= 100; n++) expect((await get('10.0.0.0')).statusCode).toBe(200);
    expect((await get('10.0.0.0')).statusCode).toBe(429);
  });
});

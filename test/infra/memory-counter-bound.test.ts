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

describe('GET /instances under a flood of new IPv6 clients', () => {
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

  /** Sends until the limit (100 a minute): each answer is 200 with remaining one lower, then 429. */
  async function expectExactLimit(addresses: readonly string[], alreadySent: number) {
    for (let n = alreadySent + 1; n <= 100; n++) {
      const response = await get(addresses[n % addresses.length]!);
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(100 - n));
    }
    for (const address of addresses) expect((await get(address)).statusCode).toBe(429);
  }

  it('bounds IPv6 /64 clients like IPv4 ones and limits IPv6 and IPv4-mapped clients exactly', async () => {
    // A /64 client and an IPv4-mapped client (which counts as its IPv4 address) hold counters.
    expect((await get('2001:db8:a::1')).statusCode).toBe(200);
    expect((await get('::ffff:10.1.2.3')).statusCode).toBe(200);
    for (let i = 2; i < MAX; i++) {
      expect((await get(`2001:db8:${i.toString(16)}:1::7`)).statusCode).toBe(200);
    }
    expect((await get('2001:db8:ffff:1::7')).statusCode).toBe(503);
    expect((await get('10.9.9.9')).statusCode).toBe(503);

    // Any address of the /64, however written, is the one held client.
    await expectExactLimit(['2001:db8:a:0:ffff::2', '2001:0DB8:000A::1', '2001:db8:a::1'], 1);
    // The IPv4-mapped forms and the plain IPv4 address are one client.
    await expectExactLimit(['::ffff:10.1.2.3', '10.1.2.3', '::ffff:a01:203'], 1);
  });
});

// Issue 35 item 4: requests with a wrong key from ever new IPv6 /64s created counters in the one
// in-memory limiter table until new clients with a valid key got 503. Requests without a valid
// key now create counters only in a room of their own (RATE_LIMIT_MAX_UNAUTHENTICATED_COUNTERS),
// so a flood of them fills that room and cannot refuse the valid path; an address's count is
// still one count, whichever kind of request adds to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURE_LIMIT } from '../../src/http/app.js';
import {
  CounterStoreFullError,
  MemoryCounterStore,
} from '../../src/infra/memory/memory-counter-store.js';
import { sleep } from '../support/wait.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

const MAX = 1_000;

describe('MemoryCounterStore untrusted room', () => {
  it('bounds counters made by untrusted increments apart, and keeps one count per key', async () => {
    const store = new MemoryCounterStore({ maxKeys: 2, maxUntrustedKeys: 2 });
    try {
      expect(await store.increment('u1', 60_000, true)).toBe(1);
      expect(await store.increment('u2', 60_000, true)).toBe(1);
      await expect(store.increment('u3', 60_000, true)).rejects.toBeInstanceOf(
        CounterStoreFullError,
      );
      // The untrusted room is full; the main room is untouched.
      expect(await store.increment('t1', 60_000)).toBe(1);
      // One count per key, whoever adds to it; a trusted increment moves it to the main room.
      expect(await store.increment('t1', 60_000, true)).toBe(2);
      expect(await store.increment('u1', 60_000)).toBe(2);
      expect(await store.increment('u3', 60_000, true)).toBe(1);
      // The main room is full now (t1, u1): a new trusted key is refused, held ones counted.
      await expect(store.increment('t2', 60_000)).rejects.toBeInstanceOf(CounterStoreFullError);
      await expect(store.increment('u2', 60_000)).rejects.toBeInstanceOf(CounterStoreFullError);
      expect(await store.increment('u2', 60_000, true)).toBe(2);
      expect(store.size).toBe(4);
    } finally {
      await store.close();
    }
  });

  it('counts a trusted increment afresh when the sweep that makes its room drops its expired counter', async () => {
    const store = new MemoryCounterStore({ maxKeys: 1, maxUntrustedKeys: 1 });
    try {
      expect(await store.increment('expired-main', 50)).toBe(1);
      expect(await store.increment('x', 50, true)).toBe(1);
      await sleep(80);
      // Main room full until swept; the sweep drops both, so 'x' starts again in the main room.
      expect(await store.increment('x', 60_000)).toBe(1);
      expect(await store.increment('x', 60_000)).toBe(2);
      expect(store.size).toBe(1);
      expect(await store.increment('y', 60_000, true)).toBe(1);
      expect(store.size).toBe(2);
    } finally {
      await store.close();
    }
  });
});

describe('a flood of wrong keys from new IPv6 /64s (in-memory limiter)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX_COUNTERS: String(MAX),
      RATE_LIMIT_MAX_UNAUTHENTICATED_COUNTERS: String(MAX),
      CLIENT_IP_HEADER: 'X-Forwarded-For',
    });
    t.setNow(FIXED_NOW);
  });
  afterAll(() => t.close());

  const get = (client: string, key: string = auth['x-api-key'], url = '/instances?limit=1') =>
    t.app.inject({ url, headers: { 'x-api-key': key, 'x-forwarded-for': client } });
  const wrongKey = 'wrong-key-0123456789abcdefghijkl';

  it('never makes a new client with a valid key wait: it is served while the flood is refused', async () => {
    // A client with a valid key holds a counter from before the flood.
    expect((await get('2001:db8:aaaa:1::1')).statusCode).toBe(200);

    // Three times as many wrong-key clients as either table holds, on a limited and an unlimited
    // route: each is refused (401, or 503 once their own table is full), never served.
    const statuses = new Set<number>();
    for (let i = 0; i < 3 * MAX; i++) {
      const url = i % 2 === 0 ? '/instances?limit=1' : '/health';
      statuses.add((await get(`2001:db8:${i.toString(16)}:2::9`, wrongKey, url)).statusCode);
    }
    expect([...statuses].sort()).toEqual([401, 503]);

    // New clients with a valid key are served, up to the valid table's own bound.
    for (let i = 0; i < 50; i++) {
      expect((await get(`2001:db8:${i.toString(16)}:3::1`)).statusCode).toBe(200);
    }
    // The held client is still counted exactly: 100 a minute, 52 used (1 + 50 + 1 below).
    const held = await get('2001:db8:aaaa:1::1');
    expect([held.statusCode, held.headers['ratelimit-remaining']]).toEqual([200, '98']);
  });

  it('still limits failed attempts from one address to AUTH_FAILURE_LIMIT a minute, then 429', async () => {
    // Another app: the flood above left its table full (counters expire in real time).
    await t.close();
    t = await createTestApp({ CLIENT_IP_HEADER: 'X-Forwarded-For' });
    t.setNow(FIXED_NOW);
    const guesser = '2001:db8:bbbb:1::1';
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) {
      expect((await get(guesser, wrongKey)).statusCode).toBe(401);
    }
    const refused = await get(guesser, wrongKey);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ error: { details: { limit: number } } }>().error.details.limit).toBe(
      AUTH_FAILURE_LIMIT,
    );
    // The same address with a valid key is not affected (D7a).
    expect((await get(guesser)).statusCode).toBe(200);
  });
});

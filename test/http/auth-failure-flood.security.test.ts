// Issue 35 item 4: requests with a wrong key from ever new IPv6 /64s created counters in the one
// in-memory limiter table until new clients with a valid key got 503. Requests without a valid
// key are now counted in a table of their own (RATE_LIMIT_MAX_AUTH_FAILURE_COUNTERS), so a
// flood of them fills only that one: it cannot refuse or evict the counters of the valid path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURE_LIMIT } from '../../src/http/app.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

const MAX = 1_000;

describe('a flood of wrong keys from new IPv6 /64s (in-memory limiter)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_MAX_COUNTERS: String(MAX),
      RATE_LIMIT_MAX_AUTH_FAILURE_COUNTERS: String(MAX),
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

// POST /recommend memoises whole answers per catalogue index and normalised request (issue 9):
// every memoised answer must be the one a fresh computation gives for that request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recommendFor } from '../../src/recommend/recommend-service.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

/** Requests that differ from the first in one field each: a key that ignored it would answer wrong. */
const REQUESTS: readonly Record<string, unknown>[] = [
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'medium', budget_max: 80 },
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'medium', budget_max: 40 },
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'medium' },
  { stack: ['redis', 'postgresql', 'nodejs', 'nginx'], scale: 'medium', budget_max: 80 },
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'large', budget_max: 80 },
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'medium', budget_max: 80, limit: 3 },
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'medium', currency: 'EUR' },
  { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'medium', currency: 'JPY' },
  { stack: ['nodejs'], scale: 'small', providers: ['provider_b', 'provider_a'] },
  { stack: ['nodejs'], scale: 'small', providers: ['provider_a', 'provider_b', 'provider_a'] },
  { stack: ['nodejs'], scale: 'small', providers: ['provider_c'] },
  { stack: ['nodejs'], scale: 'small', regions: ['nrt', 'ap-northeast-1'] },
  { stack: ['nodejs'], scale: 'small', regions: ['ap-northeast-1'] },
];

describe('POST /recommend memo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(2000, 5));
    await t.services.catalog.refresh();
  });
  afterAll(() => t.close());

  const post = async (payload: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload,
    });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const withoutTime = (body: string) => body.replace(/"query_time_ms":\d+/, '"query_time_ms":0');

  it('answers every request, first or repeated, as a fresh computation does', async () => {
    // Three rounds: the first leaves the keys, the second keeps the answers, the third reads them.
    for (let round = 0; round < 3; round++) {
      for (const payload of REQUESTS) {
        const response = await post(payload);
        const fresh = await recommendFor(payload, t.services);
        if (!fresh.ok) throw new Error(fresh.error.message);
        const body = response.json<{ data: unknown; meta: Record<string, unknown> }>();
        expect(body.data).toEqual(fresh.data);
        if (fresh.exchangeRate === undefined) expect(body.meta.exchange_rate).toBeUndefined();
        else expect(body.meta.exchange_rate).toMatchObject(fresh.exchangeRate);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    }
  });

  it('sends the same bytes for a repeat, apart from the query time', async () => {
    const first = await post(REQUESTS[0]!);
    const second = await post(REQUESTS[0]!);
    const third = await post(REQUESTS[0]!);
    expect(withoutTime(second.body)).toBe(withoutTime(first.body));
    expect(withoutTime(third.body)).toBe(withoutTime(first.body));
    expect(second.body).toMatch(/"meta":\{"query_time_ms":\d+\}\}$/);
  });

  it('answers from the new catalogue once it is served, not from the memo', async () => {
    const payload = REQUESTS[0]!;
    const before = await post(payload);
    await loadCatalogs(t.services.store, generateCatalogs(900, 99));
    await t.services.catalog.refresh();
    const after = await post(payload);
    const fresh = await recommendFor(payload, t.services);
    if (!fresh.ok) throw new Error(fresh.error.message);
    expect(after.json<{ data: unknown }>().data).toEqual(fresh.data);
    expect(withoutTime(after.body)).not.toBe(withoutTime(before.body));
  });
});

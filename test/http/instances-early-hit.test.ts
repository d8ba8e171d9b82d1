// A repeated GET /instances is answered from the response cache in the onRequest hook, once the
// rate limit and the key have passed (ADR 0009): only for a raw request (URL and Accept) that a
// validated request named (on a cache hit), with the same bytes and headers as the validating path's hit.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

describe('GET /instances answered early from the response cache', () => {
  let t: TestApp;
  let early: Array<Buffer | undefined>;
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(300, 5));
    const listing = t.services.listing;
    const cachedFor = listing.cachedFor.bind(listing);
    early = [];
    vi.spyOn(listing, 'cachedFor').mockImplementation((alias) => {
      const body = cachedFor(alias);
      early.push(body);
      return body;
    });
  });
  afterAll(() => t.close());

  interface Listed {
    data: { metadata: { cached: boolean; query_time_ms: number } };
  }
  const cachedOf = (response: { json: <T>() => T }) => response.json<Listed>().data.metadata.cached;
  const get = (query: string, headers: Record<string, string> = auth) =>
    t.app.inject({ method: 'GET', url: `/instances${query}`, headers });
  /** What must be equal between two answers of one cached query. */
  const same = (headers: Record<string, unknown>) => {
    const { 'x-request-id': id, 'ratelimit-remaining': remaining, date, ...rest } = headers;
    expect(id).toEqual(expect.any(String));
    expect(remaining).toEqual(expect.any(String));
    void date;
    return rest;
  };

  it('sends the validating path hit, byte for byte and header for header, and still counts the request', async () => {
    const miss = await get('?min_vcpu=2&sort_by=vcpu&limit=20');
    expect(cachedOf(miss)).toBe(false);
    early.length = 0;
    // Another spelling of the same query: a validated hit, which names this raw request.
    const validated = await get('?limit=20&sort_by=vcpu&min_vcpu=2');
    expect(early).toEqual([undefined]);
    const again = await get('?limit=20&sort_by=vcpu&min_vcpu=2');
    expect(early).toHaveLength(2);
    expect(Buffer.isBuffer(early[1])).toBe(true);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(validated.rawPayload)).toBe(true);
    expect(again.json<Listed>().data.metadata).toMatchObject({ cached: true, query_time_ms: 0 });
    expect(same(again.headers)).toEqual(same(validated.headers));
    expect(Object.keys(again.headers)).toEqual(Object.keys(validated.headers));
    expect(Number(again.headers['ratelimit-remaining'])).toBe(
      Number(validated.headers['ratelimit-remaining']) - 1,
    );
  });

  it('is not reached without a valid key', async () => {
    await get('?limit=9');
    await get('?limit=9');
    expect(cachedOf(await get('?limit=9'))).toBe(true);
    early.length = 0;
    const refused = await get('?limit=9', { 'x-api-key': 'wrong' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('UNAUTHORIZED');
    expect(early).toEqual([]);
  });

  it('keys on Accept: the same URL asking for CSV gets CSV', async () => {
    await get('?limit=8');
    await get('?limit=8');
    early.length = 0;
    const csv = await get('?limit=8', { ...auth, accept: 'text/csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(early).toEqual([undefined]);
  });

  it('remembers a raw request only once it hits: a query asked once leaves no alias', async () => {
    await get('?limit=4');
    early.length = 0;
    await get('?limit=4');
    expect(early).toEqual([undefined]);
    await get('?limit=4');
    expect(early[1]).toBeInstanceOf(Buffer);
  });

  it('never remembers an invalid or past-catalogue request', async () => {
    for (let i = 0; i < 2; i++) {
      const invalid = await get('?limit=abc');
      expect(invalid.statusCode).toBe(400);
      const past = await get('?limit=6&as_of=2026-01-01T00:00:00Z');
      expect(past.headers['cache-control']).toBe('no-store');
    }
    early.length = 0;
    await get('?limit=abc');
    await get('?limit=6&as_of=2026-01-01T00:00:00Z');
    expect(early).toEqual([undefined, undefined]);
  });

  it('forgets with the cache: new exchange rates answer a miss again', async () => {
    await get('?limit=5');
    expect(cachedOf(await get('?limit=5'))).toBe(true);
    expect(cachedOf(await get('?limit=5'))).toBe(true);
    expect(early.at(-1)).toBeInstanceOf(Buffer);
    t.services.listing.invalidate();
    early.length = 0;
    expect(cachedOf(await get('?limit=5'))).toBe(false);
    expect(early).toEqual([undefined]);
  });
});

// Bad input to the history endpoints: 400 INVALID_PARAMETER / 404 NOT_FOUND envelopes, and the
// shared /instances rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Envelope {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('history endpoints refuse bad input', () => {
  let t: TestApp;
  let client = 0;
  const get = (url: string, remoteAddress = `10.8.0.${++client}`) =>
    t.app.inject({ method: 'GET', url, headers: auth, remoteAddress });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(['abc', '0', '-1', '1.5', '1e3', '99999999999999999999'])(
    'answers /instances/%s/history with 400 INVALID_PARAMETER',
    async (id) => {
      const response = await get(`/instances/${id}/history`);
      expect(response.statusCode).toBe(400);
      expect(response.json<Envelope>().error).toMatchObject({
        code: 'INVALID_PARAMETER',
        details: { parameter: 'id', value: id },
      });
    },
  );

  it('answers an unknown record with 404 NOT_FOUND', async () => {
    const response = await get('/instances/424242/history');
    expect(response.statusCode).toBe(404);
    expect(response.json<Envelope>()).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No instance record with id 424242' },
    });
  });

  it.each([
    ['since=yesterday', 'since'],
    ['since=2026-02-30', 'since'],
    ['since=2026-01-01T25:00:00Z', 'since'],
    ['until=2026-01-01T00:00:00', 'until'],
    ['since=2026-01-02&until=2026-01-01', 'since'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=ten', 'limit'],
    ['kind=price_changed', 'kind'],
    ['provider=aws', 'provider'],
    ['region=us-east-1', 'region'],
    ['cursor=not-a-cursor!', 'cursor'],
    ['cursor=bm9wZQ', 'cursor'],
    ['since=2026-01-01&since=2026-01-02', 'since'],
    ['currency=jpy', 'currency'],
    ['currency=XXX', 'currency'],
    ['currency=JPY&currency=KRW', 'currency'],
  ])('answers /changes?%s with 400 INVALID_PARAMETER naming %s', async (query, parameter) => {
    const response = await get(`/changes?${query}`);
    expect(response.statusCode).toBe(400);
    const error = response.json<Envelope>().error;
    expect(error.code).toBe('INVALID_PARAMETER');
    expect(error.details?.['parameter']).toBe(parameter);
  });

  it('lists the allowed kinds when the kind is unknown', async () => {
    const response = await get('/changes?kind=x');
    expect(response.json<Envelope>().error.details?.['allowed']).toEqual([
      'added',
      'removed',
      'returned',
      'price_increased',
      'price_decreased',
    ]);
  });

  it.each(['/changes?currency=BTC', '/instances/1/history?currency=BTC'])(
    'answers %s with 400 INVALID_PARAMETER listing the currencies (D43)',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(400);
      const details = response.json<Envelope>().error.details;
      expect(details).toMatchObject({ parameter: 'currency', value: 'BTC' });
      expect(details?.['allowed']).toEqual(expect.arrayContaining(['USD', 'EUR', 'JPY', 'KRW']));
      expect((details?.['allowed'] as string[])[0]).toBe('USD');
    },
  );

  it('answers an empty feed with an empty page and no cursor', async () => {
    const response = await get('/changes');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { changes: [], next_cursor: null } });
  });

  it.each(['2999-01-01', 'tomorrow', '2026-13-01'])(
    'answers /instances?as_of=%s with 400 INVALID_PARAMETER',
    async (asOf) => {
      const response = await get(`/instances?as_of=${asOf}`);
      expect(response.statusCode).toBe(400);
      expect(response.json<Envelope>().error.details).toMatchObject({
        parameter: 'as_of',
        value: asOf,
      });
    },
  );

  it('counts /changes and /history against the one /instances budget', async () => {
    const address = '10.8.9.9';
    for (let i = 0; i < 50; i++) expect((await get('/instances', address)).statusCode).toBe(200);
    for (let i = 0; i < 49; i++) expect((await get('/changes', address)).statusCode).toBe(200);
    expect((await get('/instances/1/history', address)).statusCode).toBe(404);
    const refused = await get('/changes', address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<Envelope>().error.details).toMatchObject({ limit: 100 });
  });
});

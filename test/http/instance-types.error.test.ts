// Bad input to GET /instance-types (D46): 400 INVALID_PARAMETER with the allowed values, never a
// 5xx; and its share of the one /instances rate-limit budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION_CODES } from '../../src/catalog/model.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Envelope {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('GET /instance-types refuses bad input', () => {
  let t: TestApp;
  let client = 0;
  const get = (url: string, remoteAddress = `10.11.0.${++client}`) =>
    t.app.inject({ method: 'GET', url, headers: auth, remoteAddress });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['currency=BTC', 'currency'],
    ['currency=jpy', 'currency'],
    ['regions=icn,,nrt', 'regions'],
    ['regions=icn,', 'regions'],
    ['regions=', 'regions'],
    ['regions=icn, nrt', 'regions'],
    ['regions=ICN', 'regions'],
    ['regions=us-east-1', 'regions'],
    [`regions=${'icn,'.repeat(100)}icn`, 'regions'],
    ['regions=icn&regions=nrt', 'regions'],
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['sort_by=price', 'sort_by'],
    ['order=up', 'order'],
    ['available_in=some', 'available_in'],
    ['provider=aws', 'provider'],
    ['min_vcpu=4&max_vcpu=2', 'min_vcpu'],
    ['max_price=-1', 'max_price'],
    ['region=icn', 'region'],
    ['as_of=2026-01-01', 'as_of'],
  ])('answers ?%s with 400 INVALID_PARAMETER naming %s', async (query, parameter) => {
    const response = await get(`/instance-types?${query}`);
    expect(response.statusCode).toBe(400);
    const error = response.json<Envelope>().error;
    expect(error.code).toBe('INVALID_PARAMETER');
    expect(error.details?.['parameter']).toBe(parameter);
    expect(String(error.details?.['value']).length).toBeLessThanOrEqual(100);
  });

  it('lists the region codes for a malformed region list', async () => {
    const response = await get('/instance-types?regions=icn,,nrt');
    expect(response.json<Envelope>().error.details).toMatchObject({
      parameter: 'regions',
      value: 'icn,,nrt',
      allowed: [...REGION_CODES],
    });
  });

  it('lists the currencies for an unknown currency, USD first', async () => {
    const details = (await get('/instance-types?currency=XYZ')).json<Envelope>().error.details;
    expect((details?.['allowed'] as string[]).slice(0, 1)).toEqual(['USD']);
    expect(details?.['allowed']).toEqual(expect.arrayContaining(['JPY', 'KRW', 'SGD', 'HKD']));
  });

  it('lists the sorts and the available_in values', async () => {
    expect(
      (await get('/instance-types?sort_by=x')).json<Envelope>().error.details?.['allowed'],
    ).toEqual(['min_price', 'max_price', 'spread', 'vcpu', 'memory', 'instance_id']);
    expect(
      (await get('/instance-types?available_in=x')).json<Envelope>().error.details?.['allowed'],
    ).toEqual(['any', 'all']);
  });

  it('answers an empty catalogue with an empty page', async () => {
    const response = await get('/instance-types');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      data: {
        instance_types: [],
        pagination: { total: 0, limit: 50, offset: 0, has_more: false },
        metadata: { regions: [...REGION_CODES], available_in: 'any', last_sync: null },
      },
    });
  });

  it('counts against the one /instances budget', async () => {
    const address = '10.11.9.9';
    for (let i = 0; i < 60; i++) expect((await get('/instances', address)).statusCode).toBe(200);
    for (let i = 0; i < 40; i++) {
      expect((await get('/instance-types', address)).statusCode).toBe(200);
    }
    const refused = await get('/instance-types', address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<Envelope>().error.details).toMatchObject({ limit: 100 });
  });
});

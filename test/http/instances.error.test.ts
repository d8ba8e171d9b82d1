import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

describe('GET /instances: invalid parameters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cases: Array<[query: string, parameter: string, value: unknown]> = [
    ['provider=aws', 'provider', 'aws'],
    ['provider=PROVIDER_A', 'provider', 'PROVIDER_A'],
    ['region=us-east-1', 'region', 'us-east-1'],
    ['min_vcpu=1.5', 'min_vcpu', '1.5'],
    ['min_vcpu=-1', 'min_vcpu', '-1'],
    ['max_vcpu=abc', 'max_vcpu', 'abc'],
    ['min_vcpu=', 'min_vcpu', ''],
    ['min_memory_gb=NaN', 'min_memory_gb', 'NaN'],
    ['max_memory_gb=Infinity', 'max_memory_gb', 'Infinity'],
    ['max_price=-5', 'max_price', '-5'],
    ['max_price=1e400', 'max_price', '1e400'],
    ['instance_family=GPU', 'instance_family', 'GPU'],
    ['has_gpu=yes', 'has_gpu', 'yes'],
    ['has_gpu=1', 'has_gpu', '1'],
    ['sort_by=cost', 'sort_by', 'cost'],
    ['order=up', 'order', 'up'],
    ['limit=0', 'limit', '0'],
    ['limit=101', 'limit', '101'],
    ['offset=-1', 'offset', '-1'],
    ['offset=1000001', 'offset', '1000001'],
    ['min_vcpu=8&max_vcpu=4', 'min_vcpu', '8'],
    ['min_memory_gb=8&max_memory_gb=4', 'min_memory_gb', '8'],
    ['limit=10&limit=20', 'limit', 'array'],
  ];

  it.each(cases)('?%s is 400 INVALID_PARAMETER naming %s', async (query, parameter, value) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/instances?${query}`,
      headers: auth,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{
      success: boolean;
      error: { code: string; message: string; details: Record<string, unknown> };
    }>();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('INVALID_PARAMETER');
    expect(body.error.details.parameter).toBe(parameter);
    expect(body.error.details.value).toEqual(value);
    expect(typeof body.error.details.reason).toBe('string');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('lists the allowed values for enums', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/instances?sort_by=cost',
      headers: auth,
    });
    expect(
      response.json<{ error: { details: { allowed: string[] } } }>().error.details.allowed,
    ).toContain('memory_gb');
  });

  it('cuts an echoed value to 100 characters', async () => {
    const long = 'x'.repeat(5000);
    const response = await t.app.inject({
      method: 'GET',
      url: `/instances?provider=${long}`,
      headers: auth,
    });
    expect(response.statusCode).toBe(400);
    expect(
      response.json<{ error: { details: { value: string } } }>().error.details.value,
    ).toHaveLength(100);
  });

  it('never answers 5xx to odd query strings', async () => {
    for (const query of [
      '%',
      '%zz',
      'provider[]=a',
      'a=%00',
      '__proto__=1',
      'constructor[prototype]=1',
      '&&&',
      '=',
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/instances?${query}`,
        headers: auth,
      });
      expect([200, 400], query).toContain(response.statusCode);
      expect(response.json<{ success: boolean }>().success, query).toBe(
        response.statusCode === 200,
      );
    }
  });
});

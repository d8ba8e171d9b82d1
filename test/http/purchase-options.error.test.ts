// D61's `purchase_option` tried with unknown names, other spellings, repeats, nulls and long
// strings, alone and with as_of, currency and CSV: the error envelope with INVALID_PARAMETER and
// `allowed`, never a 5xx; on /instances, /instance-types and POST /recommend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PURCHASE_OPTIONS } from '../../src/catalog/purchase-options.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface ErrorBody {
  success: boolean;
  error: { code: string; message: string; details: Record<string, unknown> };
}

describe('purchase_option: invalid input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const expectInvalid = (
    response: { statusCode: number; body: string; json: <T>() => T },
    allowed: readonly string[] | null = PURCHASE_OPTIONS,
  ) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<ErrorBody>();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('INVALID_PARAMETER');
    expect(body.error.details.parameter).toBe('purchase_option');
    // A parameter given twice is refused as such (no list of values applies).
    if (allowed !== null) expect(body.error.details.allowed).toEqual([...allowed]);
  };

  const queries = [
    'purchase_option=reserved',
    'purchase_option=ON_DEMAND',
    'purchase_option=',
    'purchase_option=spot,reserved_1y',
    `purchase_option=${'r'.repeat(5_000)}`,
    'purchase_option=%00spot',
  ];
  const repeated = [
    'purchase_option=spot&purchase_option=spot',
    'purchase_option=reserved_1y&format=csv&currency=JPY&purchase_option=x',
  ];
  for (const path of ['/instances', '/instance-types']) {
    it.each(queries)(`${path}?%s is 400 with the option names allowed`, async (query) => {
      expectInvalid(await t.app.inject({ method: 'GET', url: `${path}?${query}`, headers: auth }));
    });
    it.each(repeated)(`${path}?%s is 400: given twice`, async (query) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `${path}?${query}`,
        headers: auth,
      });
      expectInvalid(response, null);
    });
  }

  it('refuses an option other than on_demand with as_of, naming on_demand as allowed', async () => {
    for (const format of ['json', 'csv']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/instances?purchase_option=reserved_1y&as_of=2025-01-01&format=${format}`,
        headers: auth,
      });
      expectInvalid(response, ['on_demand']);
    }
    const onDemand = await t.app.inject({
      method: 'GET',
      url: '/instances?purchase_option=on_demand&as_of=2025-01-01',
      headers: auth,
    });
    expect(onDemand.statusCode, onDemand.body).toBe(200);
  });

  it('answers an option with currency and CSV together', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/instances?purchase_option=spot&currency=JPY&format=csv',
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.split('\r\n')[0]!.split(',').at(-1)).toBe('purchase_option');
  });

  it.each([['reserved'], [null], [['spot']], [1], [{ name: 'spot' }], ['x'.repeat(10_000)]])(
    'POST /recommend with purchase_option %j is 400 with the option names allowed',
    async (value) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/recommend',
        headers: auth,
        payload: { stack: ['nginx'], scale: 'small', purchase_option: value },
      });
      expectInvalid(response);
    },
  );

  it.each(['bogus', 'ALL', '', 'spot,all'])(
    '/changes?purchase_option=%s is 400 with all allowed',
    async (value) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/changes?purchase_option=${value}`,
        headers: auth,
      });
      expectInvalid(response, [...PURCHASE_OPTIONS, 'all']);
    },
  );

  it.each(['all', 'bogus', ''])('/instances/1/history?purchase_option=%s is 400', async (value) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/instances/1/history?purchase_option=${value}`,
      headers: auth,
    });
    expectInvalid(response);
  });
});

// D56: a bad `city`, `columns` or `cities` is a 400 INVALID_PARAMETER naming the parameter with
// `allowed`, on every endpoint that takes it, never a 5xx and never silently ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITY_SLUGS } from '../../src/catalog/model.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface ErrorBody {
  success: false;
  error: { code: string; message: string; details: Record<string, unknown> };
}

const CITIES = [...CITY_SLUGS];

describe('cities refuse bad input (D56)', () => {
  let t: TestApp;
  let client = 0;
  const send = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      headers: auth,
      remoteAddress: `10.57.0.${++client}`,
      ...(payload !== undefined && { payload }),
    });
    return { status: response.statusCode, body: response.json<ErrorBody>() };
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const BAD_CITY: readonly [query: string, value: unknown][] = [
    ['city=Tokyo', 'Tokyo'],
    ['city=tokyo,,seoul', 'tokyo,,seoul'],
    ['city=tokyo,', 'tokyo,'],
    ['city=', ''],
    ['city=hong%20kong', 'hong kong'],
    ['city=ap-northeast-1', 'ap-northeast-1'],
    ['city=tokyo&city=seoul', ['tokyo', 'seoul']],
  ];

  for (const path of ['/instances', '/instance-types', '/changes']) {
    it.each(BAD_CITY)(`${path}?%s is 400 INVALID_PARAMETER with allowed`, async (query, value) => {
      const { status, body } = await send('GET', `${path}?${query}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('INVALID_PARAMETER');
      expect(body.error.details).toMatchObject({ parameter: 'city' });
      if (Array.isArray(value)) {
        // A repeated parameter is refused as such (D17), echoed by its JSON type.
        expect(body.error.details['value']).toBe('array');
      } else {
        expect(body.error.details['value']).toBe(value);
        expect(body.error.details['allowed']).toEqual(CITIES);
      }
    });
  }

  it('refuses an over-long city list without echoing more than 100 characters', async () => {
    const { status, body } = await send('GET', `/instances?city=${'tokyo,'.repeat(40)}tokyo`);
    expect(status).toBe(400);
    expect(body.error.details).toMatchObject({ parameter: 'city', allowed: CITIES });
    expect(String(body.error.details['value']).length).toBeLessThanOrEqual(100);
  });

  it.each(['country', 'City', '', 'region,city'])(
    '/instance-types?columns=%s is 400 with allowed region, city',
    async (columns) => {
      const { status, body } = await send('GET', `/instance-types?columns=${columns}`);
      expect(status).toBe(400);
      expect(body.error).toMatchObject({
        code: 'INVALID_PARAMETER',
        details: { parameter: 'columns', value: columns, allowed: ['region', 'city'] },
      });
    },
  );

  const BAD_CITIES: readonly [label: string, cities: unknown, echoed: unknown][] = [
    ['a capitalised slug', ['Tokyo'], 'Tokyo'],
    ['an unknown slug among good ones', ['tokyo', 'kyoto'], 'kyoto'],
    ['an empty array', [], 'array'],
    ['a string, not an array', 'tokyo', 'tokyo'],
    ['null', null, null],
    ['a number entry', ['seoul', 1], 1],
  ];

  it.each(BAD_CITIES)(
    'POST /recommend with cities as %s is 400 with allowed',
    async (_l, cities, echoed) => {
      const { status, body } = await send('POST', '/recommend', {
        stack: ['nginx'],
        scale: 'small',
        cities,
      });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({
        code: 'INVALID_PARAMETER',
        details: { parameter: 'cities', value: echoed, allowed: CITIES },
      });
    },
  );
});

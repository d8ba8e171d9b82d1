// Issue 32's new parameters tried with wrong types, unknown values, empty lists and long strings:
// every one is the error envelope with INVALID_PARAMETER naming the parameter (and `allowed` for
// an enum), never a 5xx; on /instances, /instance-types and POST /recommend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface ErrorBody {
  success: boolean;
  error: { code: string; message: string; details: Record<string, unknown> };
}

const LONG = 'arm64,'.repeat(40);

describe('machine facts parameters: invalid input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const queries: Array<[query: string, parameter: string, allowed?: string[]]> = [
    ['arch=arm', 'arch', ['x86_64', 'arm64']],
    ['arch=ARM64', 'arch', ['x86_64', 'arm64']],
    ['arch=', 'arch'],
    ['arch=arm64,', 'arch'],
    ['arch=,x86_64', 'arch'],
    [`arch=${LONG}`, 'arch'],
    ['arch=arm64&arch=x86_64', 'arch'],
    ['cpu_allocation=spot', 'cpu_allocation', ['dedicated', 'shared', 'burstable']],
    ['cpu_allocation=', 'cpu_allocation'],
    ['cpu_allocation=shared,,burstable', 'cpu_allocation'],
    [`cpu_allocation=${'x'.repeat(65)}`, 'cpu_allocation'],
  ];

  for (const path of ['/instances', '/instance-types']) {
    it.each(queries)(
      `${path}?%s is 400 INVALID_PARAMETER naming %s`,
      async (query, parameter, allowed) => {
        const response = await t.app.inject({
          method: 'GET',
          url: `${path}?${query}`,
          headers: auth,
        });
        expect(response.statusCode, response.body).toBe(400);
        const body = response.json<ErrorBody>();
        expect(body.success).toBe(false);
        expect(body.error.code).toBe('INVALID_PARAMETER');
        expect(body.error.details.parameter).toBe(parameter);
        if (allowed !== undefined) {
          expect(body.error.details.allowed).toEqual(expect.arrayContaining(allowed));
        }
      },
    );
  }

  it('/instances?sort_by=coremarks is 400 with coremark and coremark_per_price allowed', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/instances?sort_by=coremarks',
      headers: auth,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<ErrorBody>();
    expect(body.error.details.parameter).toBe('sort_by');
    expect(body.error.details.allowed).toEqual(
      expect.arrayContaining(['coremark', 'coremark_per_price']),
    );
  });

  const bodies: Array<[label: string, extra: Record<string, unknown>, parameter: string]> = [
    ['arch not an array', { arch: 'arm64' }, 'arch'],
    ['arch empty', { arch: [] }, 'arch'],
    ['arch unknown', { arch: ['arm'] }, 'arch'],
    ['arch a number', { arch: [64] }, 'arch'],
    ['arch a long string', { arch: ['x'.repeat(5_000)] }, 'arch'],
    ['cpu_allocation unknown', { cpu_allocation: ['spot'] }, 'cpu_allocation'],
    ['cpu_allocation empty', { cpu_allocation: [] }, 'cpu_allocation'],
    ['cpu_allocation an object', { cpu_allocation: { a: 1 } }, 'cpu_allocation'],
    ['rank_by unknown', { rank_by: 'cheapest' }, 'rank_by'],
    ['rank_by a list', { rank_by: ['price'] }, 'rank_by'],
    ['rank_by null', { rank_by: null }, 'rank_by'],
    ['rank_by empty', { rank_by: '' }, 'rank_by'],
  ];

  it.each(bodies)(
    'POST /recommend with %s is 400 INVALID_PARAMETER',
    async (_label, extra, parameter) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/recommend',
        headers: auth,
        payload: { stack: ['nginx'], scale: 'small', ...extra },
      });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<ErrorBody>();
      expect(body.success).toBe(false);
      expect(body.error.code).toBe('INVALID_PARAMETER');
      expect(JSON.stringify(body.error)).toContain(parameter);
    },
  );
});

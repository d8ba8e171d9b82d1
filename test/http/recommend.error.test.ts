import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

describe('POST /recommend: invalid requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cases: Array<
    [label: string, payload: unknown, code: string, details?: Record<string, unknown>]
  > = [
    ['missing stack', { scale: 'small' }, 'MISSING_PARAMETER', { parameter: 'stack' }],
    ['missing scale', { stack: ['nginx'] }, 'MISSING_PARAMETER', { parameter: 'scale' }],
    ['both missing: stack first', {}, 'MISSING_PARAMETER', { parameter: 'stack' }],
    ['stack not an array', { stack: 'nginx', scale: 'small' }, 'INVALID_PARAMETER'],
    ['empty stack', { stack: [], scale: 'small' }, 'EMPTY_STACK'],
    ['unknown stack', { stack: ['nginx', 'cobol', 7], scale: 'small' }, 'INVALID_STACK'],
    ['too many entries', { stack: Array(21).fill('nginx'), scale: 'small' }, 'INVALID_PARAMETER'],
    [
      'bad scale',
      { stack: ['nginx'], scale: 'huge' },
      'INVALID_PARAMETER',
      { parameter: 'scale', value: 'huge', allowed: ['small', 'medium', 'large'] },
    ],
    ['zero budget', { stack: ['nginx'], scale: 'small', budget_max: 0 }, 'INVALID_PARAMETER'],
    ['string budget', { stack: ['nginx'], scale: 'small', budget_max: '50' }, 'INVALID_PARAMETER'],
    ['bad limit', { stack: ['nginx'], scale: 'small', limit: 51 }, 'INVALID_PARAMETER'],
    [
      'bad provider filter',
      { stack: ['nginx'], scale: 'small', providers: ['aws'] },
      'INVALID_PARAMETER',
    ],
    [
      'bad region filter',
      { stack: ['nginx'], scale: 'small', regions: ['eu-west-1'] },
      'INVALID_PARAMETER',
    ],
  ];

  it.each(cases)('%s → 400 %s', async (_label, payload, code, details) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: payload as object,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{
      success: boolean;
      error: { code: string; details?: Record<string, unknown> };
    }>();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe(code);
    if (details) expect(body.error.details).toMatchObject(details);
  });

  it('lists the rejected and the supported names for INVALID_STACK', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: { stack: ['nginx', 'cobol', { a: 1 }], scale: 'small' },
    });
    const details = response.json<{
      error: { details: { invalid: unknown[]; supported: string[] } };
    }>().error.details;
    expect(details.invalid).toEqual(['cobol', 'object']);
    expect(details.supported).toHaveLength(10);
  });
});

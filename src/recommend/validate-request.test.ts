import { describe, expect, it } from 'vitest';
import { REGION_CODES } from '../catalog/model.js';
import { parseRecommendRequest } from './validate-request.js';

const TEN = [
  'nginx',
  'php-fpm',
  'mysql',
  'mariadb',
  'postgresql',
  'redis',
  'elasticsearch',
  'nodejs',
  'docker',
  'mongodb',
];

function errorOf(body: unknown) {
  const result = parseRecommendRequest(body);
  if (result.ok) throw new Error(`expected an error for ${JSON.stringify(body)}`);
  return result.error;
}

function valueOf(body: unknown) {
  const result = parseRecommendRequest(body);
  if (!result.ok)
    throw new Error(`unexpected ${result.error.code}: ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('parseRecommendRequest: accepted bodies', () => {
  it('parses the minimal body with defaults', () => {
    expect(valueOf({ stack: ['nginx'], scale: 'small' })).toEqual({
      stack: ['nginx'],
      scale: 'small',
      limit: 10,
      currency: 'USD',
      rankBy: 'fit',
      purchaseOption: 'on_demand',
    });
  });

  it('keeps distinct stack names in first-given order and ignores unknown fields', () => {
    const value = valueOf({ stack: ['redis', 'nginx', 'redis'], scale: 'large', extra: { a: 1 } });
    expect(value.stack).toEqual(['redis', 'nginx']);
  });

  it('accepts exactly 20 entries as sent', () => {
    const stack = Array.from({ length: 20 }, (_, i) => TEN[i % 10]);
    expect(valueOf({ stack, scale: 'medium' }).stack).toEqual(TEN);
  });

  it('parses budget_max into micro-dollars and the extensions', () => {
    const value = valueOf({
      stack: ['mysql'],
      scale: 'medium',
      budget_max: 49.99,
      limit: 50,
      providers: ['provider_b', 'provider_a', 'provider_b'],
      regions: ['icn', 'ap-east-1'],
    });
    expect(value).toEqual({
      stack: ['mysql'],
      scale: 'medium',
      budgetMax: 49.99,
      budgetMaxMicros: 49_990_000,
      limit: 50,
      currency: 'USD',
      rankBy: 'fit',
      purchaseOption: 'on_demand',
      providers: ['provider_b', 'provider_a'],
      regions: ['icn', 'ap-east-1'],
    });
  });
});

describe('parseRecommendRequest: errors in check order', () => {
  it.each([[null], [[]], ['text'], [42], [true]])(
    'a non-object body %j is INVALID_JSON',
    (body) => {
      expect(errorOf(body).code).toBe('INVALID_JSON');
    },
  );

  it('names the JSON type received', () => {
    expect(errorOf([1]).details).toEqual({ expected: 'object', received: 'array' });
    expect(errorOf('object').details).toEqual({ expected: 'object', received: 'string' });
  });

  it('reports a missing stack before a missing scale', () => {
    expect(errorOf({})).toMatchObject({
      code: 'MISSING_PARAMETER',
      details: { parameter: 'stack' },
    });
    expect(errorOf({ scale: 'small' }).details).toEqual({ parameter: 'stack' });
  });

  it('reports a missing scale before any stack problem', () => {
    expect(errorOf({ stack: 'nginx' })).toEqual({
      code: 'MISSING_PARAMETER',
      message: 'Missing required parameter: scale',
      details: { parameter: 'scale' },
    });
  });

  it('does not count an inherited property as sent', () => {
    const body: unknown = Object.create({ stack: ['nginx'], scale: 'small' });
    expect(errorOf(body).details).toEqual({ parameter: 'stack' });
  });

  it.each([
    ['nginx', 'nginx'],
    [null, null],
    [{ 0: 'nginx' }, 'object'],
    [7, 7],
  ])('a stack that is not an array (%j) is INVALID_PARAMETER', (stack, echoed) => {
    expect(errorOf({ stack, scale: 'small' })).toEqual({
      code: 'INVALID_PARAMETER',
      message: 'Invalid parameter: stack',
      details: { parameter: 'stack', value: echoed, reason: 'must be an array of stack names' },
    });
  });

  it('rejects more than 20 entries, even valid duplicates, before looking at names', () => {
    const stack = [...Array.from({ length: 20 }, () => 'nginx'), 'bogus'];
    expect(errorOf({ stack, scale: 'small' })).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'stack', value: 'array', reason: 'must have at most 20 entries' },
    });
  });

  it('rejects an empty stack with EMPTY_STACK', () => {
    expect(errorOf({ stack: [], scale: 'bogus' })).toMatchObject({
      code: 'EMPTY_STACK',
      details: { parameter: 'stack' },
    });
  });

  it('lists unknown and non-string names once each, echoed safely, with the ten supported', () => {
    const long = 'x'.repeat(150);
    const error = errorOf({
      stack: ['nginx', 'Nginx', 'apache', 'apache', 3, null, { a: 1 }, ['mysql'], long, true],
      scale: 'small',
    });
    expect(error.code).toBe('INVALID_STACK');
    expect(error.details).toEqual({
      invalid: ['Nginx', 'apache', 3, null, 'object', 'array', 'x'.repeat(100), true],
      supported: TEN,
    });
  });

  it('checks the stack names before the scale', () => {
    expect(errorOf({ stack: ['apache'], scale: 'huge' }).code).toBe('INVALID_STACK');
  });

  it.each([['Small'], ['huge'], [1], [null], [['small']]])(
    'scale %j is INVALID_PARAMETER',
    (scale) => {
      const error = errorOf({ stack: ['nginx'], scale });
      expect(error.code).toBe('INVALID_PARAMETER');
      expect(error.details).toMatchObject({
        parameter: 'scale',
        value: Array.isArray(scale) ? 'array' : scale,
        allowed: ['small', 'medium', 'large'],
      });
    },
  );

  it.each([[0], [-5], ['50'], [null], [true], [{}]])(
    'budget_max %j is INVALID_PARAMETER',
    (budget) => {
      const error = errorOf({ stack: ['nginx'], scale: 'small', budget_max: budget });
      expect(error.code).toBe('INVALID_PARAMETER');
      expect(error.details).toMatchObject({ parameter: 'budget_max' });
    },
  );

  it.each([[0], [51], [2.5], ['10'], [null]])('limit %j is INVALID_PARAMETER', (limit) => {
    const error = errorOf({ stack: ['nginx'], scale: 'small', limit });
    expect(error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'limit' } });
  });

  it.each([
    [[], 'array'],
    [null, null],
    ['provider_a', 'provider_a'],
    [['provider_a', 'provider_d'], 'provider_d'],
    [['provider_a', 1], 1],
  ])('providers %j is INVALID_PARAMETER echoing %j', (providers, echoed) => {
    expect(errorOf({ stack: ['nginx'], scale: 'small', providers })).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: {
        parameter: 'providers',
        value: echoed,
        allowed: ['provider_a', 'provider_b', 'provider_c'],
      },
    });
  });

  it.each([
    [[], 'array'],
    [null, null],
    [['icn', 'us-east-1'], 'us-east-1'],
    [['ICN'], 'ICN'],
  ])('regions %j is INVALID_PARAMETER echoing %j', (regions, echoed) => {
    expect(errorOf({ stack: ['nginx'], scale: 'small', regions })).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'regions', value: echoed, allowed: [...REGION_CODES] },
    });
  });

  it('checks budget_max before limit, providers and regions', () => {
    const body = {
      stack: ['nginx'],
      scale: 'small',
      budget_max: -1,
      limit: 0,
      providers: [],
      regions: [],
    };
    expect(errorOf(body).details).toMatchObject({ parameter: 'budget_max' });
    expect(errorOf({ ...body, budget_max: 1 }).details).toMatchObject({ parameter: 'limit' });
    expect(errorOf({ ...body, budget_max: 1, limit: 1 }).details).toMatchObject({
      parameter: 'providers',
    });
  });
});

describe('parseRecommendRequest: purchase_option (D61)', () => {
  it('takes an option name', () => {
    expect(
      valueOf({ stack: ['nginx'], scale: 'small', purchase_option: 'reserved_3y' }),
    ).toMatchObject({ purchaseOption: 'reserved_3y' });
  });

  it.each([['bogus'], [null], [['spot']], ['ON_DEMAND']])(
    'refuses %j with the allowed names',
    (bad) => {
      expect(errorOf({ stack: ['nginx'], scale: 'small', purchase_option: bad })).toMatchObject({
        code: 'INVALID_PARAMETER',
        details: {
          parameter: 'purchase_option',
          allowed: [
            'on_demand',
            'spot',
            'reserved_1y',
            'reserved_3y',
            'convertible_1y',
            'convertible_3y',
          ],
        },
      });
    },
  );
});

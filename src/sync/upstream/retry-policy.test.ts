import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs } from './retry-policy.js';

describe('isRetryableStatus', () => {
  it('retries rate limiting and transient server errors only', () => {
    for (const status of [429, 500, 502, 503, 504]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [200, 304, 400, 401, 403, 404, 410, 501, 505]) {
      expect(isRetryableStatus(status)).toBe(false);
    }
  });
});

describe('backoffDelayMs', () => {
  it('stays within [0, min(max, base * 2^retry)) for every retry and random draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, baseDelayMs, maxDelayMs, draw) => {
          const delay = backoffDelayMs(retry, { baseDelayMs, maxDelayMs }, () => draw);
          const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(Number.isInteger(delay)).toBe(true);
        },
      ),
    );
  });

  it('doubles the ceiling with each retry until the cap', () => {
    const nearlyOne = () => 0.999999;
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((r) => backoffDelayMs(r, options, nearlyOne))).toEqual([
      99, 199, 399, 799, 999,
    ]);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-07-01T12:00:00.000Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfterMs('0', now)).toBe(0);
    expect(parseRetryAfterMs(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfterMs(['3', '9'], now)).toBe(3000);
  });

  it('reads an HTTP-date as the time left until it, never negative', () => {
    expect(parseRetryAfterMs('Wed, 01 Jul 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Wed, 01 Jul 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    for (const value of [undefined, '', '-1', '1.5', '+3', 'soon', '2026-07-01', 'Wed, nonsense']) {
      expect(parseRetryAfterMs(value, now)).toBeUndefined();
    }
  });
});

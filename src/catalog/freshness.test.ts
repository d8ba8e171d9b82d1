import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcDay } from './freshness.js';

describe('utcDay', () => {
  it('is the day toISOString begins with, for any instant from 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => {
        expect(utcDay(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
      }),
      { numRuns: 2000 },
    );
  });

  it('pads months and days, and keeps the last millisecond of a day on that day', () => {
    expect(utcDay(Date.UTC(2025, 0, 5))).toBe('2025-01-05');
    expect(utcDay(Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toBe('2025-12-31');
  });
});

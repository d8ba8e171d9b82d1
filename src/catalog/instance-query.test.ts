import { describe, expect, it } from 'vitest';
import { parseInstanceQuery } from './instance-query.js';

const maxMicros = (text: string) => {
  const parsed = parseInstanceQuery({ max_price: text });
  if (!parsed.ok) throw new Error(parsed.problem.reason);
  return parsed.value.query.filter.maxMonthlyMicros;
};

describe('max_price', () => {
  it('is compared exactly: the bound is cut at the micro-dollar, never rounded up', () => {
    expect(maxMicros('1.0000006')).toBe(1_000_000);
    expect(maxMicros('4.35')).toBe(4_350_000);
    expect(maxMicros('0.29')).toBe(290_000);
    expect(maxMicros('10')).toBe(10_000_000);
    expect(maxMicros('49.999999')).toBe(49_999_999);
  });
});

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

describe('one money parser (issue 15 item 8)', () => {
  const parsed = (query: Record<string, string>) => {
    const result = parseInstanceQuery(query);
    if (!result.ok) throw new Error(result.problem.reason);
    return result.value;
  };

  it('max_price=00000000000004.5 runs, echoes and is keyed as 4.5 (leading-zeros cache defect)', () => {
    const zeros = parsed({ max_price: '00000000000004.5' });
    const plain = parsed({ max_price: '4.5' });
    expect(zeros.query.filter.maxMonthlyMicros).toBe(4_500_000);
    expect(zeros.filtersApplied.max_price).toBe(4.5);
    expect(zeros.cacheKey).toBe(plain.cacheKey);
  });

  it('echoes the bound the query runs with, and keys by it', () => {
    const long = parsed({ max_price: '1.0000006' });
    expect(long.filtersApplied.max_price).toBe(1);
    expect(long.cacheKey).toBe(parsed({ max_price: '1' }).cacheKey);
    expect(long.cacheKey).not.toBe(parsed({ max_price: '1.000001' }).cacheKey);
  });
});

import { describe, expect, it } from 'vitest';
import {
  monthlyFromMicros,
  monthlyMicrosFromHourly,
  parseMoneyBound,
  roundMicrosToCent,
} from './money.js';

describe('the monthly price rule (issue 15 item 2)', () => {
  it('derives monthly from hourly x 730 in whole cents, half-up, so stored = shown', () => {
    expect(monthlyMicrosFromHourly(30_097)).toBe(21_970_000); // 21.970810
    expect(monthlyMicrosFromHourly(30_103)).toBe(21_980_000); // 21.975190
    expect(monthlyMicrosFromHourly(0)).toBe(0);
    for (const hourly of [1, 13_600, 30_097, 123_457, 9_999_999]) {
      const monthly = monthlyMicrosFromHourly(hourly);
      expect(monthly / 1_000_000).toBe(monthlyFromMicros(monthly));
    }
  });

  it('rounds half a cent up', () => {
    expect(roundMicrosToCent(21_965_000)).toBe(21_970_000);
    expect(roundMicrosToCent(21_964_999)).toBe(21_960_000);
  });
});

describe('parseMoneyBound: the one money parser (issue 15 item 8)', () => {
  it('ignores leading zeros (max_price=00000000000004.5 is 4.5)', () => {
    expect(parseMoneyBound('00000000000004.5')).toBe(4_500_000);
    expect(parseMoneyBound('0.29')).toBe(290_000);
    expect(parseMoneyBound('000')).toBe(0);
  });

  it('cuts digits past the micro-dollar, never rounding a bound up', () => {
    expect(parseMoneyBound('1.0000006')).toBe(1_000_000);
    expect(parseMoneyBound('49.999999')).toBe(49_999_999);
  });

  it('reads a JSON number through its shortest text', () => {
    expect(parseMoneyBound(21.97)).toBe(21_970_000);
    expect(parseMoneyBound(0.1 + 0.2)).toBe(300_000);
    expect(parseMoneyBound(1e-7)).toBe(0);
    expect(parseMoneyBound(1e9)).toBe(1e15);
  });

  it.each(['', '-1', '1e3', '1.', '.5', ' 1', '0x10', '1000000000.000001', '1'.padEnd(70, '0')])(
    'rejects %j',
    (text) => {
      expect(parseMoneyBound(text)).toBeNull();
    },
  );

  it('rejects numbers that are not plain amounts', () => {
    expect(parseMoneyBound(Number.NaN)).toBeNull();
    expect(parseMoneyBound(-1)).toBeNull();
    expect(parseMoneyBound(1e21)).toBeNull();
    expect(parseMoneyBound(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

// The page formats money and counts without Intl (web/src/format.ts: the first Intl object costs
// a fresh page 30-90 ms of main thread). These tests hold its output to Intl's own for every
// currency the API accepts, so what people read does not change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { count, money } from '../../web/src/format.js';
import { CURRENCIES, CURRENCY_NAMES } from '../../web/src/model.js';

function intlMoney(value: number, currency: string, fine: boolean): string {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en', {
    style: 'currency',
    currency,
    minimumFractionDigits: fine ? Math.max(digits, 4) : digits,
    maximumFractionDigits: fine ? Math.max(digits, 4) : digits,
  }).format(value);
}

describe('money and counts without Intl', () => {
  it.each(CURRENCIES)('%s: money() writes what Intl.NumberFormat("en") writes', (currency) => {
    const samples = [0, 0.004, 0.005, 0.0049, 1.005, 2.675, 3.8, 12.5, 999.995, 1234.5, 1e7 + 0.5];
    for (const value of samples) {
      for (const fine of [false, true]) {
        expect(money(value, currency, fine), `${value} fine=${fine}`).toBe(
          intlMoney(value, currency, fine),
        );
      }
    }
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.boolean(),
        (value, fine) => money(value, currency, fine) === intlMoney(value, currency, fine),
      ),
      { numRuns: 300 },
    );
  });

  it('names each currency as Intl.DisplayNames("en") does', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'currency' });
    for (const code of CURRENCIES) expect(CURRENCY_NAMES[code]).toBe(names.of(code));
  });

  it('groups whole numbers as Intl.NumberFormat("en") does', () => {
    const intl = new Intl.NumberFormat('en');
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => count.format(n) === intl.format(n)),
    );
    expect(count.format(1234567)).toBe('1,234,567');
  });

  it('shows no number for a missing or non-finite price', () => {
    expect(money(undefined, 'USD')).toBe('—');
    expect(money(Number.NaN, 'USD')).toBe('—');
  });
});

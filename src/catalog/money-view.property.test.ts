// Conversion against an independent decimal reference (decimal.js): every converted and
// rounded amount must equal the exact decimal result, rounded half up, for any price and rate.
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hourlyFromMicros, monthlyFromMicros } from './money.js';
import { formatMinor, moneyView, parseBound } from './money-view.js';
import { minorUnitDigits } from './currencies.js';
import { parseExactDecimal } from './exact-decimal.js';
import type { LoadedRates } from './rate-table.js';

const Exact = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_UP });

/** A rate as the ECB writes it: up to 6 significant digits, 0 to 4 decimals. */
const rateText = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 4 }))
  .map(([units, scale]) => new Exact(units).div(new Exact(10).pow(scale)).toFixed(scale));
const micros = fc.oneof(
  fc.integer({ min: 0, max: 50_000_000_000 }),
  fc.integer({ min: 0, max: 10_000 }),
);
const currency = fc.constantFrom('EUR', 'JPY', 'KRW', 'SGD', 'HKD', 'IDR', 'GBP');

function table(usd: string, code: string, rate: string): LoadedRates {
  const perEur = new Map([
    ['EUR', { units: 1n, scale: 0 }],
    ['USD', parseExactDecimal(usd) ?? { units: 1n, scale: 0 }],
  ]);
  if (code !== 'EUR') perEur.set(code, parseExactDecimal(rate) ?? { units: 1n, scale: 0 });
  return { asOf: '2026-10-06', perEur, kind: 'snapshot', source: 'test' };
}

function reference(m: number, usd: string, code: string, rate: string, digits: number): number {
  const target = code === 'EUR' ? new Exact(1) : new Exact(rate);
  return new Exact(m)
    .div(1_000_000)
    .mul(target)
    .div(new Exact(usd))
    .toDecimalPlaces(digits, Decimal.ROUND_HALF_UP)
    .toNumber();
}

describe('currency conversion (D43)', () => {
  it('hourly (4 decimals) and monthly (minor unit) equal the exact decimal result', () => {
    fc.assert(
      fc.property(micros, rateText, currency, rateText, (m, usd, code, rate) => {
        const view = moneyView(table(usd, code, rate), code);
        expect(view.hourly(m)).toBe(reference(m, usd, code, rate, 4));
        expect(view.monthly(m)).toBe(reference(m, usd, code, rate, minorUnitDigits(code)));
      }),
      { numRuns: 2000 },
    );
  });

  it('in USD equals the presentation rounding of money.ts', () => {
    fc.assert(
      fc.property(micros, (m) => {
        const view = moneyView(undefined, 'USD');
        expect(view.hourly(m)).toBe(hourlyFromMicros(m));
        expect(view.monthly(m)).toBe(monthlyFromMicros(m));
      }),
      { numRuns: 2000 },
    );
  });

  it('unit prices equal the exact monthly price per vCPU and per GiB, rounded like monthly', () => {
    fc.assert(
      fc.property(
        micros,
        rateText,
        currency,
        rateText,
        fc.integer({ min: 1, max: 512 }),
        fc.integer({ min: 1, max: 4_000_000 }),
        (m, usd, code, rate, vcpu, memoryMb) => {
          const view = moneyView(table(usd, code, rate), code);
          const digits = minorUnitDigits(code);
          const target = code === 'EUR' ? new Exact(1) : new Exact(rate);
          const monthly = new Exact(m).div(1_000_000).mul(target).div(new Exact(usd));
          expect(view.monthlyPer(m, vcpu)).toBe(
            monthly.div(vcpu).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toNumber(),
          );
          expect(view.monthlyPer(m, memoryMb, 1024)).toBe(
            monthly
              .div(new Exact(memoryMb).div(1024))
              .toDecimalPlaces(digits, Decimal.ROUND_HALF_UP)
              .toNumber(),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a bound in the currency admits exactly the prices displayed at or below it', () => {
    const bound = fc
      .tuple(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 3 }))
      .map(([units, scale]) => new Exact(units).div(new Exact(10).pow(scale)).toFixed(scale));
    fc.assert(
      fc.property(bound, rateText, currency, rateText, (limit, usd, code, rate) => {
        const view = moneyView(table(usd, code, rate), code);
        const parsed = parseBound(limit);
        if (parsed === null) throw new Error('bad bound');
        const threshold = view.maxMonthlyMicrosShownAtMost(parsed);
        const shown = (m: number) => new Exact(view.monthly(m));
        // The threshold itself is shown at or below the bound, the next micro-dollar above it.
        expect(shown(threshold).lte(limit)).toBe(true);
        // At the largest safe integer the bound is beyond any price there can be.
        if (threshold < Number.MAX_SAFE_INTEGER) expect(shown(threshold + 1).gt(limit)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('the displayed rate is USD -> currency rounded to 6 decimals, dated and sourced', () => {
    const view = moneyView(table('1.1269', 'JPY', '178.15'), 'JPY');
    expect(view.note).toEqual({
      base: 'USD',
      currency: 'JPY',
      rate: 158.088562,
      as_of: '2026-10-06',
      source: 'test',
    });
    expect(moneyView(undefined, 'USD').note).toBeUndefined();
  });

  it('rounds JPY and KRW monthly prices to whole units and keeps 4 hourly decimals', () => {
    const rates = table('1.1269', 'KRW', '1508.67');
    const krw = moneyView(rates, 'KRW');
    // $5.00 x 1508.67 / 1.1269 = 6693.98... KRW
    expect(krw.monthly(5_000_000)).toBe(6694);
    expect(krw.hourly(7_500)).toBe(10.0408);
  });
});

describe('formatMinor', () => {
  it.each([
    [0n, 2, '0.00'],
    [5n, 2, '0.05'],
    [12_345n, 2, '123.45'],
    [1_976n, 0, '1976'],
    [7n, 4, '0.0007'],
    [120n, 2, '1.20'],
  ])('formatMinor(%s, %i) is %s', (minor, digits, text) => {
    expect(formatMinor(minor, digits)).toBe(text);
  });
});

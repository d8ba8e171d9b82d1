// Conversion of exact USD micro-amounts into any currency of a rate table (D43):
//   amount[X] = usd x rate[X] / rate[USD]   (both rates per EUR, as the ECB quotes them)
// computed in BigInt from the integer micro-dollars, then rounded once, half up: hourly to
// 4 decimals, monthly (and monthly unit prices, D45) to the currency's minor unit. In USD the
// results equal money.ts's hourlyFromMicros/monthlyFromMicros exactly (a property test pins it).
import { MICROS_PER_DOLLAR } from './money.js';
import { BASE_CURRENCY, HOURLY_DIGITS, minorUnitDigits } from './currencies.js';
import {
  divideRoundHalfUp,
  parseExactDecimal,
  pow10,
  scaledToNumber,
  type ExactDecimal,
} from './exact-decimal.js';
import type { LoadedRates } from './rate-table.js';

const MICRO_DIGITS = 6;
/** Decimals of `metadata.exchange_rate.rate` (display only; conversions use the exact ratio). */
export const RATE_DISPLAY_DIGITS = 6;

/** D43's `metadata.exchange_rate`. */
export interface ExchangeRateNote {
  readonly base: 'USD';
  readonly currency: string;
  /** Units of `currency` per 1 USD, rounded to RATE_DISPLAY_DIGITS decimals. */
  readonly rate: number;
  /** The ECB reference date of the rates (`YYYY-MM-DD`). */
  readonly as_of: string;
  readonly source: string;
}

/** Prices in one currency, from exact micro-dollars. */
export interface MoneyView {
  readonly currency: string;
  /** Decimals of monthly amounts in this currency (its ISO 4217 minor unit). */
  readonly monthlyDigits: number;
  /** Hourly price rounded to 4 decimals. */
  hourly(usdMicros: number): number;
  /** Monthly price rounded to the minor unit. */
  monthly(usdMicros: number): number;
  /** The monthly price in minor units (cents, yen...), exactly as displayed. */
  monthlyMinor(usdMicros: number): bigint;
  /** Monthly price / divisor (vCPUs, or GiB as memory_mb / 1024), rounded like monthly; null for 0. */
  monthlyPer(
    usdMicros: number,
    divisorNumerator: number,
    divisorDenominator?: number,
  ): number | null;
  /**
   * The largest monthly micro-dollar amount whose displayed price in this currency is at most
   * `bound` (exact decimal text): a price filter or budget in the requested currency compares
   * the converted, displayed price (D43), and conversion is monotonic, so that comparison is
   * "micros <= this" on the stored exact prices.
   */
  maxMonthlyMicrosShownAtMost(bound: ExactDecimal): number;
  /** `metadata.exchange_rate`, or undefined for USD (D43 adds it only when not USD). */
  readonly note: ExchangeRateNote | undefined;
}

/** Amount in X = micros x num / den (per unit of the output's last digit, before rounding). */
interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

function ratioFor(rates: LoadedRates | undefined, currency: string, digits: number): Ratio {
  const usd = rates?.perEur.get(BASE_CURRENCY);
  const target = rates?.perEur.get(currency);
  if (currency === BASE_CURRENCY || usd === undefined || target === undefined) {
    if (currency !== BASE_CURRENCY) throw new RangeError(`no rate for ${currency}`);
    return { num: pow10(digits), den: pow10(MICRO_DIGITS) };
  }
  // micros/10^6 x (t/10^ts) / (u/10^us) x 10^digits
  return {
    num: target.units * pow10(usd.scale + digits),
    den: usd.units * pow10(MICRO_DIGITS + target.scale),
  };
}

function toBigMicros(usdMicros: number): bigint {
  if (!Number.isSafeInteger(usdMicros) || usdMicros < 0) {
    throw new RangeError(`money must be non-negative integer micro-dollars, got ${usdMicros}`);
  }
  return BigInt(usdMicros);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The view for `currency` ("USD" works without rates). Throws RangeError for a currency the
 * table does not hold: callers validate the parameter against currenciesOf() first.
 */
export function moneyView(rates: LoadedRates | undefined, currency: string): MoneyView {
  // Every /instances request asks for one; a view depends only on the (immutable, replaced
  // whole) rate table and the currency, so each is made once per table.
  let views = rates === undefined ? viewsWithoutRates : viewsByRates.get(rates);
  if (views === undefined) {
    views = new Map();
    viewsByRates.set(rates!, views);
  }
  let view = views.get(currency);
  if (view === undefined) {
    view = makeMoneyView(rates, currency);
    views.set(currency, view);
  }
  return view;
}

/** Views per rate table (see moneyView); a table no longer referenced drops its views. */
const viewsByRates = new WeakMap<LoadedRates, Map<string, MoneyView>>();
const viewsWithoutRates = new Map<string, MoneyView>();

function makeMoneyView(rates: LoadedRates | undefined, currency: string): MoneyView {
  const monthlyDigits = currency === BASE_CURRENCY ? 2 : minorUnitDigits(currency);
  const hourlyRatio = ratioFor(rates, currency, HOURLY_DIGITS);
  const monthlyRatio = ratioFor(rates, currency, monthlyDigits);
  const monthlyMinor = (usdMicros: number) =>
    divideRoundHalfUp(toBigMicros(usdMicros) * monthlyRatio.num, monthlyRatio.den);

  let note: ExchangeRateNote | undefined;
  if (currency !== BASE_CURRENCY && rates !== undefined) {
    const rateRatio = ratioFor(rates, currency, RATE_DISPLAY_DIGITS);
    // 1 USD = 10^6 micros.
    const scaled = divideRoundHalfUp(BigInt(MICROS_PER_DOLLAR) * rateRatio.num, rateRatio.den);
    note = {
      base: 'USD',
      currency,
      rate: scaledToNumber(scaled, RATE_DISPLAY_DIGITS),
      as_of: rates.asOf,
      source: rates.source,
    };
  }

  return {
    currency,
    monthlyDigits,
    note,
    hourly(usdMicros) {
      const minor = divideRoundHalfUp(toBigMicros(usdMicros) * hourlyRatio.num, hourlyRatio.den);
      return scaledToNumber(minor, HOURLY_DIGITS);
    },
    monthly(usdMicros) {
      return scaledToNumber(monthlyMinor(usdMicros), monthlyDigits);
    },
    monthlyMinor,
    monthlyPer(usdMicros, divisorNumerator, divisorDenominator = 1) {
      if (!Number.isSafeInteger(divisorNumerator) || divisorNumerator <= 0) return null;
      const minor = divideRoundHalfUp(
        toBigMicros(usdMicros) * monthlyRatio.num * BigInt(divisorDenominator),
        monthlyRatio.den * BigInt(divisorNumerator),
      );
      return scaledToNumber(minor, monthlyDigits);
    },
    maxMonthlyMicrosShownAtMost(bound) {
      // Largest displayed amount allowed, in minor units: floor(bound x 10^digits).
      const shown = (bound.units * pow10(monthlyDigits)) / pow10(bound.scale);
      // round(m x num / den) <= shown  <=>  2 m num + den < 2 den (shown + 1)
      //                                <=>  2 m num < den (2 shown + 1)
      const limit = monthlyRatio.den * (2n * shown + 1n);
      const micros = (limit - 1n) / (2n * monthlyRatio.num);
      return Number(micros > MAX_SAFE ? MAX_SAFE : micros);
    },
  };
}

/** Exact decimal text of a converted amount, for sentences (no float formatting involved). */
export function formatMinor(minor: bigint, digits: number): string {
  const text = minor.toString().padStart(digits + 1, '0');
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Parses a client's bound ("12.5") for maxMonthlyMicrosShownAtMost; null if not plain decimal. */
export function parseBound(text: string): ExactDecimal | null {
  return parseExactDecimal(text);
}

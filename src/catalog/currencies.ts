// Currency codes and their ISO 4217 minor units, which decide how monthly prices are rounded
// (D43: JPY, KRW, IDR... 0 decimals; others 2).

/**
 * Currencies shown without decimals. ISO 4217 gives JPY, KRW and ISK 0 minor units; IDR is
 * listed with 2 but has had no coins below 1 rupiah for decades and is never quoted with
 * decimals, so D43 shows it whole too. Every other ECB currency has 2.
 */
const ZERO_DECIMAL = new Set([
  'JPY',
  'KRW',
  'ISK',
  'IDR',
  'CLP',
  'VND',
  'UGX',
  'PYG',
  'XAF',
  'XOF',
]);

/** Decimals of a monthly price (and of monthly unit prices) in this currency. */
export function minorUnitDigits(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : 2;
}

/** Hourly prices keep 4 decimals in every currency (D43), like USD (D36). */
export const HOURLY_DIGITS = 4;

export const BASE_CURRENCY = 'USD';

/** ISO 4217 alphabetic code shape; the ECB file is untrusted, so its codes are checked too. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

// Money is held as integer micro-dollars (1 USD = 1,000,000) from the upstream's decimal text to
// storage, so no price ever passes through floating-point arithmetic (D36). Only the API
// presentation turns micros into rounded numbers.

export const MICROS_PER_DOLLAR = 1_000_000;
/** Hours in a billing month, used when an upstream gives only an hourly price (D36). */
export const HOURS_PER_MONTH = 730;

const DECIMAL = /^(\d{1,12})(?:\.(\d+))?$/;

/**
 * Parses a non-negative decimal ("0.0136000000", "5", 0.0075) into integer micro-dollars.
 * Digits beyond the sixth decimal are rounded half-up; returns null for anything that is not a
 * plain non-negative decimal (upstream data is untrusted).
 */
export function decimalToMicros(value: string | number): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    // Number#toString gives the shortest text that round-trips, so 0.0075 stays "0.0075".
    text = value.toString();
    if (text.includes('e')) text = value.toFixed(12);
  } else {
    text = value.trim();
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = (match[2] ?? '').padEnd(7, '0');
  const micros = Number(fraction.slice(0, 6));
  const roundUp = Number(fraction[6]) >= 5 ? 1 : 0;
  return whole * MICROS_PER_DOLLAR + micros + roundUp;
}

/** Hourly price for presentation: 4 decimals (D36). */
export function hourlyFromMicros(micros: number): number {
  return Math.round(micros / 100) / 10_000;
}

/** Monthly price for presentation: 2 decimals (D36). */
export function monthlyFromMicros(micros: number): number {
  return Math.round(micros / 10_000) / 100;
}

/** A dollar amount from a client (a filter or a budget) in micro-dollars, for exact comparison. */
export function dollarsToMicros(dollars: number): number {
  return Math.round(dollars * MICROS_PER_DOLLAR);
}

// Money is held as integer micro-dollars (1 USD = 1,000,000) from the upstream's decimal text to
// storage, so no price ever passes through floating-point arithmetic (D36).
//
// The monthly price rule (docs/adr/0003, docs/api.md): a record's monthly price is a whole number
// of cents, rounded half-up where it is derived (hourly x 730) or read (an upstream's own monthly
// figure). The value stored is the value shown, so filters, sorts, budgets, pros/cons and the
// response all see the same number. Hourly prices keep their micro-dollars (monthly is derived
// from the exact hourly price) and are shown to 4 decimals.
//
// Amounts from clients (max_price, budget_max) go through one parser, parseMoneyBound: the query
// runs with the micros it returns and every echo is made from those micros.

export const MICROS_PER_DOLLAR = 1_000_000;
export const MICROS_PER_CENT = 10_000;
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

/** Rounds to a whole number of cents, half-up (micros are never negative). */
export function roundMicrosToCent(micros: number): number {
  return Math.floor((micros + MICROS_PER_CENT / 2) / MICROS_PER_CENT) * MICROS_PER_CENT;
}

/** The monthly price of an hourly price (D36: hourly x 730), in whole cents (the rule above). */
export function monthlyMicrosFromHourly(hourlyMicros: number): number {
  return roundMicrosToCent(hourlyMicros * HOURS_PER_MONTH);
}

/** The largest amount a client may send: far above any price, and x 1e6 stays a safe integer. */
export const MAX_CLIENT_DOLLARS = 1_000_000_000;

const CLIENT_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * A client's upper bound on a price (max_price, budget_max) in integer micro-dollars, or null
 * when it is not a plain non-negative decimal no greater than MAX_CLIENT_DOLLARS. Leading zeros
 * are ignored ("0004.5" is 4.5). Digits past the micro-dollar are cut, never rounded: prices are
 * whole micros, so "price <= bound" means the same for the cut bound as for the text sent.
 * A JSON number is read through its shortest round-tripping text, so 21.97 is "21.97".
 */
export function parseMoneyBound(value: string | number): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = value.toString();
    // Exponent forms: tiny amounts (1e-7) are written out; huge ones are over the cap anyway.
    if (text.includes('e')) text = value > 1 ? text : value.toFixed(20);
  } else {
    text = value;
  }
  // Bounded before any work: a megabyte of zeros is not an amount.
  if (text.length > 64) return null;
  const match = CLIENT_DECIMAL.exec(text);
  if (!match) return null;
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  if (whole.length > 10) return null;
  const micros =
    Number(whole) * MICROS_PER_DOLLAR + Number((match[2] ?? '').slice(0, 6).padEnd(6, '0'));
  return micros > MAX_CLIENT_DOLLARS * MICROS_PER_DOLLAR ? null : micros;
}

/** The dollar amount a client bound ran with, for echoes (exact: both operands are integers). */
export function microsToDollars(micros: number): number {
  return micros / MICROS_PER_DOLLAR;
}

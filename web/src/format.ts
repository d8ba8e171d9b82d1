// Display formatting: prices per unit and period, memory, dates. Only for display: the API holds
// the exact money; the page divides and multiplies the numbers it was given.
export const PERIODS = ['hour', 'day', 'month', 'year'] as const;
export type Period = (typeof PERIODS)[number];
export const UNITS = ['instance', 'vcpu', 'gib'] as const;
export type PriceUnit = (typeof UNITS)[number];

export const UNIT_LABEL: Readonly<Record<PriceUnit, string>> = {
  instance: 'per instance',
  vcpu: 'per vCPU',
  gib: 'per GiB',
};

/** Hours in each period: a month is 730 hours (the API's own monthly = hourly x 730 rule). */
export const HOURS: Readonly<Record<Period, number>> = { hour: 1, day: 24, month: 730, year: 8760 };

/** A monthly figure (a price or the API's monthly price per vCPU or GiB) over another period. */
export function fromMonthly(monthly: number, period: Period): number {
  return period === 'month' ? monthly : (monthly * HOURS[period]) / HOURS.month;
}

export function priceFor(hourly: number, monthly: number, period: Period): number {
  switch (period) {
    case 'hour':
      return hourly;
    case 'day':
      return hourly * 24;
    case 'month':
      return monthly;
    case 'year':
      return monthly * 12;
  }
}

/**
 * How `Intl.NumberFormat('en', { style: 'currency' })` writes each currency the API accepts: the
 * prefix (symbol or code and a no-break space) and the usual digits. The page formats money
 * itself because the first Intl object a page creates costs 30-90 ms of main thread (ICU data),
 * more than the whole first render; test/web/format.test.ts checks this table and `money`
 * against Intl for every currency.
 */
const CURRENCY_FORMAT: Readonly<Record<string, readonly [prefix: string, digits: number]>> = {
  USD: ['$', 2],
  EUR: ['€', 2],
  JPY: ['¥', 0],
  KRW: ['₩', 0],
  SGD: ['SGD\u00a0', 2],
  HKD: ['HK$', 2],
  CNY: ['CN¥', 2],
  INR: ['₹', 2],
  IDR: ['IDR\u00a0', 0],
  MYR: ['MYR\u00a0', 2],
  PHP: ['₱', 2],
  THB: ['THB\u00a0', 2],
  AUD: ['A$', 2],
  NZD: ['NZ$', 2],
  GBP: ['£', 2],
  BRL: ['R$', 2],
  CAD: ['CA$', 2],
  CHF: ['CHF\u00a0', 2],
  CZK: ['CZK\u00a0', 2],
  DKK: ['DKK\u00a0', 2],
  HUF: ['HUF\u00a0', 0],
  ILS: ['₪', 2],
  ISK: ['ISK\u00a0', 0],
  MXN: ['MX$', 2],
  NOK: ['NOK\u00a0', 2],
  PLN: ['PLN\u00a0', 2],
  RON: ['RON\u00a0', 2],
  SEK: ['SEK\u00a0', 2],
  TRY: ['TRY\u00a0', 2],
  ZAR: ['ZAR\u00a0', 2],
};

function currencyFormat(currency: string): readonly [string, number] {
  return CURRENCY_FORMAT[currency] ?? [`${currency}\u00a0`, 2];
}

/** Digits after the point, rounded half away from zero on the number's shortest decimal form (as Intl does). */
function fixed(value: number, digits: number): string {
  const abs = Math.abs(value);
  const shortest = String(abs);
  if (shortest.includes('e')) return abs.toFixed(digits);
  const scaled = String(Math.round(Number(`${shortest}e${digits}`)));
  if (digits === 0) return scaled;
  const padded = scaled.padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** Thousands separated by commas: 1234567.5 -> 1,234,567.5. */
function grouped(text: string): string {
  const [whole, fraction] = text.split('.') as [string, string | undefined];
  const withCommas = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** Hourly figures keep 4 decimals (they are small); others use the currency's usual digits. */
export function money(value: number | undefined, currency: string, fine = false): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  const [prefix, usual] = currencyFormat(currency);
  const digits = fine ? Math.max(usual, 4) : usual;
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${prefix}${grouped(fixed(value, digits))}`;
}

/** Plain number for CSV and Markdown: no grouping, fixed decimals. */
export function plainMoney(value: number | undefined, currency: string, fine = false): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  const digits = currencyFormat(currency)[1];
  return value.toFixed(fine ? Math.max(digits, 4) : digits);
}

export function gib(memoryMb: number): string {
  const value = memoryMb / 1024;
  return Number.isInteger(value)
    ? String(value)
    : value.toFixed(value < 10 ? 2 : 1).replace(/0+$/, '');
}

/** Whole numbers with thousands separators, as `Intl.NumberFormat('en')` writes them. */
export const count = {
  format: (value: number): string => `${value < 0 ? '-' : ''}${grouped(fixed(value, 0))}`,
};

export function dateTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return 'never';
  const date = new Date(iso.includes('T') ? iso : `${iso.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function percent(value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return `${sign}${Math.abs(value).toFixed(1)}%`;
}

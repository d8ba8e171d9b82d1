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

const moneyFormats = new Map<string, Intl.NumberFormat>();
/** Hourly figures keep 4 decimals (they are small); others use the currency's usual digits. */
export function money(value: number | undefined, currency: string, fine = false): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  const key = `${currency}:${fine}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    const digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    format = new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      minimumFractionDigits: fine ? Math.max(digits, 4) : digits,
      maximumFractionDigits: fine ? Math.max(digits, 4) : digits,
    });
    moneyFormats.set(key, format);
  }
  return format.format(value);
}

/** Plain number for CSV and Markdown: no grouping, fixed decimals. */
export function plainMoney(value: number | undefined, currency: string, fine = false): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return value.toFixed(fine ? Math.max(digits, 4) : digits);
}

export function gib(memoryMb: number): string {
  const value = memoryMb / 1024;
  return Number.isInteger(value)
    ? String(value)
    : value.toFixed(value < 10 ? 2 : 1).replace(/0+$/, '');
}

export const count = new Intl.NumberFormat('en');

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

// A day's reference rates, as exact decimals of "units of currency per 1 EUR" (the ECB's base).
import type { ExactDecimal } from './exact-decimal.js';

export interface RateTable {
  /** The ECB reference date the rates are for (`YYYY-MM-DD`). */
  readonly asOf: string;
  /** Units of each currency per 1 EUR, EUR itself included (exactly 1). */
  readonly perEur: ReadonlyMap<string, ExactDecimal>;
}

/** Where a table came from, for /health and `metadata.exchange_rate.source` (never a path). */
export interface RateSource {
  readonly kind: 'snapshot' | 'live';
  /** Short text naming the upstream and the recording. */
  readonly source: string;
}

export interface LoadedRates extends RateTable, RateSource {}

/** Every code the table can convert to, sorted; USD first, as the API's default. */
export function currenciesOf(table: RateTable | undefined): readonly string[] {
  if (table === undefined) return USD_ONLY;
  // Asked on every /instances request: once per table (tables are replaced whole, never changed).
  let codes = currenciesByTable.get(table);
  if (codes === undefined) {
    const others = [...table.perEur.keys()].filter((code) => code !== 'USD').sort();
    codes = Object.freeze(['USD', ...others]);
    currenciesByTable.set(table, codes);
  }
  return codes;
}

const USD_ONLY: readonly string[] = Object.freeze(['USD']);
const currenciesByTable = new WeakMap<RateTable, readonly string[]>();

// The `currency` query parameter (D43), shared by the read endpoints that do not go through the
// /instances parser (history, change feed, /instance-types): raw value in, the money view of
// that currency or a parameter problem (D17's vocabulary) out.
import type { ParameterProblem } from '../catalog/instance-query.js';
import { moneyView, type MoneyView } from './convert.js';
import { currenciesOf, type LoadedRates } from './rate-table.js';

export type CurrencyResult =
  | { readonly ok: true; readonly value: MoneyView }
  | { readonly ok: false; readonly problem: ParameterProblem };

/**
 * `raw` is the query-string value (undefined when absent: USD). Upper case and exact, and one of
 * the currencies the rates in use can convert to; anything else names the allowed codes.
 */
export function parseCurrency(raw: unknown, rates: LoadedRates | undefined): CurrencyResult {
  if (raw === undefined) return { ok: true, value: moneyView(rates, 'USD') };
  if (typeof raw !== 'string') {
    return {
      ok: false,
      problem: { parameter: 'currency', value: raw, reason: 'must be given at most once' },
    };
  }
  const allowed = currenciesOf(rates);
  if (!allowed.includes(raw)) {
    return {
      ok: false,
      problem: {
        parameter: 'currency',
        value: raw,
        reason: 'is not one of the allowed values',
        allowed,
      },
    };
  }
  return { ok: true, value: moneyView(rates, raw) };
}

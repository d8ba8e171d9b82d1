// The `currency` query parameter (D43), shared by the read endpoints that do not go through the
// /instances parser (history, change feed): raw value in, the money view of that currency or a
// parameter problem (D17's vocabulary) out.
import { attempt, oneOf, readParameter, type Parsed } from '../catalog/query-parameters.js';
import { moneyView, type MoneyView } from '../catalog/money-view.js';
import { currenciesOf, type LoadedRates } from '../catalog/rate-table.js';

export type CurrencyResult = Parsed<MoneyView>;

/**
 * `raw` is the query-string value (undefined when absent: USD). Upper case and exact, and one of
 * the currencies the rates in use can convert to; anything else names the allowed codes.
 */
export function parseCurrency(raw: unknown, rates: LoadedRates | undefined): CurrencyResult {
  return attempt(() => {
    const currency = readParameter({ currency: raw }, 'currency', oneOf(currenciesOf(rates)));
    return moneyView(rates, currency ?? 'USD');
  });
}

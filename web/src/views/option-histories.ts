// The other purchase options' price periods of one record (D61), for the instance page's chart:
// one /history request per option the record is sold under, made together. An option whose
// periods fail to load is left out of the chart (its prices stay in the options table).
import { useEffect, useState } from 'preact/hooks';
import { apiJson } from '../api';
import type { HistoryData } from '../model';
import { OPTION_LABEL, withPurchaseOption, type PurchaseOption } from '../purchase-options';
import type { OtherLine } from './price-chart';

export function historyPath(id: number, currency: string, option: PurchaseOption): string {
  const query = new URLSearchParams();
  if (currency !== 'USD') query.set('currency', currency);
  withPurchaseOption(query, option);
  const text = query.toString();
  return `/instances/${id}/history${text === '' ? '' : `?${text}`}`;
}

/** The periods of each of `options` of record `id`, in the order given; [] while loading. */
export function useOptionHistories(
  id: number | undefined,
  currency: string,
  options: readonly PurchaseOption[],
): readonly OtherLine[] {
  const [lines, setLines] = useState<readonly OtherLine[]>([]);
  const key = id === undefined ? '' : `${id}|${currency}|${options.join(',')}`;
  useEffect(() => {
    setLines([]);
    if (id === undefined || options.length === 0) return;
    let current = true;
    void Promise.all(
      options.map((option) =>
        apiJson<HistoryData>(historyPath(id, currency, option)).then(
          (data) => ({
            label: OPTION_LABEL[option],
            periods: data.history,
            observedAt: data.instance.pricing.observed_at,
          }),
          () => undefined,
        ),
      ),
    ).then((found) => {
      if (current) setLines(found.filter((line) => line !== undefined));
    });
    return () => {
      current = false;
    };
    // The key names everything the requests depend on.
  }, [key]);
  return lines;
}

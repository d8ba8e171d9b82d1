// Text summaries of the history and freshness tools (see summaries.ts for the catalogue tools).
import type { ChangeFeedJson, RecordHistoryJson } from '../history/history-service.js';
import type { ProviderHealth } from '../health/health-service.js';
import type { ExchangeRatesHealth } from '../fx/exchange-rates.js';
import type { DisplayNames } from './summaries.js';

const SHOWN = 5;

export function historySummary(data: RecordHistoryJson): string {
  const record = data.instance;
  const lines = [
    `${record.instance_name} (${record.provider.display_name}, ${record.region.region_code}), record id ${record.id}: now ${record.pricing.monthly_price} ${record.pricing.currency}/month, observed ${record.pricing.observed_at.slice(0, 10)}${record.pricing.available === 1 ? '' : ' (not offered now)'}.`,
    `${data.history.length} price period(s), newest first:`,
  ];
  for (const period of data.history.slice(0, SHOWN)) {
    lines.push(
      `- from ${period.valid_from.slice(0, 10)} to ${period.valid_to?.slice(0, 10) ?? 'now'}: ${period.monthly_price} ${period.currency}/month${period.available ? '' : ' (not offered)'}`,
    );
  }
  return lines.join('\n');
}

export function changesSummary(
  data: ChangeFeedJson,
  order: 'oldest' | 'newest',
  names: DisplayNames,
): string {
  const lines = [
    `${data.changes.length} change(s), ${order} first${data.next_cursor === null ? '' : '; more with cursor=' + data.next_cursor}.`,
  ];
  if (data.summary !== undefined) {
    const kinds = Object.entries(data.summary.kinds).filter(([, n]) => n > 0);
    lines.push(
      `In the whole window: ${data.summary.total} (${kinds.map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}).`,
    );
  }
  for (const change of data.changes.slice(0, SHOWN)) {
    const price = (side: typeof change.old) =>
      side === null
        ? '-'
        : `${side.monthly_price}${side.currency === undefined ? '' : ` ${side.currency}`}`;
    const pct = change.change_pct === null ? '' : ` (${change.change_pct}%)`;
    lines.push(
      `- ${change.at.slice(0, 10)} ${change.kind}: ${change.instance.instance_name} (${names[change.instance.provider] ?? change.instance.provider}, ${change.instance.region_code}) ${price(change.old)} -> ${price(change.new)}/month${pct}`,
    );
  }
  if (data.changes.length > SHOWN)
    lines.push(`(${data.changes.length - SHOWN} more in the result below)`);
  lines.push('Prices are per month, USD unless a currency is named.');
  return lines.join('\n');
}

interface FreshnessData {
  providers: (Pick<ProviderHealth, 'name' | 'status' | 'last_sync' | 'data_source'> & {
    display_name: string;
  })[];
  exchange_rates?: ExchangeRatesHealth;
}

export function freshnessSummary(data: FreshnessData): string {
  const lines = data.providers.map((p) => {
    const source = p.data_source;
    const who = `${p.display_name} (${p.name}): ${p.status}, last sync ${p.last_sync ?? 'never'} UTC`;
    if (source === null) return `- ${who}; no figures yet`;
    const days = source.age_days;
    const stale = source.stale ? ' STALE: quote with its date, it may have changed' : '';
    return `- ${who}; ${source.kind} figures observed ${source.observed_at.slice(0, 10)} (${days} day(s) ago)${stale}; source: ${source.source}`;
  });
  const rates = data.exchange_rates;
  if (rates !== undefined) {
    lines.push(
      `- Exchange rates: ${rates.status}, ECB reference date ${rates.as_of ?? 'none'}; source: ${rates.source ?? 'none'}`,
    );
  }
  return `Freshness of the data:\n${lines.join('\n')}`;
}

// The short text before each result's JSON (D59, D66): what an assistant can quote at a glance,
// with the units and the observation dates. Bounded: a few lines whatever the page size.
import type { ExchangeRateNote } from '../catalog/money-view.js';
import type { InstanceRecord } from '../catalog/instance-json.js';
import type { RecommendData } from '../recommend/recommend.js';

const SHOWN = 5;

interface Pagination {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

export interface InstancesData {
  instances: InstanceRecord[];
  pagination: Pagination;
  metadata: { exchange_rate?: ExchangeRateNote; as_of?: string; last_sync: string | null };
}

export interface InstanceTypesData {
  instance_types: {
    provider: string;
    instance_id: string;
    vcpu: number;
    memory_mb: number;
    prices: Record<string, { monthly_price: number }>;
    cheapest_region: string;
    min_monthly_price: number;
    max_monthly_price: number;
    spread_pct: number | null;
  }[];
  pagination: Pagination;
  metadata: { regions: string[]; exchange_rate?: ExchangeRateNote; last_sync: string | null };
}

const gb = (memoryMb: number) => `${Math.round((memoryMb / 1024) * 100) / 100} GB`;

function rateText(note: ExchangeRateNote | undefined): string {
  return note === undefined
    ? ''
    : ` (1 USD = ${note.rate} ${note.currency}, ECB reference rate of ${note.as_of})`;
}

function pageText(count: number, p: Pagination, noun: string): string {
  if (p.total === 0 || count === 0) return `No ${noun} matched (total ${p.total}).`;
  const more = p.has_more ? `; more with offset=${p.offset + count}` : '';
  return `${p.total} ${noun} matched; showing ${p.offset + 1}-${p.offset + count}${more}.`;
}

/** D61: the option the prices are, when it is not the on-demand list price. */
function optionText(option: string | undefined): string {
  return option === undefined || option === 'on_demand' ? '' : `, priced as ${option}`;
}

export function instancesSummary(data: InstancesData): string {
  const currency = data.instances[0]?.pricing.currency ?? data.metadata.exchange_rate?.currency;
  const lines = [
    pageText(data.instances.length, data.pagination, 'instance record(s)'),
    `Prices per month in ${currency ?? 'USD'}${rateText(data.metadata.exchange_rate)}${data.metadata.as_of === undefined ? '' : `, as of ${data.metadata.as_of}`}${optionText(data.instances[0]?.pricing.purchase_option)}.`,
  ];
  for (const record of data.instances.slice(0, SHOWN)) {
    const p = record.pricing;
    lines.push(
      `- ${record.instance_name} (${record.provider.display_name}, ${record.region.region_code}): ${record.vcpu} vCPU, ${gb(record.memory_mb)}, ${p.monthly_price} ${p.currency}/month (${p.hourly_price}/hour), observed ${p.observed_at.slice(0, 10)}; id ${record.id}`,
    );
  }
  if (data.instances.length > SHOWN) {
    lines.push(`(${data.instances.length - SHOWN} more on this page in the result below)`);
  }
  return lines.join('\n');
}

/** Provider names as people know them (PROVIDER_*_DISPLAY_NAME), by provider name. */
export type DisplayNames = Readonly<Record<string, string>>;

export function instanceTypesSummary(data: InstanceTypesData, names: DisplayNames): string {
  const rows = data.instance_types;
  const lines = [
    pageText(rows.length, data.pagination, 'instance type(s)'),
    `Regions compared: ${data.metadata.regions.join(', ')}. Prices per month in ${data.metadata.exchange_rate?.currency ?? 'USD'}${rateText(data.metadata.exchange_rate)}.`,
  ];
  for (const row of rows.slice(0, SHOWN)) {
    const spread = row.spread_pct === null ? '' : `, spread ${row.spread_pct}%`;
    lines.push(
      `- ${row.instance_id} (${names[row.provider] ?? row.provider}; ${row.vcpu} vCPU, ${gb(row.memory_mb)}): cheapest in ${row.cheapest_region} at ${row.min_monthly_price}, dearest ${row.max_monthly_price}${spread}; ${Object.keys(row.prices).length} region(s)`,
    );
  }
  if (rows.length > SHOWN) lines.push(`(${rows.length - SHOWN} more in the result below)`);
  return lines.join('\n');
}

export interface RecommendSummaryOptions {
  /** The conversion, when prices are not USD. */
  readonly note: ExchangeRateNote | undefined;
  /** budget_max as asked, in the request's currency. */
  readonly budget: number | undefined;
  readonly displayNames: DisplayNames;
}

/**
 * The needs, the first picks, and (D66) every pick over the budget and every pick short of the
 * vCPUs needed, by rank: an assistant that reads only this still cannot miss them.
 */
export function recommendSummary(data: RecommendData, options: RecommendSummaryOptions): string {
  const { requirements, recommendations } = data;
  const { budget, displayNames } = options;
  const lines = [
    `The stack needs at least ${requirements.min_memory_mb} MB of memory and ${requirements.min_vcpu} vCPU. ${recommendations.length === 0 ? 'No instance matched.' : `${recommendations.length} recommendation(s), best first${optionText(recommendations[0]?.price.purchase_option)}:`}`,
  ];
  for (const item of recommendations.slice(0, SHOWN)) {
    lines.push(
      `${item.rank}. ${item.instance} (${displayNames[item.provider] ?? item.provider}, ${item.region_code}): ${item.specs.vcpu} vCPU, ${gb(item.specs.memory_mb)}, ${item.price.monthly} ${item.price.currency}/month, match_score ${item.match_score}; id ${item.id}`,
    );
  }
  if (recommendations.length > SHOWN) {
    lines.push(`(${recommendations.length - SHOWN} more in the result below)`);
  }
  const ranks = (items: readonly { rank: number }[]) =>
    items.map((item) => `#${item.rank}`).join(', ');
  if (budget !== undefined) {
    const over = recommendations.filter((item) => item.price.monthly > budget);
    const currency = recommendations[0]?.price.currency ?? 'USD';
    lines.push(
      over.length === 0
        ? `Every recommendation is within the budget of ${budget} ${currency}/month.`
        : `Over the budget of ${budget} ${currency}/month: ${ranks(over)}.`,
    );
  }
  const short = recommendations.filter((item) => item.specs.vcpu < requirements.min_vcpu);
  if (short.length > 0) {
    lines.push(`Fewer vCPUs than the ${requirements.min_vcpu} needed: ${ranks(short)}.`);
  }
  if (options.note !== undefined) lines.push(`Prices converted${rateText(options.note)}.`);
  return lines.join('\n');
}

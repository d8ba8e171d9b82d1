// GET /instances query parsing (spec 4.2, D16 to D19): raw query-string values in, a typed
// InstanceQuery, the filters_applied echo and a normalised cache key out.
import type { InstanceFilter, InstanceQuery, SortColumn } from './record-query.js';
import { moneyView, type MoneyView } from './money-view.js';
import { currenciesOf, type LoadedRates } from './rate-table.js';
import { microsToDollars } from './money.js';
import { INSTANCE_FAMILIES, PROVIDER_NAMES } from './model.js';
import type { CitySlug } from './model.js';
import { CITY_FILTER, regionsWithinCities } from './city-list.js';
import { REGION_FILTER } from './region-list.js';
import {
  attempt,
  boolean,
  decimal,
  int,
  money,
  oneOf,
  readParameter,
  readParameters,
  requireNotAbove,
  text,
  type Parsed,
  type RawQuery,
} from './query-parameters.js';
import { foldAsciiCase, SEARCH_MAX_CHARS } from './text-search.js';
import {
  DEFAULT_PURCHASE_OPTION,
  PURCHASE_OPTIONS,
  type PurchaseOption,
} from './purchase-options.js';
import { ARCH_FILTER, CPU_ALLOCATION_FILTER } from './machine-facts-filters.js';

export const SORT_FIELDS = [
  'price',
  'monthly_price',
  'hourly_price',
  'vcpu',
  'memory_mb',
  'memory_gb',
  'storage_gb',
  'instance_name',
  'provider',
  'region',
  'price_per_vcpu',
  'price_per_gb',
  'coremark',
  'coremark_per_price',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

const SORT_COLUMN: Readonly<Record<SortField, SortColumn>> = {
  price: 'monthly_price',
  monthly_price: 'monthly_price',
  hourly_price: 'hourly_price',
  vcpu: 'vcpu',
  memory_mb: 'memory_mb',
  memory_gb: 'memory_mb',
  storage_gb: 'storage_gb',
  instance_name: 'instance_name',
  provider: 'provider',
  region: 'region',
  price_per_vcpu: 'price_per_vcpu',
  price_per_gb: 'price_per_gb',
  coremark: 'coremark',
  coremark_per_price: 'coremark_per_price',
};

export const MAX_OFFSET = 1_000_000;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** D47: a CSV export may ask for this many rows at once. */
export const CSV_MAX_LIMIT = 10_000;

/** The filter parameters in their fixed order: filters_applied and the cache key follow it. */
export const FILTER_PARAMETERS = [
  'provider',
  'region',
  'city',
  'min_vcpu',
  'max_vcpu',
  'min_memory_gb',
  'max_memory_gb',
  'max_price',
  'instance_family',
  'has_gpu',
  'q',
  'arch',
  'cpu_allocation',
  'purchase_option',
] as const;
type FilterParameter = (typeof FILTER_PARAMETERS)[number];
export type FiltersApplied = Partial<Record<FilterParameter, string | number | boolean>>;

export interface ParsedInstanceQuery {
  readonly query: InstanceQuery;
  /** Prices in the requested currency (D43); USD by default. */
  readonly money: MoneyView;
  readonly filtersApplied: FiltersApplied;
  /** D61: the option whose prices the query filters, sorts and shows; on_demand by default. */
  readonly purchaseOption: PurchaseOption;
  /** D56 `city`, when given: the cities in CITY_SLUGS order (already applied to the filter). */
  readonly cities?: readonly CitySlug[];
  /**
   * Built from the query that runs (never from the echo alone; issue 15 item 8), the same for
   * every spelling of it. The listing's response cache is per catalogue version besides.
   */
  readonly cacheKey: string;
}

export type ParseResult = Parsed<ParsedInstanceQuery>;

/** `q` (extension D54): 1 to SEARCH_MAX_CHARS printable characters, ASCII case folded. */
function searchText(text: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (text.length === 0 || text.length > SEARCH_MAX_CHARS || /[\u0000-\u001f\u007f]/.test(text)) {
    return undefined;
  }
  return foldAsciiCase(text);
}

/** The parameters of GET /instances up to `order`, in the order they are checked. */
const INSTANCE_PARAMETERS = {
  provider: oneOf(PROVIDER_NAMES),
  region: REGION_FILTER,
  city: CITY_FILTER,
  q: text(searchText, `must be 1 to ${SEARCH_MAX_CHARS} characters without control characters`),
  min_vcpu: int(0, 1_000_000),
  max_vcpu: int(0, 1_000_000),
  min_memory_gb: decimal,
  max_memory_gb: decimal,
  max_price: money,
  instance_family: oneOf(INSTANCE_FAMILIES),
  has_gpu: boolean,
  arch: ARCH_FILTER,
  cpu_allocation: CPU_ALLOCATION_FILTER,
  purchase_option: oneOf(PURCHASE_OPTIONS),
  sort_by: oneOf(SORT_FIELDS),
  order: oneOf(['asc', 'desc'] as const),
};
const OFFSET = int(0, MAX_OFFSET);
const LIMITS = new Map([MAX_LIMIT, CSV_MAX_LIMIT].map((max) => [max, int(1, max)]));

/** The filter's fields in a fixed (name) order, whatever order they were set in. */
function filterKeyParts(filter: InstanceFilter): [string, unknown][] {
  return Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `rates`: the exchange rates in use, which decide the currencies allowed (D43); without them
 * only USD is.
 */
export interface ParseOptions {
  /** Largest `limit` accepted: MAX_LIMIT for JSON, CSV_MAX_LIMIT for a CSV export (D47). */
  readonly maxLimit?: number;
}

export function parseInstanceQuery(
  raw: RawQuery,
  rates?: LoadedRates,
  options: ParseOptions = {},
): ParseResult {
  return attempt(() => parse(raw, rates, options.maxLimit ?? MAX_LIMIT));
}

function parse(
  raw: RawQuery,
  rates: LoadedRates | undefined,
  maxLimit: number,
): ParsedInstanceQuery {
  const given = readParameters(raw, INSTANCE_PARAMETERS);
  const { provider, city: cities, q: search, min_vcpu: minVcpu, max_vcpu: maxVcpu } = given;
  const { min_memory_gb: minMemoryGb, max_memory_gb: maxMemoryGb } = given;
  const { max_price: maxPriceMicros, instance_family: family, has_gpu: hasGpu } = given;
  const { arch: architectures, cpu_allocation: allocations } = given;
  const purchaseOption = given.purchase_option ?? DEFAULT_PURCHASE_OPTION;
  const regionsGiven = given.region;
  // D56: with both, a record's region must be listed and in a listed city; none may be left.
  const regions = cities === undefined ? regionsGiven : regionsWithinCities(cities, regionsGiven);
  const region = regions?.length === 1 ? regions[0] : undefined;
  const regionList = regions !== undefined && regions.length !== 1 ? regions : undefined;
  const order = given.order ?? 'asc';
  const limit = readParameter(raw, 'limit', LIMITS.get(maxLimit) ?? int(1, maxLimit));
  const offset = readParameter(raw, 'offset', OFFSET) ?? 0;
  const currency = readParameter(raw, 'currency', oneOf(currenciesOf(rates))) ?? 'USD';
  const prices = moneyView(rates, currency);
  requireNotAbove(raw, { name: 'min_vcpu', value: minVcpu }, { name: 'max_vcpu', value: maxVcpu });
  requireNotAbove(
    raw,
    { name: 'min_memory_gb', value: minMemoryGb },
    { name: 'max_memory_gb', value: maxMemoryGb },
  );

  const applied: Record<FilterParameter, string | number | boolean | undefined> = {
    provider,
    region: regionsGiven?.join(','),
    city: cities?.join(','),
    min_vcpu: minVcpu,
    max_vcpu: maxVcpu,
    min_memory_gb: minMemoryGb,
    max_memory_gb: maxMemoryGb,
    // The echo is the bound the query runs with, never the text sent (regression: leading zeros).
    max_price: maxPriceMicros === undefined ? undefined : microsToDollars(maxPriceMicros),
    instance_family: family,
    has_gpu: hasGpu,
    q: search,
    arch: architectures?.join(','),
    cpu_allocation: allocations?.join(','),
    purchase_option: given.purchase_option,
  };
  const filtersApplied: FiltersApplied = {};
  for (const name of FILTER_PARAMETERS) {
    const value = applied[name];
    if (value !== undefined) filtersApplied[name] = value;
  }

  const filter: InstanceFilter = {
    ...(provider !== undefined && { provider }),
    ...(region !== undefined && { region }),
    ...(regionList !== undefined && { regions: regionList }),
    ...(minVcpu !== undefined && { minVcpu }),
    ...(maxVcpu !== undefined && { maxVcpu }),
    // D18: memory_mb / 1024 compared with the GB bound, i.e. memory_mb against GB x 1024.
    ...(minMemoryGb !== undefined && { minMemoryMb: minMemoryGb * 1024 }),
    ...(maxMemoryGb !== undefined && { maxMemoryMb: maxMemoryGb * 1024 }),
    // Digits past the micro-dollar are cut, never rounded up, so no price above the bound can
    // match (max_price=1.0000006 allows $1.000000, and is echoed as 1). In another currency the
    // bound is in that currency and compares the converted, displayed price (D43); conversion is
    // monotonic, so that is one bound on the exact USD price.
    ...(maxPriceMicros !== undefined && {
      maxMonthlyMicros:
        currency === 'USD'
          ? maxPriceMicros
          : prices.maxMonthlyMicrosShownAtMost({ units: BigInt(maxPriceMicros), scale: 6 }),
    }),
    ...(family !== undefined && { family }),
    ...(hasGpu !== undefined && { hasGpu }),
    ...(search !== undefined && { text: search }),
    ...(architectures !== undefined && { architectures }),
    ...(allocations !== undefined && { allocations }),
  };
  const sort = SORT_COLUMN[given.sort_by ?? 'monthly_price'];
  const query: InstanceQuery = { filter, sort, order, limit: limit ?? DEFAULT_LIMIT, offset };
  // Built from the query itself (the filter the store runs), so two requests share a cache entry
  // only when they run the same query, whatever their spelling.
  // The currency and the option too: the same filter in two currencies, or over two options'
  // prices, is two different answers.
  // The echo of `region` and `city` is part of the body: `region=icn` and `region=icn&city=seoul`
  // run one query but answer two different filters_applied.
  const cacheKey = JSON.stringify([
    filterKeyParts(filter),
    sort,
    order,
    query.limit,
    offset,
    currency,
    purchaseOption,
    // Given or defaulted, on_demand runs one query, but only a given one is echoed.
    given.purchase_option !== undefined,
    ...(cities === undefined ? [] : [filtersApplied.region ?? null, filtersApplied.city]),
  ]);
  return {
    query,
    money: prices,
    filtersApplied,
    purchaseOption,
    cacheKey,
    ...(cities !== undefined && { cities }),
  };
}

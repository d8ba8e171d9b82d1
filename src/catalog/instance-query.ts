// GET /instances query parsing (spec 4.2, D16 to D19): raw query-string values in, a typed
// InstanceQuery, the filters_applied echo and a normalised cache key out.
import type { InstanceFilter, InstanceQuery, SortColumn } from './record-query.js';
import { moneyView, type MoneyView } from '../fx/convert.js';
import { currenciesOf, type LoadedRates } from '../fx/rate-table.js';
import { MAX_CLIENT_DOLLARS, microsToDollars, parseMoneyBound } from './money.js';
import { CITY_SLUGS, INSTANCE_FAMILIES, PROVIDER_NAMES, REGION_CODES } from './model.js';
import type { CitySlug } from './model.js';
import { parseCityList, regionsWithinCities } from './city-list.js';
import { parseRegionList } from './region-list.js';
import { foldAsciiCase, SEARCH_MAX_CHARS } from './text-search.js';

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
] as const;
type FilterParameter = (typeof FILTER_PARAMETERS)[number];
export type FiltersApplied = Partial<Record<FilterParameter, string | number | boolean>>;

export interface ParameterProblem {
  readonly parameter: string;
  /** The value as sent (a string, or the list when the parameter was repeated). */
  readonly value: unknown;
  readonly reason: string;
  readonly allowed?: readonly string[];
}

export interface ParsedInstanceQuery {
  readonly query: InstanceQuery;
  /** Prices in the requested currency (D43); USD by default. */
  readonly money: MoneyView;
  readonly filtersApplied: FiltersApplied;
  /** D56 `city`, when given: the cities in CITY_SLUGS order (already applied to the filter). */
  readonly cities?: readonly CitySlug[];
  /**
   * Built from the query that runs (never from the echo alone; issue 15 item 8), the same for
   * every spelling of it. The listing's response cache is per catalogue version besides.
   */
  readonly cacheKey: string;
}

export type ParseResult =
  | { readonly ok: true; readonly value: ParsedInstanceQuery }
  | { readonly ok: false; readonly problem: ParameterProblem };

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;

class Problem extends Error {
  constructor(readonly problem: ParameterProblem) {
    super(problem.reason);
  }
}

type Raw = Readonly<Record<string, unknown>>;

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new Problem({ parameter: name, value, reason: 'must be given at most once' });
  }
  return value;
}

function integer(raw: Raw, name: string, min: number, max: number): number | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  if (!WHOLE.test(text)) {
    throw new Problem({ parameter: name, value: text, reason: 'must be a whole number' });
  }
  const value = Number(text);
  if (value < min || value > max) {
    throw new Problem({ parameter: name, value: text, reason: `must be from ${min} to ${max}` });
  }
  return value;
}

/** Finite, >= 0, plain decimal notation; bounded so that x 1024 or x 1e6 stays exact. */
function decimal(raw: Raw, name: string): number | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  if (!DECIMAL.test(text) || text.length > 20 || Number(text) > 1e9) {
    throw new Problem({
      parameter: name,
      value: text,
      reason: 'must be a non-negative decimal number no greater than 1000000000',
    });
  }
  return Number(text);
}

/** A money bound in micro-dollars, by the one money parser (money.ts parseMoneyBound). */
function money(raw: Raw, name: string): number | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  const micros = parseMoneyBound(text);
  if (micros === null) {
    throw new Problem({
      parameter: name,
      value: text,
      reason: `must be a non-negative decimal number no greater than ${MAX_CLIENT_DOLLARS}`,
    });
  }
  return micros;
}

function oneOf<T extends string>(raw: Raw, name: string, allowed: readonly T[]): T | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) {
    throw new Problem({
      parameter: name,
      value: text,
      reason: 'is not one of the allowed values',
      allowed,
    });
  }
  return text as T;
}

function notAbove(
  min: number | undefined,
  max: number | undefined,
  minName: string,
  maxName: string,
  raw: Raw,
) {
  if (min !== undefined && max !== undefined && min > max) {
    throw new Problem({
      parameter: minName,
      value: raw[minName],
      reason: `must not be greater than ${maxName}`,
    });
  }
}

/**
 * `region`: one code exactly as D17 has it, or (extension D53) a comma-separated list of codes.
 * The codes the query runs with, in REGION_CODES order (so every spelling of one list is one
 * query and one echo).
 */
function regionFilter(raw: Raw): readonly string[] | undefined {
  const text = single(raw, 'region');
  if (text === undefined) return undefined;
  if (!text.includes(',')) return [oneOf(raw, 'region', REGION_CODES)!];
  const parsed = parseRegionList(text);
  if (!parsed.ok) {
    throw new Problem({
      parameter: 'region',
      value: text,
      reason: `${parsed.reason} (one region code, or a comma-separated list of them)`,
      allowed: REGION_CODES,
    });
  }
  return REGION_CODES.filter((code) => parsed.codes.includes(code));
}

/** `city` (D56): one slug or a comma-separated list, in CITY_SLUGS order. */
function cityFilter(raw: Raw): readonly CitySlug[] | undefined {
  const text = single(raw, 'city');
  if (text === undefined) return undefined;
  const parsed = parseCityList(text);
  if (!parsed.ok) {
    throw new Problem({
      parameter: 'city',
      value: text,
      reason: `${parsed.reason} (one city, or a comma-separated list of them)`,
      allowed: CITY_SLUGS,
    });
  }
  return parsed.cities;
}

/** `q` (extension D54): 1 to SEARCH_MAX_CHARS printable characters, ASCII case folded. */
function searchText(raw: Raw): string | undefined {
  const text = single(raw, 'q');
  if (text === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  if (text.length === 0 || text.length > SEARCH_MAX_CHARS || /[\u0000-\u001f\u007f]/.test(text)) {
    throw new Problem({
      parameter: 'q',
      value: text,
      reason: `must be 1 to ${SEARCH_MAX_CHARS} characters without control characters`,
    });
  }
  return foldAsciiCase(text);
}

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
  raw: Raw,
  rates?: LoadedRates,
  options: ParseOptions = {},
): ParseResult {
  try {
    return { ok: true, value: parse(raw, rates, options.maxLimit ?? MAX_LIMIT) };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.problem };
    throw error;
  }
}

function parse(raw: Raw, rates: LoadedRates | undefined, maxLimit: number): ParsedInstanceQuery {
  const provider = oneOf(raw, 'provider', PROVIDER_NAMES);
  const regionsGiven = regionFilter(raw);
  const cities = cityFilter(raw);
  // D56: with both, a record's region must be listed and in a listed city; none may be left.
  const regions = cities === undefined ? regionsGiven : regionsWithinCities(cities, regionsGiven);
  const region = regions?.length === 1 ? regions[0] : undefined;
  const regionList = regions !== undefined && regions.length !== 1 ? regions : undefined;
  const text = searchText(raw);
  const minVcpu = integer(raw, 'min_vcpu', 0, 1_000_000);
  const maxVcpu = integer(raw, 'max_vcpu', 0, 1_000_000);
  const minMemoryGb = decimal(raw, 'min_memory_gb');
  const maxMemoryGb = decimal(raw, 'max_memory_gb');
  const maxPriceMicros = money(raw, 'max_price');
  const family = oneOf(raw, 'instance_family', INSTANCE_FAMILIES);
  const hasGpuText = oneOf(raw, 'has_gpu', ['true', 'false'] as const);
  const sortBy = oneOf(raw, 'sort_by', SORT_FIELDS);
  const order = oneOf(raw, 'order', ['asc', 'desc'] as const) ?? 'asc';
  const limit = integer(raw, 'limit', 1, maxLimit) ?? DEFAULT_LIMIT;
  const offset = integer(raw, 'offset', 0, MAX_OFFSET) ?? 0;
  const currency = oneOf(raw, 'currency', currenciesOf(rates)) ?? 'USD';
  const prices = moneyView(rates, currency);
  notAbove(minVcpu, maxVcpu, 'min_vcpu', 'max_vcpu', raw);
  notAbove(minMemoryGb, maxMemoryGb, 'min_memory_gb', 'max_memory_gb', raw);

  const hasGpu = hasGpuText === undefined ? undefined : hasGpuText === 'true';
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
    q: text,
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
    ...(text !== undefined && { text }),
  };
  const sort = SORT_COLUMN[sortBy ?? 'monthly_price'];
  const query: InstanceQuery = { filter, sort, order, limit, offset };
  // Built from the query itself (the filter the store runs), so two requests share a cache entry
  // only when they run the same query, whatever their spelling.
  // The currency too: the same filter in two currencies is two different answers.
  // The echo of `region` and `city` is part of the body: `region=icn` and `region=icn&city=seoul`
  // run one query but answer two different filters_applied.
  const cacheKey = JSON.stringify([
    filterKeyParts(filter),
    sort,
    order,
    limit,
    offset,
    currency,
    ...(cities === undefined ? [] : [filtersApplied.region ?? null, filtersApplied.city]),
  ]);
  return {
    query,
    money: prices,
    filtersApplied,
    cacheKey,
    ...(cities !== undefined && { cities }),
  };
}

// GET /instance-types query parsing (D46): the /instances filters (parsed by the /instances
// parser itself, so they mean exactly the same), plus `regions`, `available_in`, its own sorts
// and page bounds. Raw query-string values in; a typed query or a parameter problem out.
import type { MoneyView } from '../../fx/convert.js';
import type { LoadedRates } from '../../fx/rate-table.js';
import type { InstanceFilter } from '../record-query.js';
import {
  MAX_OFFSET,
  parseInstanceQuery,
  type FiltersApplied,
  type ParameterProblem,
} from '../instance-query.js';
import { cityOfRegion, CITY_SLUGS, REGION_CODES, regionCodesInCities } from '../model.js';
import { parseRegionList } from '../region-list.js';
import {
  AVAILABLE_IN,
  INSTANCE_TYPE_SORTS,
  type AvailableIn,
  type InstanceTypeSort,
} from './pivot.js';

export const INSTANCE_TYPES_DEFAULT_LIMIT = 50;
export const INSTANCE_TYPES_MAX_LIMIT = 100;

/** Parameters of /instances that /instance-types reads itself, or refuses. */
const OWN_PARAMETERS = [
  'sort_by',
  'order',
  'limit',
  'offset',
  'regions',
  'available_in',
  'columns',
];

/** D56: what `prices` is keyed by: region codes (the default) or city slugs. */
export const INSTANCE_TYPE_COLUMNS = ['region', 'city'] as const;
export type InstanceTypeColumns = (typeof INSTANCE_TYPE_COLUMNS)[number];
/**
 * Refused rather than ignored: `region` would silently do nothing next to `regions`, and a
 * past catalogue (`as_of`, D41) is not pivoted; either would give an answer the client did not
 * ask for.
 */
const REFUSED: Readonly<Record<string, string>> = {
  region: 'is not a parameter of /instance-types: list the regions in `regions`',
  as_of: 'is not supported on /instance-types (only /instances reads past catalogues)',
};

export interface InstanceTypesQuery {
  /** The /instances filters (never a region: `regions` selects the columns). */
  readonly filter: InstanceFilter;
  /**
   * The listed regions in the order their prices are shown: `regions` (default all), only those
   * in a `city` when one is given (D56); with `columns=city`, ordered by city (CITY_SLUGS).
   */
  readonly regions: readonly string[];
  /** D56 `columns`: `prices` keyed by region code (default) or by city slug. */
  readonly columns: InstanceTypeColumns;
  /** True when `regions` was given (echoed in filters_applied). */
  readonly regionsGiven: boolean;
  readonly availableIn: AvailableIn;
  readonly sort: InstanceTypeSort;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
  readonly money: MoneyView;
  /** The /instances filters as /instances echoes them. */
  readonly filtersApplied: FiltersApplied;
  /** Same for every spelling of the same query (for a response cache). */
  readonly cacheKey: string;
}

export type InstanceTypesParse =
  | { readonly ok: true; readonly value: InstanceTypesQuery }
  | { readonly ok: false; readonly problem: ParameterProblem };

type Raw = Readonly<Record<string, unknown>>;

class Problem extends Error {
  constructor(readonly problem: ParameterProblem) {
    super(problem.reason);
  }
}

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new Problem({ parameter: name, value, reason: 'must be given at most once' });
  }
  return value;
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

function integer(raw: Raw, name: string, min: number, max: number): number | undefined {
  const text = single(raw, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) {
    throw new Problem({ parameter: name, value: text, reason: 'must be a whole number' });
  }
  const value = Number(text);
  if (value < min || value > max) {
    throw new Problem({ parameter: name, value: text, reason: `must be from ${min} to ${max}` });
  }
  return value;
}

function regionsOf(raw: Raw): readonly string[] | undefined {
  const text = single(raw, 'regions');
  if (text === undefined) return undefined;
  const parsed = parseRegionList(text);
  if (!parsed.ok) {
    throw new Problem({
      parameter: 'regions',
      value: text,
      reason: `${parsed.reason} (a comma-separated list of region codes)`,
      allowed: REGION_CODES,
    });
  }
  return parsed.codes;
}

export function parseInstanceTypesQuery(raw: Raw, rates?: LoadedRates): InstanceTypesParse {
  try {
    return { ok: true, value: parse(raw, rates) };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.problem };
    throw error;
  }
}

function parse(raw: Raw, rates: LoadedRates | undefined): InstanceTypesQuery {
  for (const [name, reason] of Object.entries(REFUSED)) {
    if (raw[name] !== undefined) throw new Problem({ parameter: name, value: raw[name], reason });
  }
  const filterRaw: Record<string, unknown> = { ...raw };
  for (const name of OWN_PARAMETERS) delete filterRaw[name];
  const filters = parseInstanceQuery(filterRaw, rates);
  if (!filters.ok) throw new Problem(filters.problem);

  const given = regionsOf(raw);
  const columns = oneOf(raw, 'columns', INSTANCE_TYPE_COLUMNS) ?? 'region';
  // D56: `city` (read by the /instances parser) keeps the listed regions that are in its cities.
  const cities = filters.value.cities;
  const inCities = cities === undefined ? undefined : regionCodesInCities(cities);
  const listed = (given ?? REGION_CODES).filter((code) => inCities?.includes(code) ?? true);
  // By city: one column per city, in CITY_SLUGS order (a provider has one region per city).
  const cityRank = (code: string) => CITY_SLUGS.indexOf(cityOfRegion(code)!);
  const regions =
    columns === 'city' ? [...listed].sort((a, b) => cityRank(a) - cityRank(b)) : listed;
  const availableIn = oneOf(raw, 'available_in', AVAILABLE_IN) ?? 'any';
  const sort = oneOf(raw, 'sort_by', INSTANCE_TYPE_SORTS) ?? 'min_price';
  const order = oneOf(raw, 'order', ['asc', 'desc'] as const) ?? 'asc';
  const limit = integer(raw, 'limit', 1, INSTANCE_TYPES_MAX_LIMIT) ?? INSTANCE_TYPES_DEFAULT_LIMIT;
  const offset = integer(raw, 'offset', 0, MAX_OFFSET) ?? 0;
  const { money, filtersApplied } = filters.value;
  const filter = filters.value.query.filter;
  const cacheKey = JSON.stringify([
    filters.value.cacheKey,
    [...regions].sort(),
    regions,
    columns,
    availableIn,
    sort,
    order,
    limit,
    offset,
  ]);
  return {
    filter,
    regions,
    regionsGiven: given !== undefined,
    columns,
    availableIn,
    sort,
    order,
    limit,
    offset,
    money,
    filtersApplied,
    cacheKey,
  };
}

// GET /instance-types query parsing (D46): the /instances filters (parsed by the /instances
// parser itself, so they mean exactly the same), plus `regions`, `available_in`, its own sorts
// and page bounds. Raw query-string values in; a typed query or a parameter problem out.
import type { MoneyView } from '../money-view.js';
import type { LoadedRates } from '../rate-table.js';
import type { InstanceFilter } from '../record-query.js';
import { MAX_OFFSET, parseInstanceQuery, type FiltersApplied } from '../instance-query.js';
import { cityOfRegion, CITY_SLUGS, REGION_CODES, regionCodesInCities } from '../model.js';
import {
  attempt,
  int,
  oneOf,
  ParameterError,
  readParameters,
  refused,
  type Parsed,
  type RawQuery,
} from '../query-parameters.js';
import { REGION_COLUMNS } from '../region-list.js';
import type { PurchaseOption } from '../purchase-options.js';
import {
  AVAILABLE_IN,
  INSTANCE_TYPE_SORTS,
  type AvailableIn,
  type InstanceTypeSort,
} from './pivot.js';

export const INSTANCE_TYPES_DEFAULT_LIMIT = 50;
export const INSTANCE_TYPES_MAX_LIMIT = 100;

/** D56: what `prices` is keyed by: region codes (the default) or city slugs. */
export const INSTANCE_TYPE_COLUMNS = ['region', 'city'] as const;
export type InstanceTypeColumns = (typeof INSTANCE_TYPE_COLUMNS)[number];

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
  /** D61: the option whose prices are pivoted (the /instances parameter). */
  readonly purchaseOption: PurchaseOption;
  /** The /instances filters as /instances echoes them. */
  readonly filtersApplied: FiltersApplied;
  /** Same for every spelling of the same query (for a response cache). */
  readonly cacheKey: string;
}

export type InstanceTypesParse = Parsed<InstanceTypesQuery>;

/**
 * Refused rather than ignored (checked before anything else): `region` would silently do nothing
 * next to `regions`, and a past catalogue (`as_of`, D41) is not pivoted; either would give an
 * answer the client did not ask for.
 */
const REFUSED_PARAMETERS = {
  region: refused('is not a parameter of /instance-types: list the regions in `regions`'),
  as_of: refused('is not supported on /instance-types (only /instances reads past catalogues)'),
};
/** Read here, after the /instances filters (which never see them). */
const OWN_PARAMETER_SPECS = {
  regions: REGION_COLUMNS,
  columns: oneOf(INSTANCE_TYPE_COLUMNS),
  available_in: oneOf(AVAILABLE_IN),
  sort_by: oneOf(INSTANCE_TYPE_SORTS),
  order: oneOf(['asc', 'desc'] as const),
  limit: int(1, INSTANCE_TYPES_MAX_LIMIT),
  offset: int(0, MAX_OFFSET),
};

export function parseInstanceTypesQuery(raw: RawQuery, rates?: LoadedRates): InstanceTypesParse {
  return attempt(() => parse(raw, rates));
}

function parse(raw: RawQuery, rates: LoadedRates | undefined): InstanceTypesQuery {
  readParameters(raw, REFUSED_PARAMETERS);
  const filterRaw: Record<string, unknown> = { ...raw };
  for (const name in OWN_PARAMETER_SPECS) delete filterRaw[name];
  const filters = parseInstanceQuery(filterRaw, rates);
  if (!filters.ok) throw new ParameterError(filters.problem);

  const own = readParameters(raw, OWN_PARAMETER_SPECS);
  const given = own.regions;
  const columns = own.columns ?? 'region';
  // D56: `city` (read by the /instances parser) keeps the listed regions that are in its cities.
  const cities = filters.value.cities;
  const inCities = cities === undefined ? undefined : regionCodesInCities(cities);
  const listed = (given ?? REGION_CODES).filter((code) => inCities?.includes(code) ?? true);
  // By city: one column per city, in CITY_SLUGS order (a provider has one region per city).
  const cityRank = (code: string) => CITY_SLUGS.indexOf(cityOfRegion(code)!);
  const regions =
    columns === 'city' ? [...listed].sort((a, b) => cityRank(a) - cityRank(b)) : listed;
  const availableIn = own.available_in ?? 'any';
  const sort = own.sort_by ?? 'min_price';
  const order = own.order ?? 'asc';
  const limit = own.limit ?? INSTANCE_TYPES_DEFAULT_LIMIT;
  const offset = own.offset ?? 0;
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
    purchaseOption: filters.value.purchaseOption,
    filtersApplied,
    cacheKey,
  };
}

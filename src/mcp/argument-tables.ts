// The tools' arguments (tool-arguments.ts): one entry per argument, named as the HTTP parameter it
// becomes, described for a model in a line. The enums are the live lists (refilled in place when
// the providers are installed), read when `tools/list` is answered.
import { AVAILABLE_IN, INSTANCE_TYPE_SORTS } from '../catalog/instance-types/pivot.js';
import { INSTANCE_TYPE_COLUMNS } from '../catalog/instance-types/instance-types-query.js';
import { SORT_FIELDS } from '../catalog/instance-query.js';
import { CPU_ALLOCATIONS, CPU_ARCHITECTURES } from '../catalog/machine-facts.js';
import { PURCHASE_OPTIONS } from '../catalog/purchase-options.js';
import {
  CITY_SLUGS,
  INSTANCE_FAMILIES,
  PROVIDER_NAMES,
  REGION_CODES,
  providerEntry,
} from '../catalog/model.js';
import { CHANGE_KINDS } from '../catalog/price-change-model.js';
import { CHANGE_ORDERS } from '../history/history-query.js';
import { RANK_BY } from '../recommend/rank.js';
import { SCALES, STACK_NAMES } from '../recommend/stacks.js';
import { limitArgument, type ArgumentTable, type PageSize } from './tool-arguments.js';

const string = (description: string) => ({ type: 'string', description });
const oneOf = (values: readonly string[], description: string) => ({
  type: 'string',
  enum: values,
  description,
});
const integer = (description: string) => ({ type: 'integer', minimum: 0, description });
const number = (description: string) => ({ type: 'number', minimum: 0, description });

/** Page sizes chosen for an assistant's context (docs/mcp.md "Sizes"), not the HTTP defaults. */
export const PAGES = {
  instances: { default: 10, max: 50 },
  instanceTypes: { default: 10, max: 30 },
  recommendations: { default: 5, max: 25 },
  changes: { default: 20, max: 100 },
} as const satisfies Record<string, PageSize>;

export const CURRENCY = {
  currency: string(
    'Currency of prices and price bounds: USD (default) or an ISO code (EUR, JPY, SGD...).',
  ),
};

/**
 * Each provider served as "<name> (<display name>)": the names to send, with the names people
 * know. Read when `tools/list` is answered, like the enums, so the text follows PROVIDERS (D65):
 * a default start names its three, PROVIDERS=all names Google Cloud too.
 */
function providerList(): string {
  return PROVIDER_NAMES.map((name) => `${name} (${providerEntry(name)?.displayName ?? name})`).join(
    ', ',
  );
}

/** An argument whose description ends with the providers served, read when it is shown. */
function withProviders<T extends object>(schema: T, prefix: string): T & { description: string } {
  return Object.defineProperty(schema, 'description', {
    enumerable: true,
    get: () => `${prefix}: ${providerList()}.`,
  }) as T & { description: string };
}

/** D61: the prices every tool that prices records may use instead of on-demand. */
const PURCHASE_OPTION = {
  purchase_option: oneOf(
    PURCHASE_OPTIONS,
    'Price by this purchase option (default on_demand): spot, reserved_1y/3y or convertible_1y/3y (AWS No Upfront RIs; Google committed use as reserved). Only records sold under it.',
  ),
};

const OFFSET = { offset: integer('Rows to skip (paging: the summary says the next offset).') };
const ORDER = { order: oneOf(['asc', 'desc'], 'Sort direction (default asc).') };

/** The record filters of search_instances and compare_regions (GET /instances' filters). */
const RECORD_FILTERS = {
  provider: withProviders({ type: 'string' }, 'Provider, or several comma-separated'),
  city: string(`City, or several comma-separated: ${CITY_SLUGS.join(', ')}.`),
  min_vcpu: integer('At least this many vCPUs.'),
  max_vcpu: integer('At most this many vCPUs.'),
  min_memory_gb: number('At least this much memory, GB.'),
  max_memory_gb: number('At most this much memory, GB.'),
  max_price: number('Highest monthly price, in `currency`.'),
  instance_family: oneOf(INSTANCE_FAMILIES, 'Instance family.'),
  has_gpu: { type: 'boolean', description: 'true: only types with a GPU; false: only without.' },
  q: string('Text in the type name or id, e.g. "t3." or "8gb".'),
  arch: oneOfList(CPU_ARCHITECTURES, 'CPU architecture (arm64 needs Arm images), or both'),
  cpu_allocation: oneOfList(
    CPU_ALLOCATIONS,
    'CPU allocation (burstable: throttled beyond a baseline), or several',
  ),
  ...PURCHASE_OPTION,
  ...CURRENCY,
};

export const SEARCH_ARGUMENTS: ArgumentTable = {
  ...RECORD_FILTERS,
  region: oneOfList(REGION_CODES, 'Region code, or several comma-separated'),
  sort_by: oneOf(SORT_FIELDS, 'Sort field (default monthly price).'),
  ...ORDER,
  limit: limitArgument(PAGES.instances, 'Records'),
  ...OFFSET,
  as_of: string('ISO date or date-time: answer from the catalogue as it was then.'),
};

export const COMPARE_ARGUMENTS: ArgumentTable = {
  ...RECORD_FILTERS,
  regions: oneOfList(
    REGION_CODES,
    'Regions to compare, comma-separated, in column order (default all)',
  ),
  columns: oneOf(INSTANCE_TYPE_COLUMNS, 'Key prices by region code (default) or by city.'),
  available_in: oneOf(
    AVAILABLE_IN,
    'all: only types offered in every listed region of their provider.',
  ),
  sort_by: oneOf(INSTANCE_TYPE_SORTS, 'Sort field (default min_price).'),
  ...ORDER,
  limit: limitArgument(PAGES.instanceTypes, 'Instance types'),
  ...OFFSET,
};

const list = (values: readonly string[], description: string) => ({
  type: 'array',
  items: { type: 'string', enum: values },
  minItems: 1,
  description,
});

export const RECOMMEND_ARGUMENTS: ArgumentTable = {
  stack: list(STACK_NAMES, 'Software the instance runs, e.g. ["nginx", "php-fpm", "mysql"].'),
  scale: oneOf(SCALES, 'Expected load.'),
  budget_max: number('Highest monthly price, in `currency`.'),
  ...CURRENCY,
  limit: limitArgument(PAGES.recommendations, 'Recommendations'),
  providers: withProviders(
    { type: 'array', items: { type: 'string', enum: PROVIDER_NAMES }, minItems: 1 },
    'Only these providers',
  ),
  regions: list(REGION_CODES, 'Only these region codes.'),
  cities: list(CITY_SLUGS, 'Only these cities.'),
  arch: list(CPU_ARCHITECTURES, 'Only these CPU architectures.'),
  cpu_allocation: list(CPU_ALLOCATIONS, 'Only these CPU allocations.'),
  ...PURCHASE_OPTION,
  rank_by: oneOf(
    RANK_BY,
    'fit (default: best match), price (cheapest meeting the needs first) or performance_per_price (CoreMark per USD).',
  ),
};

export const HISTORY_ARGUMENTS: ArgumentTable = {
  id: {
    type: 'integer',
    minimum: 1,
    description: 'Record id (from search_instances or recommend).',
  },
  ...PURCHASE_OPTION,
  ...CURRENCY,
};

export const CHANGES_ARGUMENTS: ArgumentTable = {
  since: string('ISO date or date-time; default 7 days ago.'),
  until: string('ISO date or date-time; default now.'),
  provider: withProviders({ type: 'string', enum: PROVIDER_NAMES }, 'Only this provider'),
  region: oneOf(REGION_CODES, 'Only this region code.'),
  city: string(`City, or several comma-separated: ${CITY_SLUGS.join(', ')}.`),
  kind: oneOfList(CHANGE_KINDS, 'Change kind, or several comma-separated'),
  sync_id: string('Only the changes of this sync (sync_id as the feed shows it).'),
  order: oneOf(CHANGE_ORDERS, 'oldest first (default) or newest first.'),
  purchase_option: oneOf(
    [...PURCHASE_OPTIONS, 'all'],
    'Only the changes of this purchase option (default on_demand); all: every option.',
  ),
  limit: limitArgument(PAGES.changes, 'Changes'),
  cursor: string('next_cursor of the previous page.'),
  summary: { type: 'boolean', description: 'true: add counts per kind over the whole window.' },
  ...CURRENCY,
};

/** A comma-separated list of known values, as text (the HTTP form). */
function oneOfList(values: readonly string[], description: string) {
  return string(`${description}: ${values.join(', ')}.`);
}

// Validation of the POST /recommend body (D25, with the D30 extensions limit/providers/regions).
// Framework-free: the route hands over the parsed JSON and maps an error result to its envelope.
//
// Check order (the first failure wins, so one body always gets the same answer):
//  1. body is a JSON object                              else INVALID_JSON
//  2. `stack` present                                    else MISSING_PARAMETER {parameter:'stack'}
//  3. `scale` present                                    else MISSING_PARAMETER {parameter:'scale'}
//     (both missing: `stack` is reported)
//  4. `stack` is an array (null is not "missing")        else INVALID_PARAMETER
//  5. at most 20 entries as sent                         else INVALID_PARAMETER
//  6. at least one entry                                 else EMPTY_STACK
//  7. every entry a supported name                       else INVALID_STACK {invalid, supported}
//  8. `scale` is small/medium/large                      else INVALID_PARAMETER {.., allowed}
//  9. `budget_max`, 10. `limit`, 11. `providers`, 12. `regions`, 13. `cities` (D56), 14.
//     `currency`, 15. `arch`, 16. `cpu_allocation` (D62), 17. `rank_by` (D67), 18.
//     `purchase_option` (D61) when present (null is invalid).
// Unknown fields are ignored.

import { echoValue } from '../catalog/echo-value.js';
import { MAX_CLIENT_DOLLARS, microsToDollars, parseMoneyBound } from '../catalog/money.js';
import { isCitySlug, regionsWithinCities } from '../catalog/city-list.js';
import { CITY_SLUGS, PROVIDER_NAMES, REGION_CODES, isProviderName } from '../catalog/model.js';
import type { ProviderName } from '../catalog/model.js';
import { DEFAULT_RECOMMEND_LIMIT, MAX_RECOMMEND_LIMIT, RANK_BY, type RankBy } from './rank.js';
import {
  CPU_ALLOCATIONS,
  CPU_ARCHITECTURES,
  isCpuAllocation,
  isCpuArchitecture,
  type CpuAllocation,
  type CpuArchitecture,
} from '../catalog/machine-facts.js';
import {
  DEFAULT_PURCHASE_OPTION,
  PURCHASE_OPTIONS,
  isPurchaseOption,
  type PurchaseOption,
} from '../catalog/purchase-options.js';
import { MAX_STACK_ENTRIES, SCALES, STACK_NAMES, isScale, isStackName } from './stacks.js';
import type { Scale, StackName } from './stacks.js';

export interface RecommendRequest {
  /** Distinct stack names in the order first given. */
  readonly stack: readonly StackName[];
  readonly scale: Scale;
  /** `budget_max` as the ranking uses it (USD per month, cut at the micro-dollar), when given. */
  readonly budgetMax?: number;
  /** `budget_max` in integer micro-dollars (money.ts parseMoneyBound), when given. */
  readonly budgetMaxMicros?: number;
  /** 1..50, default 10. */
  readonly limit: number;
  /** Distinct provider names, when the filter was given. */
  readonly providers?: readonly ProviderName[];
  /**
   * Distinct region codes (section 4.5), when `regions` or `cities` (D56) was given: with
   * `cities`, the regions in those cities (and in `regions` when both were given), maybe none.
   */
  readonly regions?: readonly string[];
  /** D43: prices (and budget_max) in this currency; USD by default. */
  readonly currency: string;
  /** D62: distinct CPU architectures / allocations, when the filter was given. */
  readonly architectures?: readonly CpuArchitecture[];
  readonly allocations?: readonly CpuAllocation[];
  /** D67: the list's order; `fit` by default. */
  readonly rankBy: RankBy;
  /** D61: the option whose prices are ranked, budgeted and shown; `on_demand` by default. */
  readonly purchaseOption: PurchaseOption;
}

export type RecommendErrorCode =
  'INVALID_JSON' | 'MISSING_PARAMETER' | 'INVALID_PARAMETER' | 'EMPTY_STACK' | 'INVALID_STACK';

export interface RecommendRequestError {
  readonly code: RecommendErrorCode;
  readonly message: string;
  /** JSON-safe; client values only ever appear through echoValue (D17a). */
  readonly details: Readonly<Record<string, unknown>>;
}

export type ParseRecommendResult =
  | { readonly ok: true; readonly value: RecommendRequest }
  | { readonly ok: false; readonly error: RecommendRequestError };

type Body = Readonly<Record<string, unknown>>;

/** `currencies`: those a request may ask for (the exchange rates in use; D43). */
export function parseRecommendRequest(
  body: unknown,
  currencies: readonly string[] = ['USD'],
): ParseRecommendResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('INVALID_JSON', 'The request body must be a JSON object', {
      expected: 'object',
      received: jsonTypeName(body),
    });
  }
  const fields = body as Body;
  if (!has(fields, 'stack')) return missing('stack');
  if (!has(fields, 'scale')) return missing('scale');

  const stackResult = parseStack(fields.stack);
  if (!stackResult.ok) return stackResult;

  const scale = fields.scale;
  if (!isScale(scale)) {
    return invalid('scale', scale, 'must be one of small, medium, large', SCALES);
  }

  let budgetMaxMicros: number | undefined;
  if (has(fields, 'budget_max')) {
    const value = fields.budget_max;
    // The one money parser (as max_price): the budget compared is the budget echoed in pros/cons.
    const micros = typeof value === 'number' && value > 0 ? parseMoneyBound(value) : null;
    if (micros === null || micros === 0) {
      return invalid(
        'budget_max',
        value,
        `must be a finite number greater than 0 and no greater than ${MAX_CLIENT_DOLLARS}`,
      );
    }
    budgetMaxMicros = micros;
  }

  let limit = DEFAULT_RECOMMEND_LIMIT;
  if (has(fields, 'limit')) {
    const value = fields.limit;
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < 1 ||
      value > MAX_RECOMMEND_LIMIT
    ) {
      return invalid('limit', value, `must be an integer from 1 to ${MAX_RECOMMEND_LIMIT}`);
    }
    limit = value;
  }

  let providers: readonly ProviderName[] | undefined;
  if (has(fields, 'providers')) {
    const result = parseEnumList('providers', fields.providers, PROVIDER_NAMES, isProviderName);
    if (!result.ok) return result;
    providers = result.value;
  }

  let regions: readonly string[] | undefined;
  if (has(fields, 'regions')) {
    const isRegion = (v: unknown): v is string => typeof v === 'string' && REGION_CODES.includes(v);
    const result = parseEnumList('regions', fields.regions, REGION_CODES, isRegion);
    if (!result.ok) return result;
    regions = result.value;
  }

  if (has(fields, 'cities')) {
    const result = parseEnumList('cities', fields.cities, CITY_SLUGS, isCitySlug);
    if (!result.ok) return result;
    // The candidates already take a region filter: a city is its regions (D56).
    regions = regionsWithinCities(result.value, regions);
  }

  let currency = 'USD';
  if (has(fields, 'currency')) {
    const value = fields.currency;
    if (typeof value !== 'string' || !currencies.includes(value)) {
      return invalid('currency', value, 'is not one of the allowed values', currencies);
    }
    currency = value;
  }

  let architectures: readonly CpuArchitecture[] | undefined;
  if (has(fields, 'arch')) {
    const result = parseEnumList('arch', fields.arch, CPU_ARCHITECTURES, isCpuArchitecture);
    if (!result.ok) return result;
    architectures = result.value;
  }

  let allocations: readonly CpuAllocation[] | undefined;
  if (has(fields, 'cpu_allocation')) {
    const list = fields.cpu_allocation;
    const result = parseEnumList('cpu_allocation', list, CPU_ALLOCATIONS, isCpuAllocation);
    if (!result.ok) return result;
    allocations = result.value;
  }

  let rankBy: RankBy = 'fit';
  if (has(fields, 'rank_by')) {
    const value = fields.rank_by;
    const known = RANK_BY.find((name) => name === value);
    if (known === undefined)
      return invalid('rank_by', value, 'is not one of the allowed values', RANK_BY);
    rankBy = known;
  }

  let purchaseOption: PurchaseOption = DEFAULT_PURCHASE_OPTION;
  if (has(fields, 'purchase_option')) {
    const value = fields.purchase_option;
    if (!isPurchaseOption(value))
      return invalid(
        'purchase_option',
        value,
        'is not one of the allowed values',
        PURCHASE_OPTIONS,
      );
    purchaseOption = value;
  }

  const value: RecommendRequest = {
    stack: stackResult.value,
    scale,
    limit,
    currency,
    rankBy,
    purchaseOption,
    ...(architectures === undefined ? {} : { architectures }),
    ...(allocations === undefined ? {} : { allocations }),
    ...(budgetMaxMicros === undefined
      ? {}
      : { budgetMax: microsToDollars(budgetMaxMicros), budgetMaxMicros }),
    ...(providers === undefined ? {} : { providers }),
    ...(regions === undefined ? {} : { regions }),
  };
  return { ok: true, value };
}

type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: RecommendRequestError };

function parseStack(stack: unknown): Parsed<readonly StackName[]> {
  if (!Array.isArray(stack)) {
    return invalid('stack', stack, 'must be an array of stack names');
  }
  if (stack.length > MAX_STACK_ENTRIES) {
    return invalid('stack', stack, `must have at most ${MAX_STACK_ENTRIES} entries`);
  }
  if (stack.length === 0) {
    return fail('EMPTY_STACK', 'The stack array must contain at least one stack name', {
      parameter: 'stack',
    });
  }
  const names = new Set<StackName>();
  // Echoed values are primitives or null, so a Set removes repeated invalid entries.
  const rejected = new Set<unknown>();
  for (const entry of stack as readonly unknown[]) {
    if (isStackName(entry)) names.add(entry);
    else rejected.add(echoValue(entry));
  }
  if (rejected.size > 0) {
    return fail('INVALID_STACK', 'One or more stack names are not supported', {
      invalid: [...rejected],
      supported: [...STACK_NAMES],
    });
  }
  return { ok: true, value: [...names] };
}

/** A non-empty array whose entries are all allowed names; duplicates count once. */
function parseEnumList<T extends string>(
  parameter: string,
  value: unknown,
  allowed: readonly T[],
  isAllowed: (v: unknown) => v is T,
): Parsed<readonly T[]> {
  if (!Array.isArray(value) || value.length === 0) {
    return invalid(parameter, value, 'must be a non-empty array', allowed);
  }
  const out = new Set<T>();
  for (const entry of value as readonly unknown[]) {
    if (!isAllowed(entry)) {
      // The offending entry is echoed, not the whole array (which would only say "array").
      return invalid(parameter, entry, 'every entry must be one of the allowed values', allowed);
    }
    out.add(entry);
  }
  return { ok: true, value: [...out] };
}

function has(fields: Body, key: string): boolean {
  // Own properties only: nothing inherited from a prototype counts as sent.
  return Object.hasOwn(fields, key) && fields[key] !== undefined;
}

/** The JSON type of a value that is not an object: "array", "null", "string", "number"... */
function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function missing(parameter: string): { ok: false; error: RecommendRequestError } {
  return fail('MISSING_PARAMETER', `Missing required parameter: ${parameter}`, { parameter });
}

function invalid(
  parameter: string,
  value: unknown,
  reason: string,
  allowed?: readonly string[],
): { ok: false; error: RecommendRequestError } {
  return fail('INVALID_PARAMETER', `Invalid parameter: ${parameter}`, {
    parameter,
    value: echoValue(value),
    reason,
    ...(allowed === undefined ? {} : { allowed: [...allowed] }),
  });
}

function fail(
  code: RecommendErrorCode,
  message: string,
  details: Record<string, unknown>,
): { ok: false; error: RecommendRequestError } {
  return { ok: false, error: { code, message, details } };
}

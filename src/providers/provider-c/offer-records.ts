// The three kinds of record the offer-file scanner materialises, and what it keeps of them:
// a product (`products.<sku>`), a SKU's on-demand terms (`terms.OnDemand.<sku>`) and its
// reserved terms (`terms.Reserved.<sku>`).
// Shapes: ../shared/upstream-formats.md §3.2-3.4. Upstream data is untrusted: every value is
// checked before it is read. Pure functions, no I/O.
//
// This module runs in the parse worker, which starts once per region file: it checks shapes
// with the small guards below rather than TypeBox, whose module graph takes ~0.5 s and ~10 MB
// to load in each new worker isolate.
import type { CommittedPurchaseOption } from '../../catalog/purchase-options.js';
import { isJsonObject, own, type JsonObject } from './json-reading.js';

/** The on-demand offer term code: the same for every SKU in every offer file (§3.2). */
export const ON_DEMAND_TERM_CODE = 'JRTCKXETXF';

/** The price-dimension unit of an hourly instance rate. */
export const HOURLY_UNIT = 'Hrs';
/** The price-dimension unit of a reserved term's upfront fee. */
export const UPFRONT_UNIT = 'Quantity';

/**
 * The reserved terms we read (D61), by their `termAttributes`: No Upfront only, whose hourly
 * charge is the effective hourly rate. Term codes are never trusted alone (upstream-formats.md).
 * Kept as a local map rather than an import so the worker's module graph stays small.
 */
const RESERVED_OPTIONS: Readonly<Record<string, ReservedOption>> = {
  'standard 1yr': 'reserved_1y',
  'standard 3yr': 'reserved_3y',
  'convertible 1yr': 'convertible_1y',
  'convertible 3yr': 'convertible_3y',
};
const NO_UPFRONT = 'No Upfront';

/**
 * Attributes a kept product carries to the mapping step (parse.ts). Everything else in the
 * product is dropped in the worker, so what crosses the thread boundary stays small.
 */
export const KEPT_ATTRIBUTE_NAMES = [
  'instanceType',
  'instanceFamily',
  'vcpu',
  'memory',
  'storage',
  'networkPerformance',
  'gpu',
  'gpuMemory',
  'regionCode',
  'location',
] as const;
export type KeptAttributeName = (typeof KEPT_ATTRIBUTE_NAMES)[number];

/** A product that passed the plain on-demand Linux filter, with its on-demand hourly prices. */
export interface KeptProduct {
  readonly sku: string;
  /** Only KEPT_ATTRIBUTE_NAMES, and only those whose upstream value is a string. */
  readonly attributes: Readonly<Partial<Record<KeptAttributeName, string>>>;
  /**
   * `pricePerUnit.USD` of every price dimension with unit "Hrs" in the SKU's
   * `<sku>.JRTCKXETXF` term, as upstream text. Empty when the file has no such term.
   */
  readonly hourlyUsd: readonly string[];
  /**
   * The hourly charge of each No Upfront Standard/Convertible 1/3-year term of the SKU
   * (extractReservedHourlyUsd), as upstream text; absent when the file has none.
   */
  readonly reservedUsd?: ReservedHourlyUsd;
  /** The whole product and term records, only when the scanner was asked to retain them. */
  readonly raw?: {
    readonly product: unknown;
    readonly onDemand: unknown;
    readonly reserved?: unknown;
  };
}

/**
 * Byte patterns every product the filter keeps must contain, as written in JSON without escapes.
 * The scanner tests a product's raw bytes for them before it parses the product, so the ~95% of
 * products that cannot match are never materialised. The patterns follow from the filter below
 * (operation must equal "RunInstances", productFamily must start with "Compute Instance", usagetype
 * must contain "BoxUsage:"); a product whose bytes hold any JSON escape is always parsed, because an escaped
 * string could equal a pattern without containing its bytes.
 */
export const PRODUCT_PREFILTER_PATTERNS: readonly string[] = [
  '"RunInstances"',
  '"Compute Instance',
  'BoxUsage:',
];

/** The D61 option a No Upfront reserved term is sold as. */
export type ReservedOption = CommittedPurchaseOption;

/** A SKU's No Upfront reserved hourly prices, per option, as upstream text. */
export type ReservedHourlyUsd = Readonly<Partial<Record<ReservedOption, string>>>;

interface ProductRecord {
  readonly sku: string;
  readonly productFamily: string;
  readonly attributes: JsonObject;
}

/** `{ sku: string, productFamily: string, attributes: object }`, other keys allowed. */
function asProductRecord(value: unknown): ProductRecord | null {
  if (!isJsonObject(value)) return null;
  const sku = own(value, 'sku');
  const productFamily = own(value, 'productFamily');
  const attributes = own(value, 'attributes');
  if (typeof sku !== 'string' || typeof productFamily !== 'string') return null;
  if (!isJsonObject(attributes)) return null;
  return { sku, productFamily, attributes };
}

/**
 * Product families we list: virtual instances, and the `.metal` sizes, which AWS files as
 * "Compute Instance (bare metal)" but launches and bills by the hour like any other type
 * (m5.metal costs what m5.24xlarge costs). Dedicated Hosts and the rest are other families.
 */
const LISTED_PRODUCT_FAMILIES: ReadonlySet<string> = new Set([
  'Compute Instance',
  'Compute Instance (bare metal)',
]);

/** The §3.4 filter: plain on-demand Linux, shared tenancy, no pre-installed software. */
const REQUIRED_ATTRIBUTES: Readonly<Record<string, string>> = {
  operatingSystem: 'Linux',
  tenancy: 'Shared',
  preInstalledSw: 'NA',
  capacitystatus: 'Used',
  licenseModel: 'No License required',
  operation: 'RunInstances',
};

export type ProductVerdict =
  | { readonly kind: 'kept'; readonly sku: string; readonly attributes: KeptProduct['attributes'] }
  /** A well-formed product we do not list (another OS, tenancy, market, zone, family...). */
  | { readonly kind: 'filtered' }
  /** Not a product record at all (wrong shape), or its `sku` disagrees with its key. */
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Decides whether the product stored under `key` is one we list.
 *
 * `upstreamRegionCode`, when given, must equal the product's `regionCode` attribute if it has one:
 * a region file also lists its Local Zones (e.g. `ap-northeast-1-tpe-1`, locationType
 * "AWS Local Zone"), which would otherwise give a second price per instance type.
 *
 * `marketoption` absent counts as "OnDemand": files from before Capacity Blocks (2023) have no
 * such attribute, and every product then was on-demand.
 */
export function classifyProduct(
  key: string,
  value: unknown,
  upstreamRegionCode?: string,
): ProductVerdict {
  const product = asProductRecord(value);
  if (product === null) return { kind: 'invalid', reason: 'not a product record' };
  if (product.sku !== key) {
    return { kind: 'invalid', reason: `sku "${product.sku.slice(0, 64)}" under key "${key}"` };
  }
  if (!LISTED_PRODUCT_FAMILIES.has(product.productFamily)) return { kind: 'filtered' };
  const attributes = product.attributes;
  for (const [name, expected] of Object.entries(REQUIRED_ATTRIBUTES)) {
    if (own(attributes, name) !== expected) return { kind: 'filtered' };
  }
  const market = own(attributes, 'marketoption');
  if (market !== undefined && market !== 'OnDemand') return { kind: 'filtered' };
  const usageType = own(attributes, 'usagetype');
  if (typeof usageType !== 'string' || !usageType.includes('BoxUsage:')) {
    return { kind: 'filtered' };
  }
  const locationType = own(attributes, 'locationType');
  if (locationType !== undefined && locationType !== 'AWS Region') return { kind: 'filtered' };
  const regionCode = own(attributes, 'regionCode');
  if (upstreamRegionCode !== undefined && regionCode !== undefined) {
    if (regionCode !== upstreamRegionCode) return { kind: 'filtered' };
  }
  const kept: Partial<Record<KeptAttributeName, string>> = {};
  for (const name of KEPT_ATTRIBUTE_NAMES) {
    const attribute = own(attributes, name);
    if (typeof attribute === 'string') kept[name] = attribute;
  }
  return { kind: 'kept', sku: key, attributes: kept };
}

/**
 * Reads `terms.OnDemand.<sku>` (an object of `<sku>.<offerTermCode>` -> term) and returns the USD
 * text of every "Hrs" price dimension of the `<sku>.JRTCKXETXF` term; an empty list when that term
 * is absent or malformed (the product is then skipped for want of a price, and counted).
 * A dimension must be `{ unit: string, pricePerUnit: { USD?: string } }`; one that is not makes
 * the whole term unusable, since a price read from a half-valid term could be the wrong one.
 */
export function extractOnDemandHourlyUsd(sku: string, value: unknown): string[] {
  if (!isJsonObject(value)) return [];
  const term = own(value, `${sku}.${ON_DEMAND_TERM_CODE}`);
  if (!isJsonObject(term)) return [];
  const dimensions = own(term, 'priceDimensions');
  if (!isJsonObject(dimensions)) return [];
  const prices: string[] = [];
  for (const dimension of Object.values(dimensions)) {
    if (!isJsonObject(dimension)) return [];
    const unit = own(dimension, 'unit');
    const pricePerUnit = own(dimension, 'pricePerUnit');
    if (typeof unit !== 'string' || !isJsonObject(pricePerUnit)) return [];
    const usd = own(pricePerUnit, 'USD');
    if (usd !== undefined && typeof usd !== 'string') return [];
    if (unit === HOURLY_UNIT && usd !== undefined) prices.push(usd);
  }
  return prices;
}

/** The option a reserved term's `termAttributes` name, or null for one we do not list. */
function reservedOptionOf(termAttributes: unknown): ReservedOption | null {
  if (!isJsonObject(termAttributes)) return null;
  if (own(termAttributes, 'PurchaseOption') !== NO_UPFRONT) return null;
  const offering = own(termAttributes, 'OfferingClass');
  const lease = own(termAttributes, 'LeaseContractLength');
  if (typeof offering !== 'string' || typeof lease !== 'string') return null;
  const key = `${offering} ${lease}`;
  return Object.hasOwn(RESERVED_OPTIONS, key) ? (RESERVED_OPTIONS[key] ?? null) : null;
}

/** A zero amount as the offer files write it ("0", "0.0000000000"). */
const ZERO = /^0+(?:\.0+)?$/;

/**
 * The USD text of a No Upfront term's one "Hrs" dimension, or null when the term is not usable:
 * no or several hourly dimensions, a dimension of another shape, or an upfront fee that is not
 * zero (a "No Upfront" term asking for money up front is not what its attributes say).
 */
function noUpfrontHourlyUsd(term: JsonObject): string | null {
  const dimensions = own(term, 'priceDimensions');
  if (!isJsonObject(dimensions)) return null;
  let hourly: string | null = null;
  for (const dimension of Object.values(dimensions)) {
    if (!isJsonObject(dimension)) return null;
    const unit = own(dimension, 'unit');
    const pricePerUnit = own(dimension, 'pricePerUnit');
    if (!isJsonObject(pricePerUnit)) return null;
    const usd = own(pricePerUnit, 'USD');
    if (typeof usd !== 'string') return null;
    if (unit === HOURLY_UNIT) {
      if (hourly !== null) return null;
      hourly = usd;
    } else if (unit !== UPFRONT_UNIT || !ZERO.test(usd)) {
      return null;
    }
  }
  return hourly;
}

/**
 * Reads `terms.Reserved.<sku>` (an object of `<sku>.<offerTermCode>` -> term) and returns the
 * hourly USD text of each No Upfront Standard or Convertible 1- or 3-year term, by D61 option.
 * Partial and All Upfront terms, other offering classes and lease lengths are ignored; a term
 * naming another SKU is ignored. An option given by two terms, or by a term that is not usable,
 * is left out: a price read from an ambiguous record could be the wrong one. The text is not
 * checked as a number here (parse.ts does that, per option), so one bad option never costs the
 * others, nor the on-demand price.
 */
export function extractReservedHourlyUsd(sku: string, value: unknown): ReservedHourlyUsd {
  if (!isJsonObject(value)) return {};
  const found: Partial<Record<ReservedOption, string>> = {};
  const refused = new Set<ReservedOption>();
  for (const term of Object.values(value)) {
    if (!isJsonObject(term)) continue;
    const termSku = own(term, 'sku');
    if (termSku !== undefined && termSku !== sku) continue;
    const option = reservedOptionOf(own(term, 'termAttributes'));
    if (option === null) continue;
    const usd = noUpfrontHourlyUsd(term);
    if (usd === null || found[option] !== undefined) refused.add(option);
    else found[option] = usd;
  }
  for (const option of refused) delete found[option];
  return found;
}

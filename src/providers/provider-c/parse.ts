// provider_c parse: the products the offer-file scanner kept (plain on-demand Linux, shared
// tenancy; offer-records.ts) -> InstanceOffers in our units and region code, with the No Upfront
// reserved prices of the same SKU as purchase options (D61). Pure.
import {
  MICROS_PER_DOLLAR,
  decimalToMicros,
  monthlyMicrosFromHourly,
} from '../../catalog/money.js';
import type { InstanceOffer } from '../../catalog/offers.js';
import {
  COMMITTED_PURCHASE_OPTIONS,
  optionPrice,
  type OptionPrice,
  type OtherPurchaseOption,
} from '../../catalog/purchase-options.js';
import { LIMITS, MAX_ID_LENGTH } from '../upstream-values.js';
import {
  parseGpuCount,
  parseMemoryMb,
  parseNetworkGbps,
  parseStorageGb,
  parseVcpu,
} from './attribute-units.js';
import { classifyInstanceFamily, ec2GpuType } from './classify.js';
import type { KeptProduct } from './offer-records.js';

/**
 * AWS prices data transfer out separately per GB and includes none with an instance, so every
 * provider_c offer has 0 TB of included transfer (documented in docs/api.md).
 */
export const EC2_INCLUDED_TRANSFER_TB = 0;

/** "m5.large", "u-6tb1.56xlarge", "p6-b200.48xlarge": family, one dot, size. */
const INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;

export interface RegionOffers {
  /** Sorted by instance id. */
  readonly offers: InstanceOffer[];
  /** Kept products that failed validation (bad specs, no or bad price). */
  readonly invalid: number;
  /**
   * The instance types of those invalid products whose type itself was readable, sorted: their
   * stored records keep their previous state (ProviderCatalog.unreadableEntries).
   */
  readonly invalidTypes: readonly string[];
  /** Kept products of a type already listed (a second SKU of one type). */
  readonly duplicates: number;
  /**
   * Reserved prices of listed offers that were refused (not a plain positive decimal, or above
   * the price ceiling): the offer is listed without that option. Present only when not 0.
   */
  readonly invalidOptionPrices?: number;
}

/** An hourly USD text as micro-dollars, or null unless it is a positive price under the cap. */
function acceptedHourly(usd: string): number | null {
  const micros = decimalToMicros(usd);
  if (micros === null || micros <= 0 || micros > LIMITS.maxHourlyUsd * MICROS_PER_DOLLAR) {
    return null;
  }
  return micros;
}

/** The product's on-demand hourly price in micro-dollars, or null when it has none we accept. */
function hourlyMicros(product: KeptProduct): number | null {
  // One "Hrs" dimension per on-demand term; two would make the price ambiguous.
  if (product.hourlyUsd.length !== 1) return null;
  return acceptedHourly(product.hourlyUsd[0] ?? '');
}

/**
 * The product's reserved prices as purchase options (monthly = hourly x 730, D61), and how many
 * were refused. Each option stands alone: a bad one is dropped and counted, the rest are kept.
 */
function reservedOptions(product: KeptProduct): {
  prices: Partial<Record<OtherPurchaseOption, OptionPrice>>;
  refused: number;
} {
  const prices: Partial<Record<OtherPurchaseOption, OptionPrice>> = {};
  let refused = 0;
  for (const option of COMMITTED_PURCHASE_OPTIONS) {
    const usd = product.reservedUsd?.[option];
    if (usd === undefined) continue;
    const micros = acceptedHourly(usd);
    if (micros === null) refused += 1;
    else prices[option] = optionPrice(micros);
  }
  return { prices, refused };
}

type Mapped =
  | { kind: 'offer'; offer: InstanceOffer; refusedOptions: number }
  | { kind: 'excluded' }
  | { kind: 'invalid'; instanceType?: string };

function mapProduct(product: KeptProduct, regionCode: string): Mapped {
  const a = product.attributes;
  const instanceType = a.instanceType;
  if (
    instanceType === undefined ||
    instanceType.length > MAX_ID_LENGTH ||
    !INSTANCE_TYPE.test(instanceType)
  ) {
    return { kind: 'invalid' };
  }
  // From here on the record names its type: a failure keeps that type's stored record.
  const invalid = { kind: 'invalid', instanceType } as const;
  const gpuCount = parseGpuCount(a.gpu);
  if (gpuCount === null) return invalid;
  const classification = classifyInstanceFamily(a.instanceFamily, gpuCount);
  if (classification.kind === 'excluded') return { kind: 'excluded' };
  if (classification.kind === 'unknown') return invalid;
  const vcpu = parseVcpu(a.vcpu);
  const memoryMb = parseMemoryMb(a.memory);
  const storageGb = parseStorageGb(a.storage);
  // Absent (recordings of previous-generation types hold none): 0, which the API notes as
  // "not_recorded" (provider.ts); present but unreadable: the record is skipped.
  const networkSpeedGbps =
    a.networkPerformance === undefined ? 0 : parseNetworkGbps(a.networkPerformance);
  const hourly = hourlyMicros(product);
  if (
    vcpu === null ||
    memoryMb === null ||
    storageGb === null ||
    networkSpeedGbps === null ||
    hourly === null
  ) {
    return invalid;
  }
  const reserved = reservedOptions(product);
  return {
    kind: 'offer',
    refusedOptions: reserved.refused,
    offer: {
      instanceId: instanceType,
      // AWS has no separate display name: the type is what its console and docs show.
      instanceName: instanceType,
      vcpu,
      memoryMb,
      storageGb,
      transferTb: EC2_INCLUDED_TRANSFER_TB,
      networkSpeedGbps,
      gpuCount,
      gpuType: ec2GpuType(instanceType, gpuCount),
      family: classification.family,
      regionCode,
      hourlyMicros: hourly,
      // D36: AWS gives hourly prices only; a month is 730 hours, rounded to the cent (the
      // monthly price rule in money.ts: the stored price is the price shown).
      monthlyMicros: monthlyMicrosFromHourly(hourly),
      ...(Object.keys(reserved.prices).length > 0 ? { optionPrices: reserved.prices } : {}),
    },
  };
}

/**
 * Maps one region file's kept products to offers in our region `regionCode`. Products are taken
 * in SKU order; the filter should leave one SKU per instance type, and should a file hold two,
 * the first is listed and the other counted as skipped, so the result never depends on the
 * order of the file.
 */
export function mapProviderCOffers(
  products: readonly KeptProduct[],
  regionCode: string,
): RegionOffers {
  const bySku = [...products].sort((x, y) => (x.sku < y.sku ? -1 : x.sku > y.sku ? 1 : 0));
  const offers = new Map<string, InstanceOffer>();
  let invalid = 0;
  const invalidTypes = new Set<string>();
  let duplicates = 0;
  let invalidOptionPrices = 0;
  for (const product of bySku) {
    const mapped = mapProduct(product, regionCode);
    if (mapped.kind === 'excluded') continue;
    if (mapped.kind === 'invalid') {
      invalid += 1;
      if (mapped.instanceType !== undefined) invalidTypes.add(mapped.instanceType);
      continue;
    }
    if (offers.has(mapped.offer.instanceId)) {
      duplicates += 1;
      continue;
    }
    offers.set(mapped.offer.instanceId, mapped.offer);
    invalidOptionPrices += mapped.refusedOptions;
  }
  const sorted = [...offers.values()].sort((x, y) =>
    x.instanceId < y.instanceId ? -1 : x.instanceId > y.instanceId ? 1 : 0,
  );
  return {
    offers: sorted,
    invalid,
    // A type listed by another SKU of the file is not unreadable: its offer replaces the record.
    invalidTypes: [...invalidTypes].filter((type) => !offers.has(type)).sort(),
    duplicates,
    ...(invalidOptionPrices > 0 ? { invalidOptionPrices } : {}),
  };
}

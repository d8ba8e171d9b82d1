// provider_c parse: the products the offer-file scanner kept (plain on-demand Linux, shared
// tenancy; offer-records.ts) -> InstanceOffers in our units and region code. Pure.
import {
  MICROS_PER_DOLLAR,
  decimalToMicros,
  monthlyMicrosFromHourly,
} from '../../catalog/money.js';
import type { InstanceOffer } from '../../catalog/offers.js';
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
  /** Kept products of a type already listed (a second SKU of one type). */
  readonly duplicates: number;
}

/** The product's on-demand hourly price in micro-dollars, or null when it has none we accept. */
function hourlyMicros(product: KeptProduct): number | null {
  // One "Hrs" dimension per on-demand term; two would make the price ambiguous.
  if (product.hourlyUsd.length !== 1) return null;
  const micros = decimalToMicros(product.hourlyUsd[0] ?? '');
  if (micros === null || micros <= 0 || micros > LIMITS.maxHourlyUsd * MICROS_PER_DOLLAR) {
    return null;
  }
  return micros;
}

type Mapped = { kind: 'offer'; offer: InstanceOffer } | { kind: 'excluded' } | { kind: 'invalid' };

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
  const gpuCount = parseGpuCount(a.gpu);
  if (gpuCount === null) return { kind: 'invalid' };
  const classification = classifyInstanceFamily(a.instanceFamily, gpuCount);
  if (classification.kind === 'excluded') return { kind: 'excluded' };
  if (classification.kind === 'unknown') return { kind: 'invalid' };
  const vcpu = parseVcpu(a.vcpu);
  const memoryMb = parseMemoryMb(a.memory);
  const storageGb = parseStorageGb(a.storage);
  const networkSpeedGbps = parseNetworkGbps(a.networkPerformance);
  const hourly = hourlyMicros(product);
  if (
    vcpu === null ||
    memoryMb === null ||
    storageGb === null ||
    networkSpeedGbps === null ||
    hourly === null
  ) {
    return { kind: 'invalid' };
  }
  return {
    kind: 'offer',
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
  let duplicates = 0;
  for (const product of bySku) {
    const mapped = mapProduct(product, regionCode);
    if (mapped.kind === 'excluded') continue;
    if (mapped.kind === 'invalid') {
      invalid += 1;
      continue;
    }
    if (offers.has(mapped.offer.instanceId)) {
      duplicates += 1;
      continue;
    }
    offers.set(mapped.offer.instanceId, mapped.offer);
  }
  const sorted = [...offers.values()].sort((x, y) =>
    x.instanceId < y.instanceId ? -1 : x.instanceId > y.instanceId ? 1 : 0,
  );
  return { offers: sorted, invalid, duplicates };
}

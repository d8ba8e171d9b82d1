// provider_d: the snapshot's documents (schema.ts) -> our catalogue (pure: no I/O, no clock).
//
// Units: vCPU as Google's API counts them; memory MB = GiB x 1024, rounded to a whole MB
// (f1-micro 0.6 GiB -> 614); storage GB = the bundled Local SSD (0: Persistent Disk, billed
// apart); transfer 0 (egress is billed per GB); network Gbps = the default egress bandwidth (0
// where not recorded). Prices (D36, D65): hourly = the recorded on-demand price in micro-dollars
// (half-up past the sixth decimal); monthly = the recorded hourly x 730 computed exactly on its
// decimal text and rounded half-up to the cent, never the sustained-use monthly figure.
// Purchase options (D61): `spot` (Spot VMs), `reserved_1y`/`reserved_3y` (resource-based
// committed use), each the recorded hourly price with monthly = hourly x 730 in whole cents
// (optionPrice()); one the row does not carry is not sold so; one that is not a usable price is
// refused alone (counted in invalidOptionPrices), the row and its other options stay.
// Availability: a type is listed in a region only where the snapshot says Google's API offers it
// there (`offered`): Google prices some types in regions that do not sell them.
import { HOURS_PER_MONTH, MICROS_PER_DOLLAR, decimalToMicros } from '../../catalog/money.js';
import type { InstanceOffer, ProviderCatalog } from '../../catalog/offers.js';
import {
  optionPrice,
  type OptionPrices,
  type OtherPurchaseOption,
} from '../../catalog/purchase-options.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { RegionMapping } from '../region-map.js';
import { LIMITS, SkipTally, UNKNOWN_GPU_TYPE, validRecords } from '../upstream-values.js';
import { classifyMachineType } from './classify.js';
import { gceMachineFacts } from './machine-facts.js';
import { PROVIDER_D_NAME } from './regions.js';
import {
  checkMachineType,
  checkMachineTypesDocument,
  checkOptionPrice,
  checkPricesDocument,
  checkRegionPrice,
  type GceMachineType,
  type GceRegionPrice,
} from './schema.js';

/** The two documents of the snapshot layout, as fetched. */
export interface ProviderDDocuments {
  readonly machineTypes: unknown;
  readonly prices: unknown;
  /** When the prices were generated upstream, where the source says (a pricing.yml's `about`). */
  readonly generatedAt?: Date;
}

const MICROS_PER_CENT = MICROS_PER_DOLLAR / 100;

/**
 * A recorded hourly price's monthly figure (x 730), in micro-dollars rounded half-up to the
 * cent, computed on the decimal text in integers so no float rounding touches it.
 */
export function monthlyMicrosOfHourlyText(hourly: string): number {
  const [whole = '0', fraction = ''] = hourly.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const month = BigInt(whole + fraction) * BigInt(HOURS_PER_MONTH);
  // Cents, half-up: (month * 100 + scale / 2) / scale, integer division.
  const cents = (month * 100n * 2n + scale) / (2n * scale);
  return Number(cents) * MICROS_PER_CENT;
}

/** Which column of a price row holds each option Google sells (D61). */
export const OPTION_COLUMNS = {
  spot: 'hour_spot',
  reserved_1y: 'cud_1y_hour',
  reserved_3y: 'cud_3y_hour',
} as const satisfies Partial<Record<OtherPurchaseOption, keyof GceRegionPrice>>;

function usableMicros(text: string): number | null {
  const micros = decimalToMicros(text);
  return micros === null || micros <= 0 || micros > LIMITS.maxHourlyUsd * MICROS_PER_DOLLAR
    ? null
    : micros;
}

/** The row's option prices, and how many it carried that were refused. */
function optionPricesOf(price: GceRegionPrice): { prices: OptionPrices; refused: number } {
  const prices: Partial<Record<OtherPurchaseOption, ReturnType<typeof optionPrice>>> = {};
  let refused = 0;
  for (const [option, column] of Object.entries(OPTION_COLUMNS) as [
    keyof typeof OPTION_COLUMNS,
    keyof GceRegionPrice,
  ][]) {
    const value = price[column];
    if (value === null || value === undefined) continue;
    const micros = checkOptionPrice.Check(value) ? usableMicros(value) : null;
    if (micros === null) refused += 1;
    else prices[option] = optionPrice(micros);
  }
  return { prices, refused };
}

function invalid(message: string): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', `provider_d ${message}`);
}

function offerOf(
  type: GceMachineType,
  price: GceRegionPrice,
  regionCode: string,
): { offer: InstanceOffer; refusedOptions: number } | 'unclassified' | 'unusable_price' {
  const family = classifyMachineType(type.id);
  if (family === undefined) return 'unclassified';
  const hourlyMicros = usableMicros(price.hour);
  if (hourlyMicros === null) return 'unusable_price';
  const options = optionPricesOf(price);
  const offer: InstanceOffer = {
    instanceId: type.id,
    instanceName: type.id,
    vcpu: type.vcpu,
    memoryMb: Math.round(Number(type.memory_gib) * 1024),
    storageGb: type.local_ssd_gb,
    transferTb: 0,
    networkSpeedGbps: type.egress_gbps ?? 0,
    gpuCount: type.gpu_count,
    gpuType: type.gpu_count === 0 ? null : (type.gpu_model ?? UNKNOWN_GPU_TYPE),
    family,
    regionCode,
    hourlyMicros,
    monthlyMicros: monthlyMicrosOfHourlyText(price.hour),
    facts: gceMachineFacts(type),
    ...(Object.keys(options.prices).length > 0 ? { optionPrices: options.prices } : {}),
  };
  return { offer, refusedOptions: options.refused };
}

/**
 * The catalogue for our regions, with `invalidOptionPrices` when option prices were refused
 * (present only when not 0). A region of ours absent from prices.json is not synced (its
 * records stay as they were); a price row naming a type missing from machine-types.json, or
 * failing its schema, is skipped and counted, as is a type whose series is not classified.
 * Throws UPSTREAM_INVALID_DATA when a document has the wrong envelope or no machine type is valid.
 */
export function parseProviderDCatalog(
  documents: ProviderDDocuments,
  regionMap: readonly RegionMapping[],
): ProviderCatalog & { readonly invalidOptionPrices?: number } {
  if (!checkMachineTypesDocument.Check(documents.machineTypes)) {
    throw invalid('machine-types.json: expected {machine_types: [...]}');
  }
  if (!checkPricesDocument.Check(documents.prices)) {
    throw invalid('prices.json: expected {regions: [{id, prices: [...]}]}');
  }
  const types = validRecords(documents.machineTypes.machine_types, (v): v is GceMachineType =>
    checkMachineType.Check(v),
  );
  if (types.byId.size === 0) throw invalid('machine-types.json: no valid machine type');
  const skipped = new SkipTally();
  skipped.add('invalid_type', types.invalid);
  skipped.add('duplicate', types.duplicates);
  let seen = documents.machineTypes.machine_types.length;

  const regions = new Map(documents.prices.regions.map((r) => [r.id, r]));
  const reported = regionMap.filter((m) => regions.has(m.upstreamId));
  const offers: InstanceOffer[] = [];
  let invalidOptionPrices = 0;
  for (const mapping of reported) {
    const rows = regions.get(mapping.upstreamId)?.prices ?? [];
    seen += rows.length;
    const listed = new Set<string>();
    for (const row of rows) {
      if (!checkRegionPrice.Check(row)) {
        skipped.add('invalid_type');
        continue;
      }
      if (!row.offered) continue;
      const type = types.byId.get(row.id);
      if (type === undefined) {
        skipped.add('invalid_type');
        continue;
      }
      if (listed.has(row.id)) {
        skipped.add('duplicate');
        continue;
      }
      const mapped = offerOf(type, row, mapping.regionCode);
      if (typeof mapped === 'string') skipped.add(mapped);
      else {
        listed.add(row.id);
        offers.push(mapped.offer);
        invalidOptionPrices += mapped.refusedOptions;
      }
    }
  }
  return {
    provider: PROVIDER_D_NAME,
    regionCodes: reported.map((m) => m.regionCode),
    offers,
    skippedRecords: skipped.total,
    skippedReasons: skipped.counts,
    entriesSeen: seen,
    ...(invalidOptionPrices > 0 ? { invalidOptionPrices } : {}),
  };
}

// The record: one instance type in one region at one price, as the catalogue holds it and
// every reader (index, store, API shaping, recommendations) passes it around.
import type { InstanceFamily, ProviderName } from './model.js';
import type { MachineFacts } from './machine-facts.js';
import type { PurchaseOption, RecordOptions, SpotAdvice } from './purchase-options.js';

/** One priced record: an instance type in a region (the API's instance record, flat). */
export interface InstanceRow {
  /** The record id: unique per (instance type, region); ties in every sort break on it (D16). */
  readonly id: number;
  readonly instanceId: string;
  readonly instanceName: string;
  readonly vcpu: number;
  readonly memoryMb: number;
  readonly storageGb: number;
  readonly transferTb: number;
  readonly networkSpeedGbps: number;
  readonly gpuCount: number;
  readonly gpuType: string | null;
  readonly family: InstanceFamily;
  readonly providerId: number;
  readonly providerName: ProviderName;
  readonly providerDisplayName: string;
  readonly regionId: number;
  readonly regionCode: string;
  readonly regionName: string;
  readonly countryCode: string;
  /** The price of `purchaseOption` (D61): the on-demand list price unless a view selects another. */
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly available: number;
  /** Epoch milliseconds at which the price was observed upstream (D37). */
  readonly observedAt: number;
  /** D61: the option whose price hourlyMicros, monthlyMicros and observedAt are. */
  readonly purchaseOption: PurchaseOption;
  /** D61: every option the record is sold under, on-demand included. */
  readonly options: RecordOptions;
  /** D61: AWS's spot advice for the record, where recorded. */
  readonly spotAdvice: SpotAdvice | null;
  /** D62/D63: the type's machine facts (UNKNOWN_MACHINE_FACTS when nothing is recorded). */
  readonly facts: MachineFacts;
}

/**
 * `row` priced under `option` (D61): the same record with that option's prices, sharing every
 * other value; undefined when the record is not sold under it. On-demand is the row itself.
 */
export function recordAs(row: InstanceRow, option: PurchaseOption): InstanceRow | undefined {
  if (option === row.purchaseOption) return row;
  const quote = row.options[option];
  if (quote === undefined) return undefined;
  // Every field written out, in InstanceRow's order (one object shape for every view, made
  // fast by V8; a spread copies through a slower generic path): an option's index makes a
  // view each time it hands a record out.
  return Object.freeze({
    id: row.id,
    instanceId: row.instanceId,
    instanceName: row.instanceName,
    vcpu: row.vcpu,
    memoryMb: row.memoryMb,
    storageGb: row.storageGb,
    transferTb: row.transferTb,
    networkSpeedGbps: row.networkSpeedGbps,
    gpuCount: row.gpuCount,
    gpuType: row.gpuType,
    family: row.family,
    providerId: row.providerId,
    providerName: row.providerName,
    providerDisplayName: row.providerDisplayName,
    regionId: row.regionId,
    regionCode: row.regionCode,
    regionName: row.regionName,
    countryCode: row.countryCode,
    hourlyMicros: quote.hourlyMicros,
    monthlyMicros: quote.monthlyMicros,
    available: row.available,
    observedAt: quote.observedAt,
    purchaseOption: option,
    options: row.options,
    spotAdvice: row.spotAdvice,
    facts: row.facts,
  });
}

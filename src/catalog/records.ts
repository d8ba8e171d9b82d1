// The record: one instance type in one region at one price, as the catalogue holds it and
// every reader (index, store, API shaping, recommendations) passes it around.
import type { InstanceFamily, ProviderName } from './model.js';
import type { MachineFacts } from './machine-facts.js';
import type { OptionQuote, PurchaseOption, RecordOptions, SpotAdvice } from './purchase-options.js';

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
 * A record priced under another option (D61): its own prices and option, every other value read
 * from the record. Holding the record rather than a copy of it keeps an option's index at ~60
 * bytes a record instead of ~250 (five option indexes of a 100,000-record catalogue: ~100 MB).
 * One class for every view, so reads stay monomorphic.
 */
class OptionView implements InstanceRow {
  readonly #record: InstanceRow;
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly observedAt: number;
  readonly purchaseOption: PurchaseOption;

  constructor(record: InstanceRow, option: PurchaseOption, quote: OptionQuote) {
    this.#record = record;
    this.hourlyMicros = quote.hourlyMicros;
    this.monthlyMicros = quote.monthlyMicros;
    this.observedAt = quote.observedAt;
    this.purchaseOption = option;
    Object.freeze(this);
  }

  get id(): number {
    return this.#record.id;
  }
  get instanceId(): string {
    return this.#record.instanceId;
  }
  get instanceName(): string {
    return this.#record.instanceName;
  }
  get vcpu(): number {
    return this.#record.vcpu;
  }
  get memoryMb(): number {
    return this.#record.memoryMb;
  }
  get storageGb(): number {
    return this.#record.storageGb;
  }
  get transferTb(): number {
    return this.#record.transferTb;
  }
  get networkSpeedGbps(): number {
    return this.#record.networkSpeedGbps;
  }
  get gpuCount(): number {
    return this.#record.gpuCount;
  }
  get gpuType(): string | null {
    return this.#record.gpuType;
  }
  get family(): InstanceFamily {
    return this.#record.family;
  }
  get providerId(): number {
    return this.#record.providerId;
  }
  get providerName(): ProviderName {
    return this.#record.providerName;
  }
  get providerDisplayName(): string {
    return this.#record.providerDisplayName;
  }
  get regionId(): number {
    return this.#record.regionId;
  }
  get regionCode(): string {
    return this.#record.regionCode;
  }
  get regionName(): string {
    return this.#record.regionName;
  }
  get countryCode(): string {
    return this.#record.countryCode;
  }
  get available(): number {
    return this.#record.available;
  }
  get options(): RecordOptions {
    return this.#record.options;
  }
  get spotAdvice(): SpotAdvice | null {
    return this.#record.spotAdvice;
  }
  get facts(): MachineFacts {
    return this.#record.facts;
  }
}

/**
 * `row` priced under `option` (D61): the same record with that option's prices, sharing every
 * other value; undefined when the record is not sold under it. On-demand is the row itself.
 */
export function recordAs(row: InstanceRow, option: PurchaseOption): InstanceRow | undefined {
  if (option === row.purchaseOption) return row;
  const quote = row.options[option];
  return quote === undefined ? undefined : new OptionView(row, option, quote);
}

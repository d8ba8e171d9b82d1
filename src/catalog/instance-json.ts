// The API's instance record (spec 2.1 to 2.4). Records change only at a sync, so each one is
// serialised once per catalogue version, by the catalogue index (catalog/index/).
import type { InstanceRow } from './records.js';
import { moneyView, type MoneyView } from './money-view.js';
import type { FieldNotes } from './field-notes.js';
import { cityOfRegion, fieldNotes, providerRegionId, type CitySlug } from './model.js';
import type { CpuAllocation, CpuArchitecture, MachineFacts, StorageType } from './machine-facts.js';
import type {
  PurchaseOption,
  RecordOptions,
  SpotAdvice,
  SpotInterruptionBand,
} from './purchase-options.js';

const USD_VIEW = moneyView(undefined, 'USD');

export interface InstanceRecord {
  id: number;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  memory_mb: number;
  storage_gb: number;
  transfer_tb: number;
  network_speed_gbps: number;
  gpu_count: number;
  gpu_type: string | null;
  instance_family: string;
  /** Which numbers are not included in the price, or not published upstream (field-notes.ts). */
  field_notes: FieldNotes;
  provider: { id: number; name: string; display_name: string };
  region: {
    id: number;
    region_code: string;
    region_name: string;
    country_code: string;
    /** D56: the city of the region (the region table's). */
    city: CitySlug;
    /** The provider's own id of the region (equal to region_code where they agree). */
    provider_region_id: string;
  };
  pricing: {
    hourly_price: number;
    monthly_price: number;
    currency: string;
    available: number;
    /** ISO date-time the price was observed upstream (D37). */
    observed_at: string;
    /** D45: monthly price / vCPU and / memory GiB, rounded like monthly prices; null for 0. */
    monthly_price_per_vcpu: number | null;
    monthly_price_per_gb: number | null;
    /** D61: the option whose prices this pricing shows. */
    purchase_option: PurchaseOption;
    /** D61: every option the record is sold under, on-demand included. */
    options: Partial<Record<PurchaseOption, OptionPriceJson>>;
    /** D61: AWS's spot advice, where recorded; never a price. */
    spot_advice: SpotAdviceJson | null;
  };
  /** D62: the type's CPU; each fact null when not recorded. */
  cpu: {
    architecture: CpuArchitecture | null;
    manufacturer: string | null;
    model: string | null;
    allocation: CpuAllocation | null;
  };
  /** D62: total GPU memory in GiB; null without a GPU or when not recorded. */
  gpu_memory_gb: number | null;
  /** D62: kind of local storage; null without local storage or when not recorded. */
  storage_type: StorageType | null;
  /** D63: the type's recorded CoreMark, or null. */
  benchmark: BenchmarkJson | null;
}

export interface OptionPriceJson {
  hourly_price: number;
  monthly_price: number;
  observed_at: string;
}

export interface SpotAdviceJson {
  interruption_band: SpotInterruptionBand;
  savings_pct: number;
  observed_at: string;
  source: string;
}

/** D61's `pricing.options` in `money`'s currency, rounded as the record's own prices. */
export function optionsJson(
  options: RecordOptions,
  money: MoneyView = USD_VIEW,
): Partial<Record<PurchaseOption, OptionPriceJson>> {
  const out: Partial<Record<PurchaseOption, OptionPriceJson>> = {};
  for (const [name, quote] of Object.entries(options) as [
    PurchaseOption,
    RecordOptions[PurchaseOption],
  ][]) {
    out[name] = {
      hourly_price: money.hourly(quote!.hourlyMicros),
      monthly_price: money.monthly(quote!.monthlyMicros),
      observed_at: new Date(quote!.observedAt).toISOString(),
    };
  }
  return out;
}

/** D61's `pricing.spot_advice`: AWS's figure as published. */
export function spotAdviceJson(advice: SpotAdvice | null): SpotAdviceJson | null {
  if (advice === null) return null;
  return {
    interruption_band: advice.interruptionBand,
    savings_pct: advice.savingsPct,
    observed_at: advice.observedAt.toISOString(),
    source: advice.source,
  };
}

export interface BenchmarkJson {
  /** CoreMark iterations per second (multi-threaded, all vCPUs), as recorded for the type. */
  coremark: number;
  /** coremark / the record's USD monthly price, 2 decimals; null for a free record. */
  coremark_per_usd_month: number | null;
  /** ISO date-time of the run. */
  ran_at: string;
  source: string;
}

/** D63: the score per USD of monthly price, 2 decimals (null when the price is 0). */
export function coremarkPerUsdMonth(coremark: number, monthlyMicros: number): number | null {
  if (monthlyMicros <= 0) return null;
  return Math.round((coremark * 1_000_000 * 100) / monthlyMicros) / 100;
}

/** D63's `benchmark` of a record priced `monthlyMicros` USD a month (also /recommend's). */
export function benchmarkOf(facts: MachineFacts, monthlyMicros: number): BenchmarkJson | null {
  const run = facts.coremark;
  if (run === null) return null;
  return {
    coremark: run.score,
    coremark_per_usd_month: coremarkPerUsdMonth(run.score, monthlyMicros),
    ran_at: new Date(run.ranAt).toISOString(),
    source: run.source,
  };
}

/** D62's `cpu` of a record (also /recommend's). */
export function cpuOf(facts: MachineFacts): InstanceRecord['cpu'] {
  return {
    architecture: facts.cpuArchitecture,
    manufacturer: facts.cpuManufacturer,
    model: facts.cpuModel,
    allocation: facts.cpuAllocation,
  };
}

/** The record with its prices in `money`'s currency (D43); USD unless asked otherwise. */
export function toInstanceRecord(row: InstanceRow, money: MoneyView = USD_VIEW): InstanceRecord {
  return {
    id: row.id,
    instance_id: row.instanceId,
    instance_name: row.instanceName,
    vcpu: row.vcpu,
    memory_mb: row.memoryMb,
    storage_gb: row.storageGb,
    transfer_tb: row.transferTb,
    network_speed_gbps: row.networkSpeedGbps,
    gpu_count: row.gpuCount,
    gpu_type: row.gpuType,
    instance_family: row.family,
    field_notes: fieldNotes(row.providerName, row),
    provider: { id: row.providerId, name: row.providerName, display_name: row.providerDisplayName },
    region: {
      id: row.regionId,
      region_code: row.regionCode,
      region_name: row.regionName,
      country_code: row.countryCode,
      // Every stored region is one of the table's (the seed writes only those).
      city: cityOfRegion(row.regionCode)!,
      provider_region_id: providerRegionId(row.regionCode),
    },
    pricing: {
      hourly_price: money.hourly(row.hourlyMicros),
      monthly_price: money.monthly(row.monthlyMicros),
      currency: money.currency,
      available: row.available,
      observed_at: new Date(row.observedAt).toISOString(),
      monthly_price_per_vcpu: money.monthlyPer(row.monthlyMicros, row.vcpu),
      // memory GiB = memory_mb / 1024
      monthly_price_per_gb: money.monthlyPer(row.monthlyMicros, row.memoryMb, 1024),
      purchase_option: row.purchaseOption,
      options: optionsJson(row.options, money),
      spot_advice: spotAdviceJson(row.spotAdvice),
    },
    cpu: cpuOf(row.facts),
    gpu_memory_gb: row.facts.gpuMemoryGb,
    storage_type: row.facts.storageType,
    benchmark: benchmarkOf(row.facts, row.monthlyMicros),
  };
}

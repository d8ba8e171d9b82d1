import { INSTANCE_FAMILIES, isProviderName } from '../catalog/model.js';
import type { InstanceFamily } from '../catalog/model.js';
import type { InstanceRow } from '../catalog/records.js';
import {
  PURCHASE_OPTIONS,
  isPurchaseOption,
  isSpotInterruptionBand,
  type OptionQuote,
  type PurchaseOption,
  type RecordOptions,
  type SpotAdvice,
} from '../catalog/purchase-options.js';
import {
  UNKNOWN_MACHINE_FACTS,
  isCpuAllocation,
  isCpuArchitecture,
  isStorageType,
  type MachineFacts,
} from '../catalog/machine-facts.js';

/** The flat record every listing query selects, in database column names. */
export interface InstanceRecordRow {
  readonly id: number;
  readonly instance_id: string;
  readonly instance_name: string;
  readonly vcpu: number;
  readonly memory_mb: number;
  readonly storage_gb: number;
  readonly transfer_tb: number;
  readonly network_speed_gbps: number;
  readonly gpu_count: number;
  readonly gpu_type: string | null;
  readonly instance_family: string;
  readonly provider_id: number;
  readonly provider_name: string;
  readonly provider_display_name: string;
  readonly region_id: number;
  readonly region_code: string;
  readonly region_name: string;
  readonly country_code: string;
  readonly hourly_micros: number;
  readonly monthly_micros: number;
  readonly available: number;
  readonly observed_at: number;
  readonly cpu_architecture: string | null;
  readonly cpu_manufacturer: string | null;
  readonly cpu_model: string | null;
  readonly cpu_allocation: string | null;
  readonly gpu_memory_gb: number | null;
  readonly storage_type: string | null;
  readonly coremark: number | null;
  readonly coremark_ran_at: number | null;
  readonly coremark_source: string | null;
}

/** Selection list for InstanceRecordRow over `pricing p, instances i, regions r, providers pv`. */
export const INSTANCE_RECORD_COLUMNS = [
  'p.id as id',
  'i.instance_id as instance_id',
  'i.instance_name as instance_name',
  'i.vcpu as vcpu',
  'i.memory_mb as memory_mb',
  'i.storage_gb as storage_gb',
  'i.transfer_tb as transfer_tb',
  'i.network_speed_gbps as network_speed_gbps',
  'i.gpu_count as gpu_count',
  'i.gpu_type as gpu_type',
  'i.instance_family as instance_family',
  'pv.id as provider_id',
  'pv.name as provider_name',
  'pv.display_name as provider_display_name',
  'r.id as region_id',
  'r.region_code as region_code',
  'r.region_name as region_name',
  'r.country_code as country_code',
  'p.hourly_micros as hourly_micros',
  'p.monthly_micros as monthly_micros',
  'p.available as available',
  'p.observed_at as observed_at',
  'i.cpu_architecture as cpu_architecture',
  'i.cpu_manufacturer as cpu_manufacturer',
  'i.cpu_model as cpu_model',
  'i.cpu_allocation as cpu_allocation',
  'i.gpu_memory_gb as gpu_memory_gb',
  'i.storage_type as storage_type',
  'i.coremark as coremark',
  'i.coremark_ran_at as coremark_ran_at',
  'i.coremark_source as coremark_source',
] as const;

function isInstanceFamily(value: string): value is InstanceFamily {
  return (INSTANCE_FAMILIES as readonly string[]).includes(value);
}

/**
 * The facts of a row. A stored text outside the vocabulary is corruption; nothing recorded
 * gives the one shared UNKNOWN_MACHINE_FACTS object.
 */
function factsOf(row: InstanceRecordRow): MachineFacts {
  const { cpu_architecture: architecture, cpu_allocation: allocation, storage_type: storage } = row;
  if (architecture !== null && !isCpuArchitecture(architecture))
    throw new Error(`unknown CPU architecture in catalogue: ${architecture}`);
  if (allocation !== null && !isCpuAllocation(allocation))
    throw new Error(`unknown CPU allocation in catalogue: ${allocation}`);
  if (storage !== null && !isStorageType(storage))
    throw new Error(`unknown storage type in catalogue: ${storage}`);
  const coremark =
    row.coremark === null || row.coremark_ran_at === null
      ? null
      : {
          score: Number(row.coremark),
          ranAt: Number(row.coremark_ran_at),
          source: row.coremark_source ?? '',
        };
  const gpuMemoryGb = row.gpu_memory_gb === null ? null : Number(row.gpu_memory_gb);
  if (
    architecture === null &&
    allocation === null &&
    storage === null &&
    coremark === null &&
    gpuMemoryGb === null &&
    row.cpu_manufacturer === null &&
    row.cpu_model === null
  ) {
    return UNKNOWN_MACHINE_FACTS;
  }
  return {
    cpuArchitecture: architecture,
    cpuManufacturer: row.cpu_manufacturer,
    cpuModel: row.cpu_model,
    cpuAllocation: allocation,
    gpuMemoryGb,
    storageType: storage,
    coremark,
  };
}

/** A record's price under an option other than on-demand (D61), as `pricing_options` holds it. */
export interface OptionPriceRow {
  readonly pricing_id: number;
  readonly purchase_option: string;
  readonly hourly_micros: number;
  readonly monthly_micros: number;
  readonly observed_at: number;
}

/** A record's spot advice (D61), as `spot_advice` holds it. */
export interface SpotAdviceRow {
  readonly pricing_id: number;
  readonly interruption_band: string;
  readonly savings_pct: number;
  readonly observed_at: number;
  readonly source: string;
}

/** What a record has beside its on-demand price: its other options' rows and its spot advice. */
export interface RecordExtras {
  readonly options: readonly OptionPriceRow[];
  readonly advice: SpotAdviceRow | undefined;
}

const NO_EXTRAS: RecordExtras = { options: [], advice: undefined };

/** D61 `pricing.options` of a record: on-demand from `pricing`, the others from their rows. */
function optionsOf(row: InstanceRecordRow, extra: readonly OptionPriceRow[]): RecordOptions {
  const byName = new Map<PurchaseOption, OptionQuote>([
    [
      'on_demand',
      {
        hourlyMicros: Number(row.hourly_micros),
        monthlyMicros: Number(row.monthly_micros),
        observedAt: Number(row.observed_at),
      },
    ],
  ]);
  for (const option of extra) {
    const name = option.purchase_option;
    if (!isPurchaseOption(name) || name === 'on_demand')
      throw new Error(`unknown purchase option in catalogue: ${name}`);
    byName.set(name, {
      hourlyMicros: Number(option.hourly_micros),
      monthlyMicros: Number(option.monthly_micros),
      observedAt: Number(option.observed_at),
    });
  }
  // PURCHASE_OPTIONS order, whatever order the rows came in: one JSON for one record.
  return Object.fromEntries(
    PURCHASE_OPTIONS.flatMap((name) => {
      const quote = byName.get(name);
      return quote === undefined ? [] : [[name, quote]];
    }),
  );
}

function adviceOf(row: SpotAdviceRow | undefined): SpotAdvice | null {
  if (row === undefined) return null;
  if (!isSpotInterruptionBand(row.interruption_band))
    throw new Error(`unknown spot interruption band in catalogue: ${row.interruption_band}`);
  return {
    interruptionBand: row.interruption_band,
    savingsPct: Number(row.savings_pct),
    observedAt: new Date(Number(row.observed_at)),
    source: row.source,
  };
}

/**
 * Maps a database row (and its option rows) to the API-facing shape, priced on-demand; a value
 * outside the vocabulary is corruption.
 */
export function toInstanceRow(
  row: InstanceRecordRow,
  extras: RecordExtras = NO_EXTRAS,
): InstanceRow {
  const providerName = row.provider_name;
  const family = row.instance_family;
  if (!isProviderName(providerName))
    throw new Error(`unknown provider in catalogue: ${row.provider_name}`);
  if (!isInstanceFamily(family)) throw new Error(`unknown instance family in catalogue: ${family}`);
  return {
    id: row.id,
    instanceId: row.instance_id,
    instanceName: row.instance_name,
    vcpu: row.vcpu,
    memoryMb: row.memory_mb,
    storageGb: row.storage_gb,
    transferTb: row.transfer_tb,
    networkSpeedGbps: row.network_speed_gbps,
    gpuCount: row.gpu_count,
    gpuType: row.gpu_type,
    family,
    providerId: row.provider_id,
    providerName,
    providerDisplayName: row.provider_display_name,
    regionId: row.region_id,
    regionCode: row.region_code,
    regionName: row.region_name,
    countryCode: row.country_code,
    hourlyMicros: row.hourly_micros,
    monthlyMicros: row.monthly_micros,
    available: row.available,
    observedAt: Number(row.observed_at),
    purchaseOption: 'on_demand',
    options: optionsOf(row, extras.options),
    spotAdvice: adviceOf(extras.advice),
    facts: factsOf(row),
  };
}

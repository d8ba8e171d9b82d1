// What a read of the catalogue asks for and gets back: filters, sort and page over records
// (the index and the store answer the same query identically), and recommendation candidates.
import type { InstanceFamily, ProviderName } from './model.js';
import type { InstanceRow } from './records.js';
import type { CpuAllocation, CpuArchitecture } from './machine-facts.js';

/** Sort fields after aliases are resolved (D16): price/monthly_price -> monthly_price, memory_gb -> memory_mb. */
export type SortColumn =
  | 'monthly_price'
  | 'hourly_price'
  | 'vcpu'
  | 'memory_mb'
  | 'storage_gb'
  | 'instance_name'
  | 'provider'
  | 'region'
  /** Monthly price per vCPU, and per memory GiB (D45). */
  | 'price_per_vcpu'
  | 'price_per_gb'
  /** D63: the recorded CoreMark score, and that score per USD of monthly price. */
  | 'coremark'
  | 'coremark_per_price';

export interface InstanceFilter {
  readonly provider?: ProviderName;
  readonly region?: string;
  /**
   * Any of these region codes (extension D53: `region=a,b`; D56 `city`): in REGION_CODES order,
   * never exactly one (a single code is `region`); empty matches nothing (a `city` and a `region`
   * with no region in common).
   */
  readonly regions?: readonly string[];
  /**
   * Extension D54 (`q`): instance_id or instance_name contains this text, compared with ASCII
   * letters folded to lower case (foldAsciiCase); the text is already folded.
   */
  readonly text?: string;
  readonly minVcpu?: number;
  readonly maxVcpu?: number;
  /** Memory bounds in MB (the API's GB bounds x 1024, D18). */
  readonly minMemoryMb?: number;
  readonly maxMemoryMb?: number;
  /** Monthly price bound in integer micro-dollars. */
  readonly maxMonthlyMicros?: number;
  readonly family?: InstanceFamily;
  readonly hasGpu?: boolean;
  /**
   * D62 `arch`, `cpu_allocation`: the record's fact is one of these (in the vocabulary's order,
   * never empty); a record whose fact is null matches neither.
   */
  readonly architectures?: readonly CpuArchitecture[];
  readonly allocations?: readonly CpuAllocation[];
}

export interface InstanceQuery {
  readonly filter: InstanceFilter;
  readonly sort: SortColumn;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

export interface InstancePage {
  /** The page's record ids, in order. */
  readonly ids: readonly number[];
  /** The page's records in order, except those the caller said it already holds. */
  readonly rows: readonly InstanceRow[];
  /** All records matching the filter, read in the same snapshot as the page. */
  readonly total: number;
}

// Machine facts (D62) and measured performance (D63) of an instance type: what its CPU is, how
// the CPU is allocated, its GPU memory and local storage kind, and a recorded CoreMark score.
// Every value comes from a recorded source or from the vendor's own published plan class; a
// fact nobody recorded is null, never guessed (docs/api.md names each provider's rule).

export const CPU_ARCHITECTURES = ['x86_64', 'arm64'] as const;
export type CpuArchitecture = (typeof CPU_ARCHITECTURES)[number];

export const CPU_ALLOCATIONS = ['dedicated', 'shared', 'burstable'] as const;
export type CpuAllocation = (typeof CPU_ALLOCATIONS)[number];

export const STORAGE_TYPES = ['nvme_ssd', 'ssd', 'hdd'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/** A recorded CoreMark run of the type (multi-threaded, all vCPUs). */
export interface CoremarkRun {
  /** Iterations per second, rounded to a whole number. */
  readonly score: number;
  /** Epoch milliseconds of the run. */
  readonly ranAt: number;
  /** Short text naming where the figure was recorded. */
  readonly source: string;
}

/** The facts of one instance type; the same object for every region of the type. */
export interface MachineFacts {
  readonly cpuArchitecture: CpuArchitecture | null;
  readonly cpuManufacturer: string | null;
  readonly cpuModel: string | null;
  readonly cpuAllocation: CpuAllocation | null;
  /** Total GPU memory, GiB; null without a GPU or when not recorded. */
  readonly gpuMemoryGb: number | null;
  /** Kind of the local (instance) storage; null without local storage or when not recorded. */
  readonly storageType: StorageType | null;
  readonly coremark: CoremarkRun | null;
}

/** Nothing recorded: every fact null. */
export const UNKNOWN_MACHINE_FACTS: MachineFacts = Object.freeze({
  cpuArchitecture: null,
  cpuManufacturer: null,
  cpuModel: null,
  cpuAllocation: null,
  gpuMemoryGb: null,
  storageType: null,
  coremark: null,
});

export function isCpuArchitecture(value: unknown): value is CpuArchitecture {
  return typeof value === 'string' && (CPU_ARCHITECTURES as readonly string[]).includes(value);
}

export function isCpuAllocation(value: unknown): value is CpuAllocation {
  return typeof value === 'string' && (CPU_ALLOCATIONS as readonly string[]).includes(value);
}

export function isStorageType(value: unknown): value is StorageType {
  return typeof value === 'string' && (STORAGE_TYPES as readonly string[]).includes(value);
}

/** A stable text of the facts: records with equal keys hold equal facts (index interning). */
export function machineFactsKey(facts: MachineFacts): string {
  const run = facts.coremark;
  return JSON.stringify([
    facts.cpuArchitecture,
    facts.cpuManufacturer,
    facts.cpuModel,
    facts.cpuAllocation,
    facts.gpuMemoryGb,
    facts.storageType,
    run === null ? null : [run.score, run.ranAt, run.source],
  ]);
}

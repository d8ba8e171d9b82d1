// provider_d's machine facts (D62) and CoreMark (D63), from the machine-type record the snapshot
// carries (data/sources/gcp-machine-types-2026-03-22.csv): architecture as recorded; allocation
// `burstable` for Google's shared-core types (e2-micro/small/medium, f1-micro, g1-small) and
// `dedicated` for every other type with the flag recorded; the CPU model is the series' platform
// list as recorded, its manufacturer only when every platform of the list has the same one. A
// fact not recorded is null, never guessed.
import type { CpuAllocation, MachineFacts } from '../../catalog/machine-facts.js';
import type { GceMachineType } from './schema.js';

/** D63's `benchmark.source` of every provider_d score (the attribution its licence asks for). */
export const GCE_COREMARK_SOURCE =
  "Google Cloud's 'Benchmarks for Linux VM instances' (CC BY 4.0), as copied by github.com/Cyclenerd/google-cloud-compute-machine-types (Apache-2.0)";

/** The copy of Google's CoreMark table was made on this day; the runs are not dated apart. */
export const GCE_COREMARK_RAN_AT = Date.parse('2024-06-24T00:00:00Z');

/** Platform names of the recording, by manufacturer. */
const MANUFACTURER_OF_PLATFORM: Readonly<Record<string, string>> = Object.freeze({
  'Sandy Bridge': 'Intel',
  'Ivy Bridge': 'Intel',
  Haswell: 'Intel',
  Broadwell: 'Intel',
  Skylake: 'Intel',
  'Cascade Lake': 'Intel',
  'Ice Lake': 'Intel',
  'Sapphire Rapids': 'Intel',
  'Emerald Rapids': 'Intel',
  'Granite Rapids': 'Intel',
  Rome: 'AMD',
  Milan: 'AMD',
  Genoa: 'AMD',
  Turin: 'AMD',
  'Ampere Altra': 'Ampere',
  'Google Axion': 'Google',
});

function manufacturerOf(platforms: string | null): string | null {
  if (platforms === null) return null;
  const makers = new Set(
    platforms.split(',').map((p) => MANUFACTURER_OF_PLATFORM[p.trim()] ?? 'unknown'),
  );
  const [only] = makers;
  return makers.size === 1 && only !== 'unknown' && only !== undefined ? only : null;
}

/** GPU memory in GiB from a model name that states it per GPU ("NVIDIA A100 40GB"), x count. */
function gpuMemoryGb(type: GceMachineType): number | null {
  if (type.gpu_count === 0 || type.gpu_model === null) return null;
  const stated = /\b(\d+)GB\b/.exec(type.gpu_model);
  return stated === null ? null : Number(stated[1]) * type.gpu_count;
}

function allocation(sharedCore: boolean | null): CpuAllocation | null {
  if (sharedCore === null) return null;
  return sharedCore ? 'burstable' : 'dedicated';
}

/** The facts of one machine type (the same object for each of its regions). */
export function gceMachineFacts(type: GceMachineType): MachineFacts {
  return Object.freeze({
    cpuArchitecture: type.cpu_architecture,
    cpuManufacturer: manufacturerOf(type.cpu_platform),
    cpuModel: type.cpu_platform,
    cpuAllocation: allocation(type.shared_core),
    gpuMemoryGb: gpuMemoryGb(type),
    // Google's Local SSD: solid state, its interface (NVMe or SCSI) is not recorded.
    storageType: type.local_ssd_gb > 0 ? 'ssd' : null,
    coremark:
      type.coremark === null
        ? null
        : Object.freeze({
            score: type.coremark,
            ranAt: GCE_COREMARK_RAN_AT,
            source: GCE_COREMARK_SOURCE,
          }),
  });
}

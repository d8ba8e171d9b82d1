// provider_c's machine facts (D62) and CoreMark (D63) by instance type, from the generated table
// (machine-facts.data.ts, built offline from the recordings in data/sources/ by
// `npm run snapshots:generate`). Keyed by type, not by snapshot: a live sync's offers get the
// same facts, and a type neither recording names gets none (every fact null, never a guess).
import type { InstanceOffer } from '../../catalog/offers.js';
import {
  UNKNOWN_MACHINE_FACTS,
  isCpuAllocation,
  isCpuArchitecture,
  isStorageType,
  type MachineFacts,
} from '../../catalog/machine-facts.js';
import { AWS_MACHINE_FACT_ROWS } from './machine-facts.data.js';

/** D63's `benchmark.source` of every provider_c score (the attribution its licence asks for). */
export const AWS_COREMARK_SOURCE =
  'benchmarks from ec2instances.info (github.com/vantage-sh/ec2instances.info, MIT)';

/** The table's columns after the instance type, in order. */
export const MACHINE_FACTS_FIELDS = [
  'architecture',
  'manufacturer',
  'model',
  'allocation',
  'gpuMemoryGb',
  'storageType',
  'coremark',
  'ranAt',
] as const;

/** One type's facts as the table's text cells ('' = not recorded). */
export type MachineFactsRow = Readonly<Record<(typeof MACHINE_FACTS_FIELDS)[number], string>>;

const orNull = (text: string | undefined): string | null =>
  text === undefined || text === '' ? null : text;

/** One table line to its facts; a line outside the vocabulary is a broken build. */
export function parseMachineFactsLine(line: string): [string, MachineFacts] {
  const [type, architecture, manufacturer, model, allocation, gpu, storage, score, ranAt] =
    line.split('|');
  const arch = orNull(architecture);
  const alloc = orNull(allocation);
  const kind = orNull(storage);
  if (
    type === undefined ||
    ranAt === undefined ||
    (arch !== null && !isCpuArchitecture(arch)) ||
    (alloc !== null && !isCpuAllocation(alloc)) ||
    (kind !== null && !isStorageType(kind))
  ) {
    throw new Error(`machine-facts.data.ts: bad line ${line}`);
  }
  const coremark =
    orNull(score) === null
      ? null
      : { score: Number(score), ranAt: Date.parse(ranAt), source: AWS_COREMARK_SOURCE };
  return [
    type,
    Object.freeze({
      cpuArchitecture: arch,
      cpuManufacturer: orNull(manufacturer),
      cpuModel: orNull(model),
      cpuAllocation: alloc,
      gpuMemoryGb: orNull(gpu) === null ? null : Number(gpu),
      storageType: kind,
      coremark: coremark === null ? null : Object.freeze(coremark),
    }),
  ];
}

let table: ReadonlyMap<string, MachineFacts> | undefined;

/** The facts of an EC2 instance type (UNKNOWN_MACHINE_FACTS for a type not recorded). */
export function awsMachineFacts(instanceType: string): MachineFacts {
  table ??= new Map(AWS_MACHINE_FACT_ROWS.map(parseMachineFactsLine));
  return table.get(instanceType) ?? UNKNOWN_MACHINE_FACTS;
}

/** The offer with its type's facts attached. */
export function withAwsMachineFacts(offer: InstanceOffer): InstanceOffer {
  return { ...offer, facts: awsMachineFacts(offer.instanceId) };
}

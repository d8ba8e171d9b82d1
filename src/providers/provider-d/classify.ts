// provider_d's instance_family rule (D65, docs/api.md "Google Cloud"): by machine series, as
// Google's own machine-family pages group the series (general-purpose, compute-optimized,
// memory-optimized, storage-optimized, accelerator-optimized). A series not in the table is not
// classified: its types are skipped and counted (`unclassified`), never guessed.
import type { InstanceFamily } from '../../catalog/model.js';

/** Google's grouping of each series we list, in our families. */
export const SERIES_FAMILY: Readonly<Record<string, InstanceFamily>> = Object.freeze({
  // General-purpose (Google counts C3, C3D, C4, C4A and C4D here too); f1 and g1 are N1's
  // shared-core types.
  e2: 'general',
  f1: 'general',
  g1: 'general',
  n1: 'general',
  n2: 'general',
  n2d: 'general',
  n4: 'general',
  n4a: 'general',
  n4d: 'general',
  t2a: 'general',
  t2d: 'general',
  c3: 'general',
  c3d: 'general',
  c4: 'general',
  c4a: 'general',
  c4d: 'general',
  // Compute-optimized.
  c2: 'compute',
  c2d: 'compute',
  h3: 'compute',
  h4d: 'compute',
  // Memory-optimized.
  m1: 'memory',
  m2: 'memory',
  m3: 'memory',
  m4: 'memory',
  x4: 'memory',
  // Storage-optimized.
  z3: 'storage',
  // Accelerator-optimized.
  a2: 'gpu',
  a3: 'gpu',
  a4: 'gpu',
  g2: 'gpu',
  g4: 'gpu',
});

/** The series of a machine type: its name before the first `-` (`n2d-standard-2` -> `n2d`). */
export function machineSeries(machineType: string): string {
  return machineType.split('-', 1)[0] ?? machineType;
}

/** The family of a machine type, or undefined when its series is not in the table. */
export function classifyMachineType(machineType: string): InstanceFamily | undefined {
  const series = machineSeries(machineType);
  return Object.hasOwn(SERIES_FAMILY, series) ? SERIES_FAMILY[series] : undefined;
}

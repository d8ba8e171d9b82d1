// How a Linode type becomes one of our instance families (D35), which GPU it carries, and which
// region capabilities it needs before we list it in a region.
import type { InstanceFamily } from '../../catalog/model.js';
import {
  UNKNOWN_MACHINE_FACTS,
  type CpuAllocation,
  type MachineFacts,
} from '../../catalog/machine-facts.js';
import { UNKNOWN_GPU_TYPE } from '../upstream-values.js';

/**
 * Linode `class` -> our family (D35). Anything with `gpus > 0` is `gpu` whatever its class.
 *
 * | class        | family  | why                                                       |
 * |--------------|---------|-----------------------------------------------------------|
 * | nanode       | general | shared CPU                                                |
 * | standard     | general | shared CPU                                                |
 * | dedicated    | compute | dedicated CPU cores                                       |
 * | prodedicated | compute | dedicated CPU cores (Cloud Manager class)                 |
 * | premium      | compute | dedicated cores on newer CPUs                             |
 * | highmem      | memory  | high memory per core                                      |
 * | gpu          | gpu     | GPU plans                                                 |
 * | accelerated  | gpu     | accelerator plans (the upstream's `accelerated_devices`)  |
 * | metal        | -       | bare metal, not a cloud instance: not listed              |
 * | other        | -       | unknown class: the record is skipped and counted          |
 */
const CLASS_FAMILY: ReadonlyMap<string, InstanceFamily> = new Map([
  ['nanode', 'general'],
  ['standard', 'general'],
  ['dedicated', 'compute'],
  ['prodedicated', 'compute'],
  ['premium', 'compute'],
  ['highmem', 'memory'],
  ['gpu', 'gpu'],
  ['accelerated', 'gpu'],
]);

/** Classes we know and deliberately leave out of the catalogue (not counted as skipped). */
const EXCLUDED_CLASSES: ReadonlySet<string> = new Set(['metal']);

export type LinodeClassification =
  | { readonly kind: 'listed'; readonly family: InstanceFamily }
  | { readonly kind: 'excluded' }
  | { readonly kind: 'unknown' };

export function classifyLinodeType(typeClass: string, gpus: number): LinodeClassification {
  if (EXCLUDED_CLASSES.has(typeClass)) return { kind: 'excluded' };
  const family = CLASS_FAMILY.get(typeClass);
  if (family === undefined) return { kind: 'unknown' };
  return { kind: 'listed', family: gpus > 0 ? 'gpu' : family };
}

/**
 * The upstream has no GPU model field: the model appears only in the id and label
 * (`g1-gpu-rtx6000-1` / "Dedicated 32GB + RTX6000 GPU x1", `g2-gpu-rtx4000a1-s` / "RTX4000 Ada
 * x1 Small"). Patterns run on id and label lower-cased with spaces, `-` and `_` removed; the
 * most specific comes first, so "rtxpro6000" is not read as "rtx6000".
 */
const GPU_MODELS: readonly (readonly [RegExp, string])[] = [
  [/rtxpro6000/, 'NVIDIA RTX PRO 6000 Blackwell'],
  [/rtx4000a/, 'NVIDIA RTX 4000 Ada'],
  [/rtx6000/, 'NVIDIA RTX 6000'],
];

/** `gpuType` for a type with `gpus` GPUs: null when it has none (spec 2.1). */
export function linodeGpuType(id: string, label: string, gpus: number): string | null {
  if (gpus === 0) return null;
  const text = `${id} ${label}`.toLowerCase().replace(/[\s_-]/g, '');
  for (const [pattern, model] of GPU_MODELS) {
    if (pattern.test(text)) return model;
  }
  return UNKNOWN_GPU_TYPE;
}

/** Region capability every listed type needs (section 1.5). */
export const CAPABILITY_LINODES = 'Linodes';
export const CAPABILITY_GPU = 'GPU Linodes';
export const CAPABILITY_PREMIUM = 'Premium Plans';

/**
 * Capabilities a region must list before the type is offered there: `Linodes` always, plus
 * `GPU Linodes` for GPU types (class `gpu` or `gpus > 0`) and `Premium Plans` for class premium.
 */
export function requiredCapabilities(typeClass: string, gpus: number): readonly string[] {
  const needed = [CAPABILITY_LINODES];
  if (typeClass === 'gpu' || gpus > 0) needed.push(CAPABILITY_GPU);
  if (typeClass === 'premium') needed.push(CAPABILITY_PREMIUM);
  return needed;
}

/**
 * D62: CPU allocation by Linode's published plan class. Dedicated CPU, Premium and GPU plans
 * have dedicated cores; Shared CPU (nanode, standard) and High Memory plans share them.
 * Accelerated (VPU) plans and any other class: not published as either, so null. Linode's
 * type records name no CPU, GPU memory or disk kind: those facts are null.
 */
const CLASS_ALLOCATION: ReadonlyMap<string, CpuAllocation> = new Map([
  ['nanode', 'shared'],
  ['standard', 'shared'],
  ['highmem', 'shared'],
  ['dedicated', 'dedicated'],
  ['prodedicated', 'dedicated'],
  ['premium', 'dedicated'],
  ['gpu', 'dedicated'],
]);

const LINODE_FACTS: ReadonlyMap<string, MachineFacts> = new Map(
  [...CLASS_ALLOCATION].map(([typeClass, allocation]) => [
    typeClass,
    Object.freeze({ ...UNKNOWN_MACHINE_FACTS, cpuAllocation: allocation }),
  ]),
);

/** The machine facts of a Linode type of this class (one shared object per class). */
export function linodeMachineFacts(typeClass: string): MachineFacts {
  return LINODE_FACTS.get(typeClass) ?? UNKNOWN_MACHINE_FACTS;
}

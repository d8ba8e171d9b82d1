// How a Vultr plan becomes one of our instance families (D35), its GPU fields and its display
// name (the upstream has no plan label, only an id such as `vc2-1c-1gb`).
import type { InstanceFamily } from '../../catalog/model.js';
import type { CpuAllocation, MachineFacts } from '../../catalog/machine-facts.js';
import { UNKNOWN_GPU_TYPE } from '../upstream-values.js';
import type { VultrPlan } from './schema.js';

interface PlanClass {
  readonly family: InstanceFamily;
  /** Start of the derived display name. */
  readonly label: string;
  /** D62: the CPU allocation Vultr publishes for the product (null: not published). */
  readonly allocation: CpuAllocation | null;
}

/**
 * Vultr plan `type` -> our family (D35). Anything with a GPU is `gpu` whatever its type.
 *
 * | type  | family  | Vultr product                              |
 * |-------|---------|--------------------------------------------|
 * | vc2   | general | Cloud Compute, regular performance         |
 * | vhf   | general | Cloud Compute, high frequency              |
 * | vhp   | general | Cloud Compute, high performance            |
 * | voc-g | general | Optimized Cloud Compute, general purpose   |
 * | voc-c | compute | Optimized Cloud Compute, CPU optimized     |
 * | voc-m | memory  | Optimized Cloud Compute, memory optimized  |
 * | voc-s | storage | Optimized Cloud Compute, storage optimized |
 * | vdc   | compute | Dedicated Cloud (dedicated vCPUs)          |
 * | vcg   | gpu     | Cloud GPU                                  |
 * | vbm, vdm | -    | bare metal: not listed                     |
 * | other | -       | unknown type: the record is skipped and counted |
 *
 * A plain `voc` type is resolved by the plan id's prefix (`voc-g-...`), in case the upstream
 * reports the product line rather than the sub-type.
 */
const PLAN_CLASSES: ReadonlyMap<string, PlanClass> = new Map([
  ['vc2', { family: 'general', label: 'Cloud Compute Regular', allocation: 'shared' }],
  ['vhf', { family: 'general', label: 'Cloud Compute High Frequency', allocation: 'shared' }],
  ['vhp', { family: 'general', label: 'Cloud Compute High Performance', allocation: 'shared' }],
  [
    'voc-g',
    { family: 'general', label: 'Optimized Cloud General Purpose', allocation: 'dedicated' },
  ],
  ['voc-c', { family: 'compute', label: 'Optimized Cloud CPU', allocation: 'dedicated' }],
  ['voc-m', { family: 'memory', label: 'Optimized Cloud Memory', allocation: 'dedicated' }],
  ['voc-s', { family: 'storage', label: 'Optimized Cloud Storage', allocation: 'dedicated' }],
  ['vdc', { family: 'compute', label: 'Dedicated Cloud', allocation: 'dedicated' }],
  ['vcg', { family: 'gpu', label: 'Cloud GPU', allocation: null }],
]);

/** Bare-metal types: not cloud instances, deliberately left out (not counted as skipped). */
const EXCLUDED_TYPES: ReadonlySet<string> = new Set(['vbm', 'vdm']);

export interface VultrGpu {
  readonly count: number;
  readonly type: string | null;
}

export type VultrClassification =
  | {
      readonly kind: 'listed';
      readonly family: InstanceFamily;
      readonly gpu: VultrGpu;
      readonly name: string;
      readonly facts: MachineFacts;
    }
  | { readonly kind: 'excluded' }
  | { readonly kind: 'invalid' };

function planClass(plan: VultrPlan): PlanClass | undefined {
  if (plan.type === 'voc') {
    const subtype = /^(voc-[gcms])-/.exec(plan.id)?.[1];
    return subtype === undefined ? undefined : PLAN_CLASSES.get(subtype);
  }
  return PLAN_CLASSES.get(plan.type);
}

/**
 * GPU fields: the type is `gpu_type` with `_` as a space (`NVIDIA_A100` -> "NVIDIA A100"); the
 * count is `gpu_count` when present, else 1 for a plan that has a GPU (a `vcg` plan or one with
 * `gpu_type`). Fractional plans (`vcg-a100-1c-6g-4vram`: a 4 GB slice of an A100) count as 1
 * GPU; their VRAM is in the display name. Null when the data contradicts itself (a GPU type with
 * `gpu_count` 0).
 */
function vultrGpu(plan: VultrPlan): VultrGpu | null {
  const gpuType = plan.gpu_type ?? null;
  const declaredCount = plan.gpu_count ?? null;
  const hasGpu = plan.type === 'vcg' || gpuType !== null || (declaredCount ?? 0) > 0;
  if (!hasGpu) return { count: 0, type: null };
  const count = declaredCount ?? 1;
  if (count === 0) return null;
  return { count, type: gpuType === null ? UNKNOWN_GPU_TYPE : gpuType.replace(/_/g, ' ') };
}

/**
 * D62 from the plan itself: the allocation of its product (Cloud Compute regular, high
 * frequency and high performance share cores; Optimized Cloud Compute and Dedicated Cloud have
 * dedicated ones; Cloud GPU is not published as either), the CPU maker its id names (`-amd`,
 * `-intel`: both x86_64 makers, so the architecture follows) and the GPU memory the plan
 * records (`gpu_vram_gb`). Vultr publishes no CPU model or disk kind per plan: null.
 */
function vultrFacts(plan: VultrPlan, known: PlanClass): MachineFacts {
  const vendor = /-(amd|intel)(?:-|$)/.exec(plan.id)?.[1];
  const manufacturer = vendor === undefined ? null : vendor === 'amd' ? 'AMD' : 'Intel';
  const vram = plan.gpu_vram_gb ?? null;
  return {
    cpuArchitecture: manufacturer === null ? null : 'x86_64',
    cpuManufacturer: manufacturer,
    cpuModel: null,
    cpuAllocation: known.allocation,
    gpuMemoryGb: vram !== null && vram > 0 ? vram : null,
    storageType: null,
    coremark: null,
  };
}

/** "512 MB", "1 GB", "1.5 GB", "120 GB". */
function memoryText(ramMb: number): string {
  if (ramMb < 1024) return `${ramMb} MB`;
  return `${Math.round((ramMb / 1024) * 100) / 100} GB`;
}

/** e.g. "Cloud Compute Regular, 1 vCPU, 1 GB", "Cloud GPU, NVIDIA A100 4 GB VRAM, 1 vCPU, 6 GB". */
function displayName(plan: VultrPlan, label: string, gpu: VultrGpu): string {
  const vendor = /-(amd|intel)$/.exec(plan.id)?.[1];
  const parts = [vendor === undefined ? label : `${label} ${vendor === 'amd' ? 'AMD' : 'Intel'}`];
  if (gpu.type !== null) {
    const vram = plan.gpu_vram_gb ?? null;
    parts.push(vram === null ? gpu.type : `${gpu.type} ${vram} GB VRAM`);
  }
  parts.push(`${plan.vcpu_count} vCPU`, memoryText(plan.ram));
  const name = parts.join(', ');
  // `-v6` plans have no IPv4 address: worth saying in a name.
  return plan.id.endsWith('-v6') ? `${name} (IPv6 only)` : name;
}

export function classifyVultrPlan(plan: VultrPlan): VultrClassification {
  if (EXCLUDED_TYPES.has(plan.type)) return { kind: 'excluded' };
  const known = planClass(plan);
  const gpu = vultrGpu(plan);
  if (known === undefined || gpu === null) return { kind: 'invalid' };
  return {
    kind: 'listed',
    family: gpu.count > 0 ? 'gpu' : known.family,
    gpu,
    name: displayName(plan, known.label, gpu),
    facts: vultrFacts(plan, known),
  };
}

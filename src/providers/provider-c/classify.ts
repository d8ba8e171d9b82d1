// How an EC2 instance type becomes one of our instance families (D35) and which GPU it carries.
import type { InstanceFamily } from '../../catalog/model.js';

/**
 * EC2 `instanceFamily` attribute -> our family (D35). Anything with `gpu` > 0 is `gpu`.
 *
 * | instanceFamily                  | family  | why                                            |
 * |---------------------------------|---------|------------------------------------------------|
 * | General purpose                 | general | t*, m*, a1, mac                                |
 * | Micro instances                 | general | t1.micro                                       |
 * | Compute optimized               | compute | c*                                             |
 * | Memory optimized                | memory  | r*, x*, z1d, u-*                               |
 * | Storage optimized               | storage | i*, d*, h1, im4gn, is4gen                      |
 * | GPU instance                    | gpu     | g*, p* (must report `gpu` > 0)                 |
 * | Machine Learning ASIC Instances | -       | inf*, trn*: accelerators, but no GPU count     |
 * | FPGA Instances                  | -       | f1, f2: as above                               |
 * | Media Accelerator Instances     | -       | vt1: as above                                  |
 * | other                           | -       | unknown: the record is skipped and counted     |
 *
 * The three accelerator families are left out of the catalogue (not counted as skipped): as
 * `gpu` they would have gpu_count 0 and break `has_gpu`, and as anything else they would be
 * listed as plain servers at accelerator prices.
 */
const FAMILY: ReadonlyMap<string, InstanceFamily> = new Map([
  ['General purpose', 'general'],
  ['Micro instances', 'general'],
  ['Compute optimized', 'compute'],
  ['Memory optimized', 'memory'],
  ['Storage optimized', 'storage'],
  ['GPU instance', 'gpu'],
]);

const EXCLUDED_FAMILIES: ReadonlySet<string> = new Set([
  'Machine Learning ASIC Instances',
  'FPGA Instances',
  'Media Accelerator Instances',
]);

export type Ec2Classification =
  | { readonly kind: 'listed'; readonly family: InstanceFamily }
  | { readonly kind: 'excluded' }
  /** An unknown family, or a "GPU instance" without GPUs. */
  | { readonly kind: 'unknown' };

export function classifyInstanceFamily(
  instanceFamily: string | undefined,
  gpuCount: number,
): Ec2Classification {
  if (instanceFamily !== undefined && EXCLUDED_FAMILIES.has(instanceFamily)) {
    return { kind: 'excluded' };
  }
  const family = instanceFamily === undefined ? undefined : FAMILY.get(instanceFamily);
  if (family === undefined) return { kind: 'unknown' };
  if (family === 'gpu' && gpuCount === 0) return { kind: 'unknown' };
  return { kind: 'listed', family: gpuCount > 0 ? 'gpu' : family };
}

/**
 * GPU model per instance family, the part of the type before the dot ("g4dn" of "g4dn.xlarge").
 * The offer file has a GPU count and total GPU memory but no model name; AWS documents one model
 * per family. Families not listed get UNKNOWN_EC2_GPU (every current AWS GPU family but g4ad is
 * NVIDIA).
 */
export const EC2_GPU_MODELS: ReadonlyMap<string, string> = new Map([
  ['p2', 'NVIDIA K80'],
  ['p3', 'NVIDIA V100'],
  ['p3dn', 'NVIDIA V100'],
  ['p4d', 'NVIDIA A100'],
  ['p4de', 'NVIDIA A100'],
  ['p5', 'NVIDIA H100'],
  ['p5e', 'NVIDIA H200'],
  ['p5en', 'NVIDIA H200'],
  ['p6-b200', 'NVIDIA B200'],
  ['g3', 'NVIDIA M60'],
  ['g3s', 'NVIDIA M60'],
  ['g4dn', 'NVIDIA T4'],
  ['g4ad', 'AMD Radeon Pro V520'],
  ['g5', 'NVIDIA A10G'],
  ['g5g', 'NVIDIA T4G'],
  ['g6', 'NVIDIA L4'],
  ['gr6', 'NVIDIA L4'],
  ['g6f', 'NVIDIA L4'],
  ['g6e', 'NVIDIA L40S'],
]);

export const UNKNOWN_EC2_GPU = 'NVIDIA GPU';

/** `gpuType` for `instanceType` with `gpuCount` GPUs: null when it has none (spec 2.1). */
export function ec2GpuType(instanceType: string, gpuCount: number): string | null {
  if (gpuCount === 0) return null;
  const prefix = instanceType.split('.', 1)[0] ?? '';
  return EC2_GPU_MODELS.get(prefix) ?? UNKNOWN_EC2_GPU;
}

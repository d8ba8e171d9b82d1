import { MB_PER_VCPU, OS_OVERHEAD_MB, STACK_MEMORY } from './stacks.js';
import type { Scale, StackName } from './stacks.js';

export interface Requirements {
  /** Sum of the distinct stacks' memory at the scale, plus the OS overhead, MB (D26). */
  readonly minMemoryMb: number;
  /** max(1, ceil(minMemoryMb / 2048)) (D26). */
  readonly minVcpu: number;
  /**
   * One entry per distinct stack name, in the order first given, then `os_overhead`; values
   * formatted by formatMemory (D27). Insertion order is the wire order: no stack name is an
   * integer-like key, so JSON serialisation keeps it.
   */
  readonly breakdown: Readonly<Record<string, string>>;
}

/** One stack's memory at a scale, MB. `large` is 1.5 x recommended; every table value is even. */
export function stackMemoryMb(name: StackName, scale: Scale): number {
  const row = STACK_MEMORY[name];
  switch (scale) {
    case 'small':
      return row.minimumMb;
    case 'medium':
      return row.recommendedMb;
    case 'large':
      // Integer arithmetic: recommended values are multiples of 256, so this is exact.
      return (row.recommendedMb * 3) / 2;
  }
}

/**
 * Memory as the breakdown writes it (D27): below 1024 MB `"<n>MB"`; from 1024 MB the value in GB
 * (MB / 1024) as the shortest decimal that round-trips, e.g. "1GB", "1.5GB", "1.25GB".
 */
export function formatMemory(mb: number): string {
  return mb < 1024 ? `${mb}MB` : `${mb / 1024}GB`;
}

/** Requirements for a stack at a scale (D26, D27). Duplicate names count once. */
export function computeRequirements(stack: readonly StackName[], scale: Scale): Requirements {
  const breakdown: Record<string, string> = {};
  let total = OS_OVERHEAD_MB;
  for (const name of new Set(stack)) {
    const mb = stackMemoryMb(name, scale);
    total += mb;
    breakdown[name] = formatMemory(mb);
  }
  breakdown.os_overhead = formatMemory(OS_OVERHEAD_MB);
  return {
    minMemoryMb: total,
    minVcpu: Math.max(1, Math.ceil(total / MB_PER_VCPU)),
    breakdown: Object.freeze(breakdown),
  };
}

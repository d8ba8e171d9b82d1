// D62's filters `arch` and `cpu_allocation` of GET /instances and /instance-types: one value, or
// a comma-separated list of values (any of them), read by the one query-parameter reader.
import { CPU_ALLOCATIONS, CPU_ARCHITECTURES } from './machine-facts.js';
import { listOf } from './query-parameters.js';

/** Longest list text read: every value once, comma-joined, fits with room. */
const FACT_LIST_MAX_CHARS = 64;

/** In the vocabulary's order, so every spelling of one list is one query and one echo. */
export const ARCH_FILTER = listOf({
  allowed: CPU_ARCHITECTURES,
  items: 'CPU architectures',
  hint: 'x86_64, arm64, or a comma-separated list of them',
  maxChars: FACT_LIST_MAX_CHARS,
  order: 'allowed',
  loneItemAsEnum: true,
});

export const CPU_ALLOCATION_FILTER = listOf({
  allowed: CPU_ALLOCATIONS,
  items: 'CPU allocations',
  hint: 'dedicated, shared, burstable, or a comma-separated list of them',
  maxChars: FACT_LIST_MAX_CHARS,
  order: 'allowed',
  loneItemAsEnum: true,
});

// Random GET /instances query strings for property tests: every filter, sort and page parameter,
// each present or not, with values inside and at the edges of what the catalogue holds.
import fc from 'fast-check';
import { SORT_FIELDS } from '../../src/catalog/instance-query.js';
import { INSTANCE_FAMILIES, PROVIDER_NAMES, REGION_CODES } from '../../src/catalog/model.js';

/** Each query parameter's values (a query takes any subset: `fc.record(…, { requiredKeys: [] })`). */
export const INSTANCE_QUERY_FIELDS = {
  provider: fc.constantFrom(...PROVIDER_NAMES),
  region: fc.constantFrom(...REGION_CODES),
  min_vcpu: fc.integer({ min: 0, max: 40 }).map(String),
  max_vcpu: fc.integer({ min: 1, max: 80 }).map(String),
  min_memory_gb: fc.double({ min: 0, max: 64, noNaN: true }).map((x) => x.toFixed(3)),
  max_memory_gb: fc.double({ min: 0.5, max: 600, noNaN: true }).map((x) => x.toFixed(2)),
  max_price: fc.double({ min: 0, max: 3_000, noNaN: true }).map((x) => x.toFixed(4)),
  instance_family: fc.constantFrom(...INSTANCE_FAMILIES),
  has_gpu: fc.constantFrom('true', 'false'),
  arch: fc.constantFrom('x86_64', 'arm64', 'arm64,x86_64'),
  cpu_allocation: fc.constantFrom('dedicated', 'shared', 'burstable', 'shared,burstable'),
  sort_by: fc.constantFrom(...SORT_FIELDS),
  order: fc.constantFrom('asc', 'desc'),
  limit: fc.integer({ min: 1, max: 100 }).map(String),
  offset: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 1_200 })).map(String),
};

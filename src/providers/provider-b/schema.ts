// Schemas for the Vultr API v2 documents provider_b reads (upstream-formats.md section 2).
// Only fields we read are described and extra fields are allowed. Optional fields also accept
// null, which we treat as absent (live responses are not recorded anywhere we could check).
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { LIMITS, priceSchema, UpstreamId } from '../upstream-values.js';

/** `meta` of a cursor-paginated collection: `links.next` is "" on the last page (section 2.1). */
const VultrMetaSchema = Type.Object({
  total: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  links: Type.Object({
    next: Type.String({ maxLength: 1024, pattern: '^[\\x21-\\x7e]*$' }),
    prev: Type.Optional(Type.String({ maxLength: 1024 })),
  }),
});

const VultrPlansPageSchema = Type.Object({
  plans: Type.Array(Type.Unknown()),
  meta: VultrMetaSchema,
});
export const checkVultrPlansPage = Compile(VultrPlansPageSchema);

const VultrRegionsPageSchema = Type.Object({
  regions: Type.Array(Type.Unknown()),
  meta: VultrMetaSchema,
});
export const checkVultrRegionsPage = Compile(VultrRegionsPageSchema);

function nullable<T extends Parameters<typeof Type.Optional>[0]>(schema: T) {
  return Type.Optional(Type.Union([schema, Type.Null()]));
}

/** `location_cost[region]`: a location's own prices (preemptible prices are not read). */
const LocationCostSchema = Type.Object({
  hourly_cost: nullable(priceSchema(LIMITS.maxHourlyUsd)),
  monthly_cost: nullable(priceSchema(LIMITS.maxMonthlyUsd)),
});

/** Element of `/plans` `plans` (section 2.2): ram MB, disk GB per disk, bandwidth GB a month. */
const VultrPlanSchema = Type.Object({
  id: UpstreamId,
  type: Type.String({ minLength: 1, maxLength: 32 }),
  vcpu_count: Type.Integer({ minimum: 1, maximum: LIMITS.maxVcpu }),
  ram: Type.Integer({ minimum: 1, maximum: LIMITS.maxMemoryMb }),
  disk: Type.Integer({ minimum: 0, maximum: LIMITS.maxDiskGb }),
  disk_count: nullable(Type.Integer({ minimum: 0, maximum: LIMITS.maxDiskCount })),
  bandwidth: Type.Integer({ minimum: 0, maximum: LIMITS.maxTransferGb }),
  monthly_cost: priceSchema(LIMITS.maxMonthlyUsd),
  hourly_cost: nullable(priceSchema(LIMITS.maxHourlyUsd)),
  locations: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000 }),
  location_cost: nullable(Type.Record(Type.String({ maxLength: 64 }), LocationCostSchema)),
  deploy_ondemand: nullable(Type.Boolean()),
  gpu_type: nullable(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_ .-]*$' })),
  gpu_count: nullable(Type.Integer({ minimum: 0, maximum: LIMITS.maxGpuCount })),
  gpu_vram_gb: nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export type VultrPlan = Static<typeof VultrPlanSchema>;
export const checkVultrPlan = Compile(VultrPlanSchema);

/** Element of `/regions` `regions` (section 2.4); only the id is read. */
const VultrRegionSchema = Type.Object({ id: UpstreamId });
export type VultrRegion = Static<typeof VultrRegionSchema>;
export const checkVultrRegion = Compile(VultrRegionSchema);

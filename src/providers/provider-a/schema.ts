// Schemas for the Linode API v4 documents provider_a reads (upstream-formats.md section 1).
// Fields we do not read (addons, successor, resolvers, ...) are not described, and extra fields
// are allowed, so the upstream can add fields without breaking a sync.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { LIMITS, priceSchema, UpstreamId, UpstreamLabel } from '../upstream-values.js';

/** Collection envelope: `{"data":[...],"page":1,"pages":1,"results":37}` (section 1.1). */
const LinodePageSchema = Type.Object({
  data: Type.Array(Type.Unknown()),
  page: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  pages: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  results: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
});
export type LinodePage = Static<typeof LinodePageSchema>;
export const checkLinodePage = Compile(LinodePageSchema);

/** A per-region override; the Manager's types allow null prices, so null passes here. */
const RegionPriceSchema = Type.Object({
  id: Type.String({ maxLength: 64 }),
  hourly: Type.Union([Type.Number(), Type.Null()]),
  monthly: Type.Union([Type.Number(), Type.Null()]),
});

/** Element of `/linode/types` `data` (section 1.2): memory and disk in MB, transfer GB, network Mbps. */
const LinodeTypeSchema = Type.Object({
  id: UpstreamId,
  label: UpstreamLabel,
  class: Type.String({ minLength: 1, maxLength: 32 }),
  vcpus: Type.Integer({ minimum: 1, maximum: LIMITS.maxVcpu }),
  memory: Type.Integer({ minimum: 1, maximum: LIMITS.maxMemoryMb }),
  disk: Type.Integer({ minimum: 0, maximum: LIMITS.maxDiskMb }),
  transfer: Type.Integer({ minimum: 0, maximum: LIMITS.maxTransferGb }),
  // Absent in recordings that did not keep it (the bundled 2024 one): listed as 0, which our API
  // documents as "not published", never guessed.
  network_out: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.maxNetworkMbps })),
  gpus: Type.Integer({ minimum: 0, maximum: LIMITS.maxGpuCount }),
  // A type without a base price cannot be listed: a null price fails here and skips the record.
  price: Type.Object({
    hourly: priceSchema(LIMITS.maxHourlyUsd),
    monthly: priceSchema(LIMITS.maxMonthlyUsd),
  }),
  region_prices: Type.Optional(Type.Array(RegionPriceSchema, { maxItems: 1000 })),
});
export type LinodeType = Static<typeof LinodeTypeSchema>;
export const checkLinodeType = Compile(LinodeTypeSchema);

/** Element of `/regions` `data` (section 1.5). `status` is read but not acted on (see parse.ts). */
const LinodeRegionSchema = Type.Object({
  id: UpstreamId,
  capabilities: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 256 }),
  status: Type.Optional(Type.String({ maxLength: 32 })),
});
export type LinodeRegion = Static<typeof LinodeRegionSchema>;
export const checkLinodeRegion = Compile(LinodeRegionSchema);

// provider_d's snapshot documents (the layout of data/snapshots/provider_d/, docs/api.md "Google
// Cloud"): Google publishes no keyless price file, so the bundled snapshot, or an HTTP(S) mirror
// of it, is the upstream. Prices are decimal text as recorded (no float ever touches them).
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { LIMITS, UpstreamId, UpstreamLabel } from '../upstream-values.js';

/** A price as recorded: plain decimal text, up to 18 decimals (micro-dollars are kept). */
const Price = Type.String({ pattern: '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,18})?$' });
const Label = Type.Union([UpstreamLabel, Type.Null()]);

/** One machine type as Google's API and the machine-type recordings state it. */
const MachineType = Type.Object({
  id: UpstreamId,
  /** vCPUs as Google's API counts them (e2-medium: 2, though 1 is billed). */
  vcpu: Type.Integer({ minimum: 1, maximum: LIMITS.maxVcpu }),
  /** GiB, as decimal text ("0.6", "3.75"). */
  memory_gib: Type.String({ pattern: '^(0|[1-9][0-9]{0,5})(\\.[0-9]{1,4})?$' }),
  gpu_count: Type.Integer({ minimum: 0, maximum: LIMITS.maxGpuCount }),
  gpu_model: Label,
  /** Bundled Local SSD, GB (0: none). */
  local_ssd_gb: Type.Integer({ minimum: 0, maximum: LIMITS.maxDiskGb }),
  /** Default egress bandwidth, Gbps; null where not recorded. */
  egress_gbps: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }), Type.Null()]),
  cpu_architecture: Type.Union([Type.Literal('x86_64'), Type.Literal('arm64'), Type.Null()]),
  /** The series' CPU platforms as recorded ("Cascade Lake, Ice Lake": one of them). */
  cpu_platform: Label,
  /** Google's shared-core flag (SHARED_CPU); null where not recorded. */
  shared_core: Type.Union([Type.Boolean(), Type.Null()]),
  /** Google's published CoreMark score (iterations/s, all vCPUs); null where not recorded. */
  coremark: Type.Union([Type.Integer({ minimum: 1, maximum: 1e9 }), Type.Null()]),
});
export type GceMachineType = Static<typeof MachineType> & { readonly id: string };

/** One priced machine type in one region. */
const RegionPrice = Type.Object({
  id: UpstreamId,
  /** Whether Google's API offers the type in the region (priced is not the same as offered). */
  offered: Type.Boolean(),
  /** On-demand USD per hour. */
  hour: Price,
  /**
   * The purchase options (D61), USD per hour: Spot VMs, and resource-based committed use for 1
   * and 3 years (pricing.yml month_1y/month_3y / 730). null or absent: not sold so. Checked one
   * by one (checkOptionPrice), so a bad option price costs that option, never the row.
   */
  hour_spot: Type.Optional(Type.Unknown()),
  cud_1y_hour: Type.Optional(Type.Unknown()),
  cud_3y_hour: Type.Optional(Type.Unknown()),
});
export type GceRegionPrice = Static<typeof RegionPrice>;

const Region = Type.Object({
  id: UpstreamId,
  prices: Type.Array(Type.Unknown(), { maxItems: 5_000 }),
});

export const checkMachineTypesDocument = Compile(
  Type.Object({ machine_types: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 10_000 }) }),
);
export const checkPricesDocument = Compile(
  Type.Object({ regions: Type.Array(Region, { maxItems: 200 }) }),
);
export const checkMachineType = Compile(MachineType);
export const checkRegionPrice = Compile(RegionPrice);
export const checkOptionPrice = Compile(Price);

// Shared limits and conversions for upstream catalogue records. Upstream data is untrusted: every
// adapter validates records against these bounds and skips (and counts) a record outside them,
// so one absurd value can neither reach the catalogue nor lose precision on its way to storage.
import { Type } from 'typebox';
import { decimalToMicros, MICROS_PER_DOLLAR } from '../catalog/money.js';
import type { InstanceOffer, SkipCounts, SkipReason, UnreadableEntry } from '../catalog/offers.js';
import type { RegionMapping } from './region-map.js';

/** Longest instance-type or region id we accept; real ids are under 40 characters. */
export const MAX_ID_LENGTH = 64;
/** Longest display label we accept; real labels are under 40 characters. */
export const MAX_LABEL_LENGTH = 128;

/**
 * An upstream id: starts with a letter or digit, then letters, digits, `.`, `_` or `-`. This keeps
 * `__proto__`, `constructor`-style surprises, whitespace and control characters out of our ids.
 */
export const UpstreamId = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
});

/** A display label: printable text without control characters, bounded in length. */
export const UpstreamLabel = Type.String({
  minLength: 1,
  maxLength: MAX_LABEL_LENGTH,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
});

/** `gpu_type` of an instance that has GPUs whose model the upstream does not tell. */
export const UNKNOWN_GPU_TYPE = 'Unknown GPU';

/** Bounds for resource figures, generous enough for any real plan (they reject absurd values). */
export const LIMITS = {
  maxVcpu: 1024,
  /** 64 TiB in MB (AWS u-24tb1.112xlarge has 24 TiB). */
  maxMemoryMb: 64 * 1024 * 1024,
  /** 10 PB in MB (Linode reports disk in MB). */
  maxDiskMb: 10_000_000_000,
  /** 10 PB in GB (Vultr reports disk in GB per disk). */
  maxDiskGb: 10_000_000,
  maxDiskCount: 64,
  /** 10 EB a month in GB. */
  maxTransferGb: 10_000_000,
  /** 1 Pbps in Mbps. */
  maxNetworkMbps: 1_000_000_000,
  maxGpuCount: 64,
  /**
   * Price ceilings in USD. They also keep integer micro-dollars far below 2^53, so micros stay
   * exact integers (a twelve-digit dollar amount would not).
   */
  maxHourlyUsd: 10_000,
  maxMonthlyUsd: 10_000_000,
} as const;

/** A price as the upstream sends it: a finite JSON number, > 0 and below the ceiling. */
export function priceSchema(maxUsd: number) {
  return Type.Number({ exclusiveMinimum: 0, maximum: maxUsd });
}

/**
 * Upstream price (a JSON number in USD) to integer micro-dollars, through its decimal text so no
 * float arithmetic touches it (D36). Null when it is not a positive price within `maxUsd`, or
 * rounds to zero micros (a price below half a micro-dollar is not a price).
 */
export function priceToMicros(value: number, maxUsd: number): number | null {
  if (!Number.isFinite(value) || value <= 0 || value > maxUsd) return null;
  const micros = decimalToMicros(value);
  if (micros === null || micros <= 0 || micros > maxUsd * MICROS_PER_DOLLAR) return null;
  return micros;
}

/**
 * Integer division rounded half up, for non-negative safe integers (monthly micros / 730 hours):
 * exact integer arithmetic, no float rounding of the quotient.
 */
export function divideRoundHalfUp(dividend: number, divisor: number): number {
  let quotient = Math.floor(dividend / divisor);
  // The float quotient can only be off by one near 2^53; correct it with exact integer steps.
  if (quotient * divisor > dividend) quotient -= 1;
  else if ((quotient + 1) * divisor <= dividend) quotient += 1;
  const remainder = dividend - quotient * divisor;
  return remainder * 2 >= divisor ? quotient + 1 : quotient;
}

/**
 * A size in upstream units to our units, rounded to `decimals` places (transfer TB and network
 * Gbps are presentation figures, not money, so a float is fine here).
 */
export function scaleTo(value: number, divisor: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value / divisor) * factor) / factor;
}

/** Own-property lookup on an upstream object, so a key such as `constructor` never reaches the prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Validated records by id, in upstream order; the first record with an id wins. Records that
 * fail `check` are counted as `invalid`, with the id they claim when it is a string
 * (`invalidIds`), and later duplicates (which would list one instance type twice) as
 * `duplicates`.
 */
export function validRecords<T extends { readonly id: string }>(
  records: readonly unknown[],
  check: (value: unknown) => value is T,
): {
  readonly byId: Map<string, T>;
  readonly invalid: number;
  readonly invalidIds: ReadonlySet<string>;
  readonly duplicates: number;
} {
  const byId = new Map<string, T>();
  const invalidIds = new Set<string>();
  let invalid = 0;
  let duplicates = 0;
  for (const record of records) {
    if (!check(record)) {
      invalid += 1;
      const id = claimedId(record);
      if (id !== undefined) invalidIds.add(id);
    } else if (byId.has(record.id)) duplicates += 1;
    else byId.set(record.id, record);
  }
  return { byId, invalid, invalidIds, duplicates };
}

/** The `id` an unvalidated record claims, when it is a string. */
function claimedId(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || !Object.hasOwn(record, 'id')) {
    return undefined;
  }
  const id: unknown = (record as { id: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The unreadable entries of a catalogue whose records name every region by id only: each id in
 * `ids` not listed by a valid record (the first of two records with one id lists it).
 */
export function unreadableEntries(
  ids: ReadonlySet<string>,
  offers: readonly InstanceOffer[],
): UnreadableEntry[] {
  const listed = new Set(offers.map((offer) => offer.instanceId));
  return [...ids].filter((id) => !listed.has(id)).map((instanceId) => ({ instanceId }));
}

/** Skipped records counted by reason (offer.ts SkipReason). */
export class SkipTally {
  readonly #counts: SkipCounts = {};

  add(reason: SkipReason, count = 1): void {
    if (count > 0) this.#counts[reason] = (this.#counts[reason] ?? 0) + count;
  }

  get total(): number {
    return Object.values(this.#counts).reduce((sum, n) => sum + n, 0);
  }

  get counts(): SkipCounts {
    return { ...this.#counts };
  }
}

/**
 * For providers whose upstream lists its regions: our regions absent from the valid region records that the upstream
 * says are gone. Absence is explicit only when every region record was read (none failed its
 * schema, or the failed ones name other regions) and no type names the region; otherwise the
 * region is unknown this time and its records are kept (catalog-apply.ts).
 */
export function goneRegions(
  regionMap: readonly RegionMapping[],
  regions: {
    readonly byId: ReadonlyMap<string, unknown>;
    readonly invalid: number;
    readonly invalidIds: ReadonlySet<string>;
  },
  namedByTypes: ReadonlySet<string>,
): string[] {
  const unidentified = regions.invalid > regions.invalidIds.size;
  return regionMap
    .filter(
      (m) =>
        !regions.byId.has(m.upstreamId) &&
        !unidentified &&
        !regions.invalidIds.has(m.upstreamId) &&
        !namedByTypes.has(m.upstreamId),
    )
    .map((m) => m.regionCode);
}

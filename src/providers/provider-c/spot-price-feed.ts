// AWS's public spot price feed (`PROVIDER_C_SPOT_URL`, e.g.
// https://website.spot.ec2.aws.a2z.com/spot.json; layout in docs/purchase-options.md):
//   { vers, config: { rate: "perhr", valueColumns, currencies: ["USD"], regions: [
//     { region, instanceTypes: [ { type, sizes: [ { size: "m5.large", valueColumns: [
//       { name: "linux", prices: { USD: "0.0123" } } ] } ] } ] } ] } }
// One Linux price per region and type (not per zone); "N/A*" where there is none. Pure parse:
// each region of ours stands alone, so a region that is missing or malformed fails by itself.
import { decimalToMicros, MICROS_PER_DOLLAR } from '../../catalog/money.js';
import { everyRegionFailed, type RegionFeedOutcome } from '../../catalog/option-feeds.js';
import type { RegionMapping } from '../region-map.js';
import { LIMITS } from '../upstream-values.js';
import { INSTANCE_TYPE, isJsonObject, own, type JsonObject } from './json-reading.js';

/**
 * Legacy region names the feed has used for some regions, and the region codes they mean
 * (upstream-formats.md: "map them explicitly"). A feed naming one region both ways is ambiguous
 * for that region, which then fails.
 */
export const SPOT_FEED_REGION_ALIASES: Readonly<Record<string, string>> = {
  'us-east': 'us-east-1',
  'us-west': 'us-west-1',
  'eu-ireland': 'eu-west-1',
  'eu-frankfurt': 'eu-central-1',
  'apac-sin': 'ap-southeast-1',
  'apac-syd': 'ap-southeast-2',
  'apac-tokyo': 'ap-northeast-1',
};

/** The value column we read: Linux (the same slice as the on-demand filter). */
const LINUX = 'linux';
/** "N/A", "N/A*": the type has no spot price there (not an error). */
const NOT_AVAILABLE = /^N\/A\*?$/;

/** The region code a feed region name means: its alias target, or itself. */
function canonicalRegion(name: string): string {
  return Object.hasOwn(SPOT_FEED_REGION_ALIASES, name)
    ? (SPOT_FEED_REGION_ALIASES[name] ?? name)
    : name;
}

type SizeVerdict =
  { kind: 'price'; type: string; micros: number } | { kind: 'none' } | { kind: 'bad' };

/** One `sizes[]` element: its Linux USD price, none ("N/A*", no Linux column), or unusable. */
function readSize(size: unknown): SizeVerdict {
  if (!isJsonObject(size)) return { kind: 'bad' };
  const type = own(size, 'size');
  const columns = own(size, 'valueColumns');
  if (typeof type !== 'string' || !INSTANCE_TYPE.test(type) || !Array.isArray(columns)) {
    return { kind: 'bad' };
  }
  const linux = (columns as readonly unknown[]).filter(
    (c): c is JsonObject => isJsonObject(c) && own(c, 'name') === LINUX,
  );
  if (linux.length === 0) return { kind: 'none' };
  const [column] = linux;
  if (linux.length > 1 || column === undefined) return { kind: 'bad' };
  const prices = own(column, 'prices');
  if (!isJsonObject(prices)) return { kind: 'bad' };
  const usd = own(prices, 'USD');
  if (typeof usd !== 'string') return { kind: 'bad' };
  if (NOT_AVAILABLE.test(usd.trim())) return { kind: 'none' };
  const micros = decimalToMicros(usd);
  if (micros === null || micros <= 0 || micros > LIMITS.maxHourlyUsd * MICROS_PER_DOLLAR) {
    return { kind: 'bad' };
  }
  return { kind: 'price', type, micros };
}

/** One feed region's Linux prices by type, or why the region is unusable. */
function readRegion(regionCode: string, entry: JsonObject): RegionFeedOutcome<number> {
  const groups = own(entry, 'instanceTypes');
  if (!Array.isArray(groups)) {
    return failed(regionCode, 'its "instanceTypes" is not an array');
  }
  const byType = new Map<string, number>();
  const twice = new Set<string>();
  let skipped = 0;
  for (const group of groups) {
    const sizes = isJsonObject(group) ? own(group, 'sizes') : undefined;
    if (!Array.isArray(sizes)) {
      skipped += 1;
      continue;
    }
    for (const size of sizes) {
      const verdict = readSize(size);
      if (verdict.kind === 'bad') skipped += 1;
      if (verdict.kind !== 'price') continue;
      if (byType.has(verdict.type) || twice.has(verdict.type)) twice.add(verdict.type);
      else byType.set(verdict.type, verdict.micros);
    }
  }
  // A type priced twice in one region: which price is right cannot be known.
  for (const type of twice) {
    byType.delete(type);
    skipped += 1;
  }
  if (byType.size === 0) return failed(regionCode, 'no usable Linux spot price');
  return { regionCode, ok: true, byType, skipped };
}

function failed(regionCode: string, why: string): RegionFeedOutcome<number> {
  return {
    regionCode,
    ok: false,
    code: 'UPSTREAM_INVALID_DATA',
    message: `spot price feed, region ${regionCode}: ${why}`,
  };
}

/**
 * The spot prices (hourly micro-dollars by instance type) of each region of `regions`, read
 * from the feed document `doc`. A document without `config.regions`, or not priced per hour
 * in USD, fails every region; a region missing from the feed, named twice, or without one
 * usable price fails alone; an unusable entry is skipped and counted.
 */
export function parseSpotPriceFeed(
  doc: unknown,
  regions: readonly RegionMapping[],
): RegionFeedOutcome<number>[] {
  const codes = regions.map((r) => r.regionCode);
  const config = isJsonObject(doc) ? own(doc, 'config') : undefined;
  const list = isJsonObject(config) ? own(config, 'regions') : undefined;
  if (!isJsonObject(config) || !Array.isArray(list)) {
    return everyRegionFailed(
      codes,
      'UPSTREAM_INVALID_DATA',
      'spot price feed: no config.regions array',
    );
  }
  const rate = own(config, 'rate');
  const currencies = own(config, 'currencies');
  if (
    (rate !== undefined && rate !== 'perhr') ||
    (currencies !== undefined && !(Array.isArray(currencies) && currencies.includes('USD')))
  ) {
    return everyRegionFailed(
      codes,
      'UPSTREAM_INVALID_DATA',
      'spot price feed: not priced per hour in USD',
    );
  }
  const entries = new Map<string, JsonObject[]>();
  for (const entry of list) {
    const name = isJsonObject(entry) ? own(entry, 'region') : undefined;
    if (!isJsonObject(entry) || typeof name !== 'string') continue;
    const code = canonicalRegion(name);
    entries.set(code, [...(entries.get(code) ?? []), entry]);
  }
  return regions.map(({ regionCode, upstreamId }) => {
    const found = entries.get(upstreamId) ?? [];
    if (found.length === 0) return failed(regionCode, `"${upstreamId}" is not in the feed`);
    const [only] = found;
    if (found.length > 1 || only === undefined) {
      return failed(regionCode, `"${upstreamId}" is in the feed ${found.length} times`);
    }
    return readRegion(regionCode, only);
  });
}

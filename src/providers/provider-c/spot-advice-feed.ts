// AWS Spot Instance Advisor feed (`PROVIDER_C_SPOT_ADVICE_URL`, e.g.
// https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json; layout in
// docs/purchase-options.md):
//   { global_rate, instance_types: { <type>: { emr, cores, ram_gb } },
//     ranges: [ { index: 0..4, label: "<5%"|"5-10%"|"10-15%"|"15-20%"|">20%", dots, max } ],
//     spot_advisor: { <region>: { Linux: { <type>: { s: <savings %>, r: <range index> } },
//                                 Windows: { ... } } } }
// The feed carries no timestamp. Pure parse: each region of ours stands alone.
import { everyRegionFailed, type RegionFeedOutcome } from '../../catalog/option-feeds.js';
import {
  isSpotInterruptionBand,
  type SpotInterruptionBand,
} from '../../catalog/purchase-options.js';
import type { RegionMapping } from '../region-map.js';
import { INSTANCE_TYPE, isJsonObject, own } from './json-reading.js';

/** AWS's figures for one type in one region, as published. */
export interface SpotAdviceFigures {
  readonly interruptionBand: SpotInterruptionBand;
  /** Whole percent saved against on-demand, 0-100. */
  readonly savingsPct: number;
}

const LINUX = 'Linux';

/**
 * `ranges` as index -> band label, or null when it is not a list of distinct indexes each with
 * one of AWS's labels: without it no `r` can be read, so the whole feed is unusable.
 */
function readRanges(ranges: unknown): Map<number, SpotInterruptionBand> | null {
  if (!Array.isArray(ranges) || ranges.length === 0) return null;
  const bands = new Map<number, SpotInterruptionBand>();
  const labels = new Set<string>();
  for (const range of ranges) {
    if (!isJsonObject(range)) return null;
    const index = own(range, 'index');
    const label = own(range, 'label');
    if (!Number.isSafeInteger(index) || typeof index !== 'number' || index < 0) return null;
    if (!isSpotInterruptionBand(label) || bands.has(index) || labels.has(label)) return null;
    bands.set(index, label);
    labels.add(label);
  }
  return bands;
}

function failed(regionCode: string, why: string): RegionFeedOutcome<SpotAdviceFigures> {
  return {
    regionCode,
    ok: false,
    code: 'UPSTREAM_INVALID_DATA',
    message: `spot advice feed, region ${regionCode}: ${why}`,
  };
}

function readRegion(
  regionCode: string,
  entry: unknown,
  bands: ReadonlyMap<number, SpotInterruptionBand>,
): RegionFeedOutcome<SpotAdviceFigures> {
  const linux = isJsonObject(entry) ? own(entry, LINUX) : undefined;
  if (!isJsonObject(linux)) return failed(regionCode, 'no "Linux" object');
  const byType = new Map<string, SpotAdviceFigures>();
  let skipped = 0;
  for (const [type, figures] of Object.entries(linux)) {
    const s = isJsonObject(figures) ? own(figures, 's') : undefined;
    const r = isJsonObject(figures) ? own(figures, 'r') : undefined;
    const band = typeof r === 'number' ? bands.get(r) : undefined;
    if (
      !INSTANCE_TYPE.test(type) ||
      typeof s !== 'number' ||
      !Number.isInteger(s) ||
      s < 0 ||
      s > 100 ||
      band === undefined
    ) {
      skipped += 1;
      continue;
    }
    byType.set(type, { interruptionBand: band, savingsPct: s });
  }
  if (byType.size === 0) return failed(regionCode, 'no usable Linux advice');
  return { regionCode, ok: true, byType, skipped };
}

/**
 * AWS's spot advice for each region of `regions`, read from the feed document `doc`. A document
 * without usable `ranges` or a `spot_advisor` object fails every region; a region missing or
 * malformed fails alone; an unusable entry is skipped and counted.
 */
export function parseSpotAdviceFeed(
  doc: unknown,
  regions: readonly RegionMapping[],
): RegionFeedOutcome<SpotAdviceFigures>[] {
  const codes = regions.map((r) => r.regionCode);
  const advisor = isJsonObject(doc) ? own(doc, 'spot_advisor') : undefined;
  const bands = isJsonObject(doc) ? readRanges(own(doc, 'ranges')) : null;
  if (!isJsonObject(advisor) || bands === null) {
    return everyRegionFailed(
      codes,
      'UPSTREAM_INVALID_DATA',
      'spot advice feed: no "spot_advisor" object or no usable "ranges"',
    );
  }
  return regions.map(({ regionCode, upstreamId }) =>
    Object.hasOwn(advisor, upstreamId)
      ? readRegion(regionCode, advisor[upstreamId], bands)
      : failed(regionCode, `"${upstreamId}" is not in the feed`),
  );
}

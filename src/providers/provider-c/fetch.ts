// provider_c I/O, part 1: the AWS Price List Bulk URL chain (upstream-formats.md §3.1), from the
// offer index to one region file path per region of ours. The two index documents are small and
// read whole; the region files are streamed (region-file-worker.ts).
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { RegionMapping } from '../region-map.js';

/** The offer index, relative to the base URL (`https://pricing.us-east-1.amazonaws.com`). */
export const OFFER_INDEX_PATH = '/offers/v1.0/aws/index.json';
export const EC2_OFFER_CODE = 'AmazonEC2';

/** One region file to read: our region code, the upstream's, and the path of its offer file. */
export interface RegionFileRef {
  readonly regionCode: string;
  readonly upstreamId: string;
  readonly path: string;
}

const OfferIndex = Compile(
  Type.Object({
    offers: Type.Object({
      [EC2_OFFER_CODE]: Type.Object({ currentRegionIndexUrl: Type.String() }),
    }),
  }),
);

// Only our own regions' entries are checked: a malformed entry for a region we do not read is
// none of our business.
const RegionIndex = Compile(Type.Object({ regions: Type.Record(Type.String(), Type.Unknown()) }));
const RegionEntry = Compile(
  Type.Object({ currentVersionUrl: Type.String(), regionCode: Type.Optional(Type.String()) }),
);

function invalid(message: string): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', `provider_c ${message}`);
}

/**
 * A URL from an index document as a path for the client, which reads it relative to the
 * configured base (so a `file://` snapshot directory holding `offers/v1.0/aws/...` works).
 * The indexes give absolute paths (`/offers/v1.0/aws/AmazonEC2/current/region_index.json`); an
 * absolute http(s) URL is reduced to its path, so we always read from the configured base and
 * never from a host an index names. Anything else is UPSTREAM_INVALID_DATA.
 */
export function toUpstreamPath(url: string, what: string): string {
  let path = url;
  if (/^https?:\/\//i.test(url)) {
    try {
      path = new URL(url).pathname;
    } catch {
      throw invalid(`${what}: "${url.slice(0, 200)}" is not a URL`);
    }
  }
  const safe =
    path.length <= 1024 &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    /^[A-Za-z0-9._~/-]+$/.test(path) &&
    !path.split('/').some((segment) => segment === '.' || segment === '..');
  if (!safe) throw invalid(`${what}: "${url.slice(0, 200)}" is not a usable path`);
  return path;
}

/**
 * Walks offer index -> region index and returns one region file per region of ours that the
 * region index lists. A region it does not list is not synced (not an error); none at all is
 * UPSTREAM_INVALID_DATA, and so is either document in the wrong shape.
 */
export async function fetchRegionFileRefs(
  client: UpstreamClient,
  regionMap: readonly RegionMapping[],
  signal: AbortSignal,
): Promise<RegionFileRef[]> {
  const offerIndex = await client.getJson(OFFER_INDEX_PATH, signal);
  if (!OfferIndex.Check(offerIndex)) {
    throw invalid(`${OFFER_INDEX_PATH}: not an offer index with offers.${EC2_OFFER_CODE}`);
  }
  const regionIndexPath = toUpstreamPath(
    offerIndex.offers[EC2_OFFER_CODE].currentRegionIndexUrl,
    `${OFFER_INDEX_PATH} currentRegionIndexUrl`,
  );
  const regionIndex = await client.getJson(regionIndexPath, signal);
  if (!RegionIndex.Check(regionIndex)) {
    throw invalid(`${regionIndexPath}: not a region index (no "regions" object)`);
  }
  const refs: RegionFileRef[] = [];
  for (const { regionCode, upstreamId } of regionMap) {
    if (!Object.hasOwn(regionIndex.regions, upstreamId)) continue;
    const entry = regionIndex.regions[upstreamId];
    const what = `${regionIndexPath} regions["${upstreamId}"]`;
    if (!RegionEntry.Check(entry)) throw invalid(`${what}: no currentVersionUrl`);
    if (entry.regionCode !== undefined && entry.regionCode !== upstreamId) {
      throw invalid(`${what}: regionCode is "${entry.regionCode.slice(0, 64)}"`);
    }
    const path = toUpstreamPath(entry.currentVersionUrl, `${what}.currentVersionUrl`);
    // The CSV form of the same file (`index.csv`) is not something we can read.
    if (!path.endsWith('.json')) throw invalid(`${what}: "${path}" is not a JSON offer file`);
    refs.push({ regionCode, upstreamId, path });
  }
  if (refs.length === 0) {
    const wanted = regionMap.map((r) => r.upstreamId).join(', ');
    throw invalid(`${regionIndexPath}: none of our regions (${wanted}) is listed`);
  }
  return refs;
}

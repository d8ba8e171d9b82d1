// provider_a: Linode API v4 documents -> our catalogue (pure: no I/O, no clock).
//
// Units (upstream-formats.md 1.2): memory MB as is; storage GB = disk MB / 1024, rounded;
// transfer TB = transfer GB / 1000 (decimal, as Cloud Manager shows it), 3 decimals; network Gbps
// = network_out Mbps / 1000, 3 decimals (0, noted "not_recorded", when a document lacks it). Prices: the `region_prices` entry whose id is the
// region's upstream id when there is one, else the base `price`; hourly and monthly both come
// from the upstream (monthly is Linode's monthly cap, not hourly x 730), as integer micros.
//
// Availability: a type is offered in each of our regions whose upstream region appears in
// `/regions` with the capabilities `requiredCapabilities` names. A region's `status` (`ok` or
// `outage`) is ignored: an outage is transient and does not change what is sold, and dropping
// every instance of a region for the length of an outage would flap the catalogue.
import type { InstanceOffer, ProviderCatalog } from '../../catalog/offers.js';
import { roundMicrosToCent } from '../../catalog/money.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { RegionMapping } from '../region-map.js';
import {
  goneRegions,
  LIMITS,
  priceToMicros,
  scaleTo,
  SkipTally,
  unreadableEntries,
  validRecords,
} from '../upstream-values.js';
import {
  classifyLinodeType,
  linodeGpuType,
  linodeMachineFacts,
  requiredCapabilities,
} from './classify.js';
import {
  checkLinodePage,
  checkLinodeRegion,
  checkLinodeType,
  type LinodePage,
  type LinodeRegion,
  type LinodeType,
} from './schema.js';

/** Every page of the two collections, as fetched (each a `{data,page,pages,results}` envelope). */
export interface ProviderADocuments {
  readonly regionPages: readonly unknown[];
  readonly typePages: readonly unknown[];
}

/** Validates one collection page's envelope; the wrong shape is UPSTREAM_INVALID_DATA. */
export function readLinodePage(document: unknown, what: string): LinodePage {
  if (!checkLinodePage.Check(document)) {
    throw new UpstreamError(
      'UPSTREAM_INVALID_DATA',
      `${what}: expected a Linode collection page {data, page, pages, results}`,
    );
  }
  return document;
}

function collect(pages: readonly unknown[], what: string): unknown[] {
  const records = pages.flatMap((page) => readLinodePage(page, what).data);
  if (records.length === 0) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', `${what}: the collection is empty`);
  }
  return records;
}

/** Hourly and monthly micros for one upstream region, or null when that price is unusable. */
function priceIn(type: LinodeType, upstreamRegionId: string): [number, number] | null {
  const override = (type.region_prices ?? []).find((entry) => entry.id === upstreamRegionId);
  const hourly = override === undefined ? type.price.hourly : override.hourly;
  const monthly = override === undefined ? type.price.monthly : override.monthly;
  if (hourly === null || monthly === null) return null;
  const hourlyMicros = priceToMicros(hourly, LIMITS.maxHourlyUsd);
  const monthlyMicros = priceToMicros(monthly, LIMITS.maxMonthlyUsd);
  // The monthly price rule (money.ts): a monthly price is shown, and so stored, in whole cents.
  return hourlyMicros === null || monthlyMicros === null
    ? null
    : [hourlyMicros, roundMicrosToCent(monthlyMicros)];
}

/**
 * The catalogue for our regions. Throws UPSTREAM_INVALID_DATA when a document has the wrong
 * envelope, a collection is empty, or no record of a collection is valid; a single bad record
 * (or one whose price for one of our regions is unusable) is skipped and counted.
 */
export function parseProviderACatalog(
  documents: ProviderADocuments,
  regionMap: readonly RegionMapping[],
): ProviderCatalog {
  const regionRecords = collect(documents.regionPages, 'provider_a /regions');
  const typeRecords = collect(documents.typePages, 'provider_a /linode/types');
  const regions = validRecords(regionRecords, (v): v is LinodeRegion => checkLinodeRegion.Check(v));
  const types = validRecords(typeRecords, (v): v is LinodeType => checkLinodeType.Check(v));
  if (regions.byId.size === 0) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', 'provider_a /regions: no valid region record');
  }
  if (types.byId.size === 0) {
    throw new UpstreamError(
      'UPSTREAM_INVALID_DATA',
      'provider_a /linode/types: no valid type record',
    );
  }

  const reported = regionMap.flatMap((mapping) => {
    const region = regions.byId.get(mapping.upstreamId);
    return region === undefined ? [] : [{ ...mapping, capabilities: new Set(region.capabilities) }];
  });

  const offers: InstanceOffer[] = [];
  const skipped = new SkipTally();
  // Records that failed validation but name their id: their stored records are kept as they
  // were in every region (ProviderCatalog.unreadableEntries), never removed.
  const unreadable = new Set(types.invalidIds);
  skipped.add('invalid_region', regions.invalid);
  skipped.add('invalid_type', types.invalid);
  skipped.add('duplicate', regions.duplicates + types.duplicates);
  for (const type of types.byId.values()) {
    const classification = classifyLinodeType(type.class, type.gpus);
    if (classification.kind === 'excluded') continue;
    if (classification.kind === 'unknown') {
      skipped.add('unclassified');
      unreadable.add(type.id);
      continue;
    }
    const needed = requiredCapabilities(type.class, type.gpus);
    const typeOffers: InstanceOffer[] = [];
    let priced = true;
    for (const region of reported) {
      if (!needed.every((capability) => region.capabilities.has(capability))) continue;
      const price = priceIn(type, region.upstreamId);
      if (price === null) {
        priced = false;
        break;
      }
      typeOffers.push({
        instanceId: type.id,
        instanceName: type.label,
        vcpu: type.vcpus,
        memoryMb: type.memory,
        storageGb: Math.round(type.disk / 1024),
        transferTb: scaleTo(type.transfer, 1000, 3),
        networkSpeedGbps: scaleTo(type.network_out ?? 0, 1000, 3),
        gpuCount: type.gpus,
        gpuType: linodeGpuType(type.id, type.label, type.gpus),
        family: classification.family,
        facts: linodeMachineFacts(type.class),
        regionCode: region.regionCode,
        hourlyMicros: price[0],
        monthlyMicros: price[1],
      });
    }
    if (priced) offers.push(...typeOffers);
    else {
      skipped.add('unusable_price');
      unreadable.add(type.id);
    }
  }

  // A region-specific price names a region: one that has it is not gone, whatever /regions says.
  const priced = new Set(
    [...types.byId.values()].flatMap((type) => (type.region_prices ?? []).map((p) => p.id)),
  );
  return {
    provider: 'provider_a',
    regionCodes: reported.map((region) => region.regionCode),
    goneRegionCodes: goneRegions(regionMap, regions, priced),
    offers,
    skippedRecords: skipped.total,
    skippedReasons: skipped.counts,
    entriesSeen: regionRecords.length + typeRecords.length,
    unreadableEntries: unreadableEntries(unreadable, offers),
  };
}

// provider_b: Vultr API v2 documents -> our catalogue (pure: no I/O, no clock).
//
// Units (upstream-formats.md 2.2): memory MB = `ram`; storage GB = `disk` (GB per disk) x
// `disk_count` (1 when absent); transfer TB = `bandwidth` GB / 1024, 3 decimals, because Vultr's
// figures are binary multiples and it sells 1024 GB as "1 TB" (1024 -> 1, 3072 -> 3, 512 -> 0.5);
// network Gbps = 0, since Vultr publishes no network speed per plan (0 means "not published").
//
// Prices: `location_cost[<region id>]` when it has a `monthly_cost`, else the plan's
// `monthly_cost`; hourly is the same source's `hourly_cost`, or when that is absent its monthly
// micros / 730 (D36), rounded half up to the micro-dollar in integer arithmetic. Vultr's own
// `hourly_cost` is monthly / 730 rounded to 3 decimals ($5 -> 0.007), so it is used as given.
//
// Availability: a plan is offered in each of our regions whose upstream id is in its
// `locations` and in `/regions`. Plans with `deploy_ondemand: false` (preemptible only) and
// bare-metal types are left out; they are not on-demand cloud instances.
import { HOURS_PER_MONTH, roundMicrosToCent } from '../../catalog/money.js';
import type { InstanceOffer, ProviderCatalog } from '../../catalog/offers.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { RegionMapping } from '../region-map.js';
import {
  divideRoundHalfUp,
  goneRegions,
  LIMITS,
  ownValue,
  priceToMicros,
  scaleTo,
  SkipTally,
  unreadableEntries,
  validRecords,
} from '../upstream-values.js';
import { classifyVultrPlan } from './classify.js';
import {
  checkVultrPlan,
  checkVultrPlansPage,
  checkVultrRegion,
  checkVultrRegionsPage,
  type VultrPlan,
  type VultrRegion,
} from './schema.js';

/** Vultr publishes no per-plan network speed; 0 on our API means "not published". */
export const VULTR_NETWORK_SPEED_GBPS = 0;

/** Every page of the two collections, as fetched (`{plans|regions, meta}` envelopes). */
export interface ProviderBDocuments {
  readonly regionPages: readonly unknown[];
  readonly planPages: readonly unknown[];
}

export type VultrCollection = 'plans' | 'regions';

export interface VultrPage {
  readonly records: readonly unknown[];
  /** The cursor of the next page; "" on the last page. */
  readonly next: string;
}

/** Validates one page's envelope; the wrong shape is UPSTREAM_INVALID_DATA. */
export function readVultrPage(
  document: unknown,
  collection: VultrCollection,
  what: string,
): VultrPage {
  if (collection === 'plans' && checkVultrPlansPage.Check(document)) {
    return { records: document.plans, next: document.meta.links.next };
  }
  if (collection === 'regions' && checkVultrRegionsPage.Check(document)) {
    return { records: document.regions, next: document.meta.links.next };
  }
  throw new UpstreamError(
    'UPSTREAM_INVALID_DATA',
    `${what}: expected a Vultr page {${collection}: [...], meta: {links: {next}}}`,
  );
}

function collect(pages: readonly unknown[], collection: VultrCollection): unknown[] {
  const what = `provider_b /${collection}`;
  const records = pages.flatMap((page) => readVultrPage(page, collection, what).records);
  if (records.length === 0) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', `${what}: the collection is empty`);
  }
  return records;
}

/** Hourly and monthly micros in one upstream region, or null when a price is unusable. */
function priceIn(plan: VultrPlan, upstreamRegionId: string): [number, number] | null {
  const local = plan.location_cost ? ownValue(plan.location_cost, upstreamRegionId) : undefined;
  const source =
    local?.monthly_cost === undefined || local.monthly_cost === null
      ? { monthly: plan.monthly_cost, hourly: plan.hourly_cost ?? null }
      : { monthly: local.monthly_cost, hourly: local.hourly_cost ?? null };
  const monthlyMicros = priceToMicros(source.monthly, LIMITS.maxMonthlyUsd);
  if (monthlyMicros === null) return null;
  const hourlyMicros =
    source.hourly === null
      ? divideRoundHalfUp(monthlyMicros, HOURS_PER_MONTH)
      : priceToMicros(source.hourly, LIMITS.maxHourlyUsd);
  // Hourly (when derived) comes from the exact upstream monthly; the monthly shown is in cents.
  return hourlyMicros === null || hourlyMicros === 0
    ? null
    : [hourlyMicros, roundMicrosToCent(monthlyMicros)];
}

/**
 * The catalogue for our regions. Throws UPSTREAM_INVALID_DATA when a document has the wrong
 * envelope, a collection is empty, or no record of a collection is valid; a single bad record
 * (or one whose price in one of our regions is unusable) is skipped and counted.
 */
export function parseProviderBCatalog(
  documents: ProviderBDocuments,
  regionMap: readonly RegionMapping[],
): ProviderCatalog {
  const regionRecords = collect(documents.regionPages, 'regions');
  const planRecords = collect(documents.planPages, 'plans');
  const regions = validRecords(regionRecords, (v): v is VultrRegion => checkVultrRegion.Check(v));
  const plans = validRecords(planRecords, (v): v is VultrPlan => checkVultrPlan.Check(v));
  if (regions.byId.size === 0) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', 'provider_b /regions: no valid region record');
  }
  if (plans.byId.size === 0) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', 'provider_b /plans: no valid plan record');
  }

  const reported = regionMap.filter((mapping) => regions.byId.has(mapping.upstreamId));
  const offers: InstanceOffer[] = [];
  const skipped = new SkipTally();
  // Records that failed validation but name their id: their stored records are kept as they
  // were in every region (ProviderCatalog.unreadableEntries), never removed.
  const unreadable = new Set(plans.invalidIds);
  skipped.add('invalid_region', regions.invalid);
  skipped.add('invalid_type', plans.invalid);
  skipped.add('duplicate', regions.duplicates + plans.duplicates);
  for (const plan of plans.byId.values()) {
    if (plan.deploy_ondemand === false) continue;
    const classification = classifyVultrPlan(plan);
    if (classification.kind === 'excluded') continue;
    if (classification.kind === 'invalid') {
      skipped.add('unclassified');
      unreadable.add(plan.id);
      continue;
    }
    const locations = new Set(plan.locations);
    const planOffers: InstanceOffer[] = [];
    let priced = true;
    for (const region of reported) {
      if (!locations.has(region.upstreamId)) continue;
      const price = priceIn(plan, region.upstreamId);
      if (price === null) {
        priced = false;
        break;
      }
      planOffers.push({
        instanceId: plan.id,
        instanceName: classification.name,
        vcpu: plan.vcpu_count,
        memoryMb: plan.ram,
        storageGb: plan.disk * (plan.disk_count ?? 1),
        transferTb: scaleTo(plan.bandwidth, 1024, 3),
        networkSpeedGbps: VULTR_NETWORK_SPEED_GBPS,
        gpuCount: classification.gpu.count,
        gpuType: classification.gpu.type,
        family: classification.family,
        facts: classification.facts,
        regionCode: region.regionCode,
        hourlyMicros: price[0],
        monthlyMicros: price[1],
      });
    }
    if (priced) offers.push(...planOffers);
    else {
      skipped.add('unusable_price');
      unreadable.add(plan.id);
    }
  }

  // A plan sold in a region names it: that region is not gone, whatever /regions says.
  const located = new Set([...plans.byId.values()].flatMap((plan) => plan.locations));
  return {
    provider: 'provider_b',
    regionCodes: reported.map((region) => region.regionCode),
    goneRegionCodes: goneRegions(regionMap, regions, located),
    offers,
    skippedRecords: skipped.total,
    skippedReasons: skipped.counts,
    entriesSeen: regionRecords.length + planRecords.length,
    unreadableEntries: unreadableEntries(unreadable, offers),
  };
}

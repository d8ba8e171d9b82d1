// provider_c's spot feeds, I/O and merge: one GET of each feed document through the shared
// upstream client (timeouts, retries, size caps, redirect policy), the pure parses
// (spot-price-feed.ts, spot-advice-feed.ts), and the step that puts their figures on the offers.
// A read never throws for an upstream failure: the result says, per region, what failed, so the
// sync can keep that option's previous figures there and report it, and never lose on-demand.
import type { InstanceOffer } from '../../catalog/offers.js';
import {
  everyRegionFailed,
  type OptionFeedName,
  type OptionFeedResult,
  type RegionFeedOutcome,
} from '../../catalog/option-feeds.js';
import { optionPrice } from '../../catalog/purchase-options.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { RegionMapping } from '../region-map.js';
import { parseSpotAdviceFeed, type SpotAdviceFigures } from './spot-advice-feed.js';
import { parseSpotPriceFeed } from './spot-price-feed.js';

export interface SpotFeedRead {
  /** Reads the feed's base URL (a live host, a test server or a `file://` directory). */
  readonly client: UpstreamClient;
  /** The document below the base (documentLocation of the configured URL). */
  readonly path: string;
  /** Our regions and their AWS region codes (resolveRegionMap). */
  readonly regions: readonly RegionMapping[];
  /** Short provenance text (D37): the feed's host, or the bundled recording's name. */
  readonly source: string;
  /**
   * When the figures were observed. Neither feed dates itself, so a live read is observed when
   * it is fetched (the default); the bundled recording passes its own date.
   */
  readonly observedAt?: Date;
}

async function readFeed<T>(
  feed: OptionFeedName,
  read: SpotFeedRead,
  parse: (doc: unknown, regions: readonly RegionMapping[]) => RegionFeedOutcome<T>[],
  signal: AbortSignal,
): Promise<OptionFeedResult<T>> {
  let regions: RegionFeedOutcome<T>[];
  try {
    const doc = await read.client.getJson(read.path, signal);
    regions = parse(doc, read.regions);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const codes = read.regions.map((r) => r.regionCode);
    regions = everyRegionFailed(codes, err.code, `${feed} feed ${read.path}: ${err.message}`);
  }
  return {
    feed,
    observedAt: read.observedAt ?? new Date(),
    source: read.source,
    regions,
  };
}

/** AWS spot prices per region of ours: hourly micro-dollars by instance type. */
export function readSpotPrices(
  read: SpotFeedRead,
  signal: AbortSignal,
): Promise<OptionFeedResult<number>> {
  return readFeed('spot', read, parseSpotPriceFeed, signal);
}

/** AWS Spot Instance Advisor figures per region of ours, by instance type. */
export function readSpotAdvice(
  read: SpotFeedRead,
  signal: AbortSignal,
): Promise<OptionFeedResult<SpotAdviceFigures>> {
  return readFeed('spot_advice', read, parseSpotAdviceFeed, signal);
}

function lookup<T>(result: OptionFeedResult<T> | undefined): Map<string, ReadonlyMap<string, T>> {
  const out = new Map<string, ReadonlyMap<string, T>>();
  for (const region of result?.regions ?? [])
    if (region.ok) out.set(region.regionCode, region.byType);
  return out;
}

/**
 * `offers` with the spot price (monthly = hourly x 730, observed when the feed was read) and
 * AWS's spot advice of their region and type, where a feed gave them. Offers of a region whose
 * feed failed are returned as they were: keeping that option's previous figures is the sync's
 * decision, made from the result's per-region outcomes. On-demand and reserved prices are never
 * touched.
 */
export function withSpotFeeds(
  offers: readonly InstanceOffer[],
  spot?: OptionFeedResult<number>,
  advice?: OptionFeedResult<SpotAdviceFigures>,
): InstanceOffer[] {
  const prices = lookup(spot);
  const advised = lookup(advice);
  return offers.map((offer) => {
    const micros = prices.get(offer.regionCode)?.get(offer.instanceId);
    const figures = advised.get(offer.regionCode)?.get(offer.instanceId);
    if (micros === undefined && figures === undefined) return offer;
    return {
      ...offer,
      ...(micros !== undefined && spot !== undefined
        ? { optionPrices: { ...offer.optionPrices, spot: optionPrice(micros, spot.observedAt) } }
        : {}),
      ...(figures !== undefined && advice !== undefined
        ? {
            spotAdvice: {
              ...figures,
              observedAt: advice.observedAt,
              source: advice.source,
            },
          }
        : {}),
    };
  });
}

// provider_c's spot feeds in a sync (D61): where each configured feed is read from, and the step
// that reads both after the offer files, puts their figures on the offers and says per region
// what failed. A feed never fails the sync: a region whose feed failed keeps its stored figures
// of that option (keptOptions) and the on-demand catalogue is applied as read.
import type { InstanceOffer, KeptOption } from '../../catalog/offers.js';
import {
  everyRegionFailed,
  keptOptionsOf,
  optionFeedReport,
  type OptionFeedName,
  type OptionFeedReport,
  type OptionFeedResult,
} from '../../catalog/option-feeds.js';
import { documentLocation } from '../../sync/upstream/document-location.js';
import type { ProviderAdapterContext } from '../provider-definition.js';
import type { RegionMapping } from '../region-map.js';
import { BUNDLED_SPOT_ADVICE } from './spot-advice-provenance.js';
import { readSpotAdvice, readSpotPrices, withSpotFeeds, type SpotFeedRead } from './spot-feeds.js';

/** One feed as the adapter reads it: its client, document, provenance (regions come per sync). */
export type SpotFeedSource = Omit<SpotFeedRead, 'regions'>;

export interface SpotFeedSources {
  readonly prices?: SpotFeedSource;
  readonly advice?: SpotFeedSource;
}

const FEED_NAMES: Readonly<Record<OptionFeedName, string>> = {
  spot: 'AWS spot price feed',
  spot_advice: 'AWS Spot Instance Advisor',
};

/**
 * The feeds the context configures, each read through its own client of the shared upstream
 * settings. The bundled advice recording is dated and named by its provenance; another feed is
 * named by its host (live) or as a local copy, never by a server path (D37), and observed when
 * read. Throws TypeError, naming the setting, for a URL that names no file.
 */
export function spotFeedSources(context: ProviderAdapterContext): SpotFeedSources {
  const source = (feed: OptionFeedName): SpotFeedSource | undefined => {
    const setting = context.optionFeeds[feed];
    if (setting === undefined) return undefined;
    const { baseUrl, path } = documentLocation(setting.url, setting.setting);
    const client = context.upstreamClient(baseUrl);
    if (setting.bundled && feed === 'spot_advice') {
      return {
        client,
        path,
        source: BUNDLED_SPOT_ADVICE.source,
        observedAt: new Date(BUNDLED_SPOT_ADVICE.observedAt),
      };
    }
    const url = new URL(setting.url);
    const where = url.protocol === 'file:' ? 'local copy' : `live (${url.host})`;
    return { client, path, source: `${FEED_NAMES[feed]}, ${where}` };
  };
  const prices = source('spot');
  const advice = source('spot_advice');
  return { ...(prices ? { prices } : {}), ...(advice ? { advice } : {}) };
}

export interface SpotSyncOutcome {
  readonly offers: InstanceOffer[];
  /** One report per feed read, prices first; empty when no feed is configured. */
  readonly optionFeeds: OptionFeedReport[];
  readonly keptOptions: KeptOption[];
}

/**
 * Reads the configured feeds for `regions` (the ones whose offer files were read), both at once,
 * and merges their figures onto `offers`. An abort of the sync is rethrown; any other failure,
 * even one the reads did not foresee, fails that feed in every region and nothing more.
 */
export async function withSpotSync(
  offers: readonly InstanceOffer[],
  sources: SpotFeedSources,
  regions: readonly RegionMapping[],
  signal: AbortSignal,
): Promise<SpotSyncOutcome> {
  const guarded = async <T>(
    feed: OptionFeedName,
    read: Promise<OptionFeedResult<T>>,
    from: SpotFeedSource,
  ): Promise<OptionFeedResult<T>> => {
    try {
      return await read;
    } catch (err) {
      if (signal.aborted) throw err;
      const message = `${feed} feed ${from.path}: ${err instanceof Error ? err.message : String(err)}`;
      return {
        feed,
        observedAt: from.observedAt ?? new Date(),
        source: from.source,
        regions: everyRegionFailed(
          regions.map((r) => r.regionCode),
          'UPSTREAM_INVALID_DATA',
          message,
        ),
      };
    }
  };
  const { prices, advice } = sources;
  const [spot, advised] = await Promise.all([
    prices && guarded('spot', readSpotPrices({ ...prices, regions }, signal), prices),
    advice && guarded('spot_advice', readSpotAdvice({ ...advice, regions }, signal), advice),
  ]);
  // A read cut short by the sync's abort reads as a failed feed; the sync must stop instead.
  signal.throwIfAborted();
  const optionFeeds = [spot, advised].flatMap((r) => (r ? [optionFeedReport(r)] : []));
  return {
    offers: withSpotFeeds(offers, spot, advised),
    optionFeeds,
    keptOptions: keptOptionsOf(optionFeeds),
  };
}

// provider_c's ProviderAdapter (AWS Price List Bulk, EC2 offer files): the index chain
// (fetch.ts), one streamed region file at a time through the worker scanner
// (region-file-worker.ts), then the pure mapping (parse.ts), then the spot feeds (spot-sync.ts).
import type {
  InstanceOffer,
  ProviderAdapter,
  ProviderCatalog,
  RegionEntries,
  UnreadableEntry,
} from '../../catalog/offers.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { resolveRegionMap, type RegionMapOverrides } from '../region-map.js';
import { PROVIDER_C_NAME, PROVIDER_C_REGIONS } from './regions.js';
import { EC2_OFFER_CODE, fetchRegionFileRefs } from './fetch.js';
import { mapProviderCOffers } from './parse.js';
import { withAwsMachineFacts } from './machine-facts.js';
import { scanRegionFile, type RegionScanOptions } from './region-file-worker.js';
import { SkipTally } from '../upstream-values.js';
import { withSpotSync, type SpotFeedSources } from './spot-sync.js';

export interface ProviderCAdapterOptions {
  /**
   * Reads the AWS Price List Bulk shape: `https://pricing.us-east-1.amazonaws.com`, a test
   * server, or a directory holding `offers/v1.0/aws/...` (the bundled snapshot). Its
   * maxResponseBytes must admit a whole region file (up to ~450 MB in 2026).
   */
  readonly client: UpstreamClient;
  /** Our region code -> AWS region code; unnamed codes map to themselves. */
  readonly regionMap?: RegionMapOverrides;
  /** Largest single product or on-demand record, in bytes. Default 1 MiB (real ones: ~2 KB). */
  readonly maxRecordBytes?: number;
  /** Old-generation heap cap of the parse worker, in MB. Default 256. */
  readonly workerHeapMb?: number;
  /** Called with each parse worker as it starts (diagnostics and tests). */
  readonly onWorker?: RegionScanOptions['onWorker'];
  /**
   * D61: the spot price and spot advice feeds, read after the offer files (spotFeedSources);
   * unset: neither is read and the catalogue carries no optionFeeds or keptOptions.
   */
  readonly spotFeeds?: SpotFeedSources;
}

/**
 * Region files are read one after another, not in parallel: each is a large stream, and one
 * worker at a time keeps both memory and CPU use of a sync bounded on a small machine.
 * Throws a plain Error at creation for a bad region map (a configuration mistake).
 */
export function createProviderCAdapter(options: ProviderCAdapterOptions): ProviderAdapter {
  const regionMap = resolveRegionMap(
    { name: PROVIDER_C_NAME, regions: PROVIDER_C_REGIONS },
    options.regionMap,
  );
  const scanOptions = {
    ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}),
    ...(options.workerHeapMb !== undefined ? { workerHeapMb: options.workerHeapMb } : {}),
    ...(options.onWorker !== undefined ? { onWorker: options.onWorker } : {}),
  };
  return {
    name: 'provider_c',
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      const refs = await fetchRegionFileRefs(options.client, regionMap, signal);
      const offers: InstanceOffer[] = [];
      const skipped = new SkipTally();
      const regionEntries: RegionEntries[] = [];
      const unreadable: UnreadableEntry[] = [];
      for (const ref of refs) {
        const scan = await scanRegionFile(options.client, ref, scanOptions, signal);
        const what = `provider_c GET ${ref.path}`;
        if (!scan.sawProducts || !scan.sawOnDemand) {
          throw new UpstreamError(
            'UPSTREAM_INVALID_DATA',
            `${what}: not an offer file (no "products" or "terms.OnDemand" object)`,
          );
        }
        const offerCode = scan.metadata.offerCode;
        if (offerCode !== undefined && offerCode !== EC2_OFFER_CODE) {
          throw new UpstreamError('UPSTREAM_INVALID_DATA', `${what}: offerCode is "${offerCode}"`);
        }
        const mapped = mapProviderCOffers(scan.products, ref.regionCode);
        // A file without a single listable instance is broken, not an empty region: failing
        // keeps the previous catalogue instead of marking the whole region unavailable.
        if (mapped.offers.length === 0) {
          throw new UpstreamError(
            'UPSTREAM_INVALID_DATA',
            `${what}: no on-demand Linux instance offers in ${scan.productCount} products`,
          );
        }
        // D62/D63: the type's recorded facts, whatever the offers were read from.
        for (const offer of mapped.offers) offers.push(withAwsMachineFacts(offer));
        skipped.add('invalid_type', mapped.invalid + scan.invalidProducts);
        skipped.add('duplicate', mapped.duplicates);
        // Seen: every product that could have been ours (kept by the filter, or of our shape
        // but invalid); skipped: the invalid and duplicate ones among them.
        regionEntries.push({
          regionCode: ref.regionCode,
          skipped: mapped.invalid + scan.invalidProducts + mapped.duplicates,
          seen: scan.products.length + scan.invalidProducts,
        });
        for (const instanceId of mapped.invalidTypes) {
          unreadable.push({ instanceId, regionCode: ref.regionCode });
        }
      }
      // The region index is provider_c's region list and a region's offers come only from
      // the file it names: a region of ours the index does not list is gone upstream (its
      // removal is then held back by the sync's empty-region rule unless forced).
      const listed = new Set(refs.map((ref) => ref.regionCode));
      // D61: the feeds are asked only for the regions whose offers were read; whatever they do,
      // the on-demand offers above are applied (a failed region keeps its stored option figures).
      const feeds =
        options.spotFeeds === undefined
          ? undefined
          : await withSpotSync(
              offers,
              options.spotFeeds,
              regionMap.filter((m) => listed.has(m.regionCode)),
              signal,
            );
      return {
        provider: 'provider_c',
        regionCodes: [...listed],
        goneRegionCodes: regionMap.map((m) => m.regionCode).filter((code) => !listed.has(code)),
        offers: feeds?.offers ?? offers,
        ...(feeds === undefined || feeds.optionFeeds.length === 0
          ? {}
          : { optionFeeds: feeds.optionFeeds, keptOptions: feeds.keptOptions }),
        skippedRecords: skipped.total,
        skippedReasons: skipped.counts,
        entriesSeen: regionEntries.reduce((sum, region) => sum + region.seen, 0),
        regionEntries,
        unreadableEntries: unreadable,
      };
    },
  };
}

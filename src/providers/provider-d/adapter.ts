// provider_d's ProviderAdapter: fetch (I/O) then parse (pure), in our units and region codes.
import type { ProviderAdapter, ProviderCatalog } from '../../catalog/offers.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { resolveRegionMap, type RegionMapOverrides } from '../region-map.js';
import {
  fetchPricingFileDocuments,
  fetchProviderDDocuments,
  isPricingFileUrl,
  pricingFileLocation,
  type PricingFileSource,
} from './fetch.js';
import { parseProviderDCatalog } from './parse.js';
import { PROVIDER_D_NAME, PROVIDER_D_REGIONS } from './regions.js';

export interface ProviderDAdapterOptions {
  /**
   * Reads PROVIDER_D_URL: the snapshot layout (data/snapshots/provider_d/, a mirror of it, or a
   * test server), or, when its base URL names a `.yml`/`.yaml` file, Cyclenerd's pricing.yml.
   */
  readonly client: UpstreamClient;
  /**
   * For a pricing file: a client of another base URL with the same settings (the file's
   * directory), and the reference snapshot directory's URL (machine types and availability).
   */
  readonly pricingFile?: {
    readonly upstreamClient: (baseUrl: string) => UpstreamClient;
    readonly referenceUrl: string;
  };
  /** Our region code -> Google region id; unnamed codes map to themselves. */
  readonly regionMap?: RegionMapOverrides;
}

function pricingFileSource(options: ProviderDAdapterOptions): PricingFileSource | undefined {
  if (!isPricingFileUrl(options.client.baseUrl)) return undefined;
  if (options.pricingFile === undefined) {
    throw new Error('provider_d: a pricing.yml PROVIDER_D_URL needs the pricingFile options');
  }
  const { baseUrl, path } = pricingFileLocation(options.client.baseUrl);
  return {
    file: options.pricingFile.upstreamClient(baseUrl),
    path,
    reference: options.pricingFile.upstreamClient(options.pricingFile.referenceUrl),
  };
}

/** Throws a plain Error at creation for a bad region map (a configuration mistake). */
export function createProviderDAdapter(options: ProviderDAdapterOptions): ProviderAdapter {
  const regionMap = resolveRegionMap(
    { name: PROVIDER_D_NAME, regions: PROVIDER_D_REGIONS },
    options.regionMap,
  );
  const pricingFile = pricingFileSource(options);
  return {
    name: PROVIDER_D_NAME,
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      const documents =
        pricingFile === undefined
          ? await fetchProviderDDocuments(options.client, signal)
          : await fetchPricingFileDocuments(pricingFile, signal);
      const catalog = parseProviderDCatalog(documents, regionMap);
      // A pricing.yml says when it was built: its prices are dated by that.
      const upstreamObservedAt = documents.generatedAt;
      return upstreamObservedAt === undefined ? catalog : { ...catalog, upstreamObservedAt };
    },
  };
}

// provider_b's ProviderAdapter: fetch (I/O) then parse (pure), in our units and region codes.
import type { ProviderAdapter, ProviderCatalog } from '../../catalog/offers.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { resolveRegionMap, type RegionMapOverrides } from '../region-map.js';
import { PROVIDER_B_NAME, PROVIDER_B_REGIONS } from './regions.js';
import { fetchProviderBDocuments } from './fetch.js';
import { parseProviderBCatalog } from './parse.js';

export interface ProviderBAdapterOptions {
  /** Reads the Vultr API v2 shape: `https://api.vultr.com/v2`, a test server or snapshots. */
  readonly client: UpstreamClient;
  /** Our region code -> Vultr region id; unnamed codes map to themselves. */
  readonly regionMap?: RegionMapOverrides;
}

/** Throws a plain Error at creation for a bad region map (a configuration mistake). */
export function createProviderBAdapter(options: ProviderBAdapterOptions): ProviderAdapter {
  const regionMap = resolveRegionMap(
    { name: PROVIDER_B_NAME, regions: PROVIDER_B_REGIONS },
    options.regionMap,
  );
  return {
    name: 'provider_b',
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      const documents = await fetchProviderBDocuments(options.client, signal);
      return parseProviderBCatalog(documents, regionMap);
    },
  };
}

// provider_a's ProviderAdapter: fetch (I/O) then parse (pure), in our units and region codes.
import type { ProviderAdapter, ProviderCatalog } from '../../catalog/offers.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { resolveRegionMap, type RegionMapOverrides } from '../region-map.js';
import { PROVIDER_A_NAME, PROVIDER_A_REGIONS } from './regions.js';
import { fetchProviderADocuments } from './fetch.js';
import { parseProviderACatalog } from './parse.js';

export interface ProviderAAdapterOptions {
  /** Reads the Linode API v4 shape: `https://api.linode.com/v4`, a test server or snapshots. */
  readonly client: UpstreamClient;
  /** Our region code -> Linode region id; unnamed codes map to themselves. */
  readonly regionMap?: RegionMapOverrides;
}

/** Throws a plain Error at creation for a bad region map (a configuration mistake). */
export function createProviderAAdapter(options: ProviderAAdapterOptions): ProviderAdapter {
  const regionMap = resolveRegionMap(
    { name: PROVIDER_A_NAME, regions: PROVIDER_A_REGIONS },
    options.regionMap,
  );
  return {
    name: 'provider_a',
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      const documents = await fetchProviderADocuments(options.client, signal);
      return parseProviderACatalog(documents, regionMap);
    },
  };
}

// provider_d's ProviderAdapter: fetch (I/O) then parse (pure), in our units and region codes.
import type { ProviderAdapter, ProviderCatalog } from '../../catalog/offers.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { resolveRegionMap, type RegionMapOverrides } from '../region-map.js';
import { fetchProviderDDocuments } from './fetch.js';
import { parseProviderDCatalog } from './parse.js';
import { PROVIDER_D_NAME, PROVIDER_D_REGIONS } from './regions.js';

export interface ProviderDAdapterOptions {
  /** Reads the snapshot layout: data/snapshots/provider_d/, a mirror of it, or a test server. */
  readonly client: UpstreamClient;
  /** Our region code -> Google region id; unnamed codes map to themselves. */
  readonly regionMap?: RegionMapOverrides;
}

/** Throws a plain Error at creation for a bad region map (a configuration mistake). */
export function createProviderDAdapter(options: ProviderDAdapterOptions): ProviderAdapter {
  const regionMap = resolveRegionMap(
    { name: PROVIDER_D_NAME, regions: PROVIDER_D_REGIONS },
    options.regionMap,
  );
  return {
    name: PROVIDER_D_NAME,
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      return parseProviderDCatalog(
        await fetchProviderDDocuments(options.client, signal),
        regionMap,
      );
    },
  };
}

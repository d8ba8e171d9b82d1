// provider_a's regions (section 4.5). D34: each reads the Linode region in the same city: Osaka
// from `jp-osa`, Singapore from `ap-south` (which Linode labels Singapore; its `ap-southeast` is
// Sydney), Tokyo from `ap-northeast` (Tokyo 2).
import type { ProviderRegion } from '../provider-definition.js';

export const PROVIDER_A_NAME = 'provider_a';

export const PROVIDER_A_REGIONS: readonly ProviderRegion[] = Object.freeze([
  { regionCode: 'ap-northeast', regionName: 'Tokyo', countryCode: 'JP', city: 'tokyo' },
  {
    regionCode: 'ap-south',
    regionName: 'Osaka',
    countryCode: 'JP',
    city: 'osaka',
    upstreamId: 'jp-osa',
  },
  {
    regionCode: 'ap-southeast',
    regionName: 'Singapore',
    countryCode: 'SG',
    city: 'singapore',
    upstreamId: 'ap-south',
  },
]);

/** What resolveRegionMap reads: the name and the table. */
export const PROVIDER_A_REGION_TABLE = { name: PROVIDER_A_NAME, regions: PROVIDER_A_REGIONS };

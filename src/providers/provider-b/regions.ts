// provider_b's regions (section 4.5), each read from the Vultr region of the same id.
import type { ProviderRegion } from '../provider-definition.js';

export const PROVIDER_B_NAME = 'provider_b';

export const PROVIDER_B_REGIONS: readonly ProviderRegion[] = Object.freeze([
  { regionCode: 'icn', regionName: 'Seoul', countryCode: 'KR', city: 'seoul' },
  { regionCode: 'nrt', regionName: 'Tokyo', countryCode: 'JP', city: 'tokyo' },
  { regionCode: 'itm', regionName: 'Osaka', countryCode: 'JP', city: 'osaka' },
]);

/** What resolveRegionMap reads: the name and the table. */
export const PROVIDER_B_REGION_TABLE = { name: PROVIDER_B_NAME, regions: PROVIDER_B_REGIONS };

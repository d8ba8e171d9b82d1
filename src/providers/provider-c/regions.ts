// provider_c's regions (section 4.5), each read from the AWS region of the same code.
import type { ProviderRegion } from '../provider-definition.js';

export const PROVIDER_C_NAME = 'provider_c';

export const PROVIDER_C_REGIONS: readonly ProviderRegion[] = Object.freeze([
  { regionCode: 'ap-northeast-1', regionName: 'Tokyo', countryCode: 'JP', city: 'tokyo' },
  { regionCode: 'ap-northeast-2', regionName: 'Seoul', countryCode: 'KR', city: 'seoul' },
  { regionCode: 'ap-northeast-3', regionName: 'Osaka', countryCode: 'JP', city: 'osaka' },
  { regionCode: 'ap-southeast-1', regionName: 'Singapore', countryCode: 'SG', city: 'singapore' },
  { regionCode: 'ap-east-1', regionName: 'Hong Kong', countryCode: 'HK', city: 'hong-kong' },
]);

/** What resolveRegionMap reads: the name and the table. */
export const PROVIDER_C_REGION_TABLE = { name: PROVIDER_C_NAME, regions: PROVIDER_C_REGIONS };

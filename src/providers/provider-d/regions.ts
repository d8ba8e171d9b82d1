// provider_d's regions (D65): Google Cloud's Asian regions in our cities. Our region code is
// Google's own region id, so no upstream id is needed.
import type { ProviderRegion } from '../provider-definition.js';

export const PROVIDER_D_NAME = 'provider_d';

export const PROVIDER_D_REGIONS: readonly ProviderRegion[] = Object.freeze([
  { regionCode: 'asia-northeast1', regionName: 'Tokyo', countryCode: 'JP', city: 'tokyo' },
  { regionCode: 'asia-northeast3', regionName: 'Seoul', countryCode: 'KR', city: 'seoul' },
  { regionCode: 'asia-northeast2', regionName: 'Osaka', countryCode: 'JP', city: 'osaka' },
  { regionCode: 'asia-southeast1', regionName: 'Singapore', countryCode: 'SG', city: 'singapore' },
  { regionCode: 'asia-east2', regionName: 'Hong Kong', countryCode: 'HK', city: 'hong-kong' },
]);

// The catalogue's vocabulary: providers, regions and instance families as the API names them.
// Everything here is data from the specification (sections 2 and 4.5) and DECISIONS D1, D34, D35.

export const PROVIDER_NAMES = ['provider_a', 'provider_b', 'provider_c'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const INSTANCE_FAMILIES = ['general', 'compute', 'memory', 'storage', 'gpu'] as const;
export type InstanceFamily = (typeof INSTANCE_FAMILIES)[number];

export interface RegionDefinition {
  readonly provider: ProviderName;
  /** Our region code on the wire (section 4.5); adapters map it to the upstream's id. */
  readonly regionCode: string;
  /** City name per the specification's table, whatever the upstream calls it (D34). */
  readonly regionName: string;
  readonly countryCode: string;
}

export const ASIAN_REGIONS: readonly RegionDefinition[] = Object.freeze([
  { provider: 'provider_a', regionCode: 'ap-northeast', regionName: 'Tokyo', countryCode: 'JP' },
  { provider: 'provider_a', regionCode: 'ap-south', regionName: 'Osaka', countryCode: 'JP' },
  {
    provider: 'provider_a',
    regionCode: 'ap-southeast',
    regionName: 'Singapore',
    countryCode: 'SG',
  },
  { provider: 'provider_b', regionCode: 'icn', regionName: 'Seoul', countryCode: 'KR' },
  { provider: 'provider_b', regionCode: 'nrt', regionName: 'Tokyo', countryCode: 'JP' },
  { provider: 'provider_b', regionCode: 'itm', regionName: 'Osaka', countryCode: 'JP' },
  { provider: 'provider_c', regionCode: 'ap-northeast-1', regionName: 'Tokyo', countryCode: 'JP' },
  { provider: 'provider_c', regionCode: 'ap-northeast-2', regionName: 'Seoul', countryCode: 'KR' },
  { provider: 'provider_c', regionCode: 'ap-northeast-3', regionName: 'Osaka', countryCode: 'JP' },
  {
    provider: 'provider_c',
    regionCode: 'ap-southeast-1',
    regionName: 'Singapore',
    countryCode: 'SG',
  },
  { provider: 'provider_c', regionCode: 'ap-east-1', regionName: 'Hong Kong', countryCode: 'HK' },
] as const);

export const REGION_CODES: readonly string[] = Object.freeze([
  ...new Set(ASIAN_REGIONS.map((r) => r.regionCode)),
]);

export function regionsOf(provider: ProviderName): readonly RegionDefinition[] {
  return ASIAN_REGIONS.filter((r) => r.provider === provider);
}

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (PROVIDER_NAMES as readonly string[]).includes(value);
}

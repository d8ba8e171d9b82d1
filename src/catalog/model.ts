// The catalogue's vocabulary: providers, regions and instance families as the API names them.
// Everything here is data from the specification (sections 2 and 4.5) and DECISIONS D1, D34, D35.

export const PROVIDER_NAMES = ['provider_a', 'provider_b', 'provider_c'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * D55: `provider.display_name` by default is the vendor whose upstream format the provider
 * reads (PROVIDER_<X>_DISPLAY_NAME overrides it); identifiers stay `provider_a..c`.
 */
export const VENDOR_NAMES: Readonly<Record<ProviderName, string>> = Object.freeze({
  provider_a: 'Linode',
  provider_b: 'Vultr',
  provider_c: 'AWS',
});

/**
 * What a provider calls the network block storage it sells apart from an instance, where it has
 * one: a record without local storage (`field_notes.storage_gb` `not_included`) runs on it, and
 * a client can say so (GET /regions `providers`, the web UI's "EBS only").
 */
export const BLOCK_STORAGE_NAMES: Readonly<Partial<Record<ProviderName, string>>> = Object.freeze({
  provider_c: 'EBS',
});

export const INSTANCE_FAMILIES = ['general', 'compute', 'memory', 'storage', 'gpu'] as const;
export type InstanceFamily = (typeof INSTANCE_FAMILIES)[number];

/** D56: the cities of the specification's region table (section 4.5), as slugs, in this order. */
export const CITY_SLUGS = ['tokyo', 'seoul', 'osaka', 'singapore', 'hong-kong'] as const;
export type CitySlug = (typeof CITY_SLUGS)[number];

export interface CityDefinition {
  readonly city: CitySlug;
  /** The city's name as the region table writes it (region_name of its regions). */
  readonly name: string;
  readonly countryCode: string;
}

export const CITIES: readonly CityDefinition[] = Object.freeze([
  { city: 'tokyo', name: 'Tokyo', countryCode: 'JP' },
  { city: 'seoul', name: 'Seoul', countryCode: 'KR' },
  { city: 'osaka', name: 'Osaka', countryCode: 'JP' },
  { city: 'singapore', name: 'Singapore', countryCode: 'SG' },
  { city: 'hong-kong', name: 'Hong Kong', countryCode: 'HK' },
] as const);

export interface RegionDefinition {
  readonly provider: ProviderName;
  /** Our region code on the wire (section 4.5); adapters map it to the upstream's id. */
  readonly regionCode: string;
  /** City name per the specification's table, whatever the upstream calls it (D34). */
  readonly regionName: string;
  readonly countryCode: string;
  /** D56: the city the region is in. A provider has at most one region per city. */
  readonly city: CitySlug;
}

export const ASIAN_REGIONS: readonly RegionDefinition[] = Object.freeze([
  {
    provider: 'provider_a',
    regionCode: 'ap-northeast',
    regionName: 'Tokyo',
    countryCode: 'JP',
    city: 'tokyo',
  },
  {
    provider: 'provider_a',
    regionCode: 'ap-south',
    regionName: 'Osaka',
    countryCode: 'JP',
    city: 'osaka',
  },
  {
    provider: 'provider_a',
    regionCode: 'ap-southeast',
    regionName: 'Singapore',
    countryCode: 'SG',
    city: 'singapore',
  },
  {
    provider: 'provider_b',
    regionCode: 'icn',
    regionName: 'Seoul',
    countryCode: 'KR',
    city: 'seoul',
  },
  {
    provider: 'provider_b',
    regionCode: 'nrt',
    regionName: 'Tokyo',
    countryCode: 'JP',
    city: 'tokyo',
  },
  {
    provider: 'provider_b',
    regionCode: 'itm',
    regionName: 'Osaka',
    countryCode: 'JP',
    city: 'osaka',
  },
  {
    provider: 'provider_c',
    regionCode: 'ap-northeast-1',
    regionName: 'Tokyo',
    countryCode: 'JP',
    city: 'tokyo',
  },
  {
    provider: 'provider_c',
    regionCode: 'ap-northeast-2',
    regionName: 'Seoul',
    countryCode: 'KR',
    city: 'seoul',
  },
  {
    provider: 'provider_c',
    regionCode: 'ap-northeast-3',
    regionName: 'Osaka',
    countryCode: 'JP',
    city: 'osaka',
  },
  {
    provider: 'provider_c',
    regionCode: 'ap-southeast-1',
    regionName: 'Singapore',
    countryCode: 'SG',
    city: 'singapore',
  },
  {
    provider: 'provider_c',
    regionCode: 'ap-east-1',
    regionName: 'Hong Kong',
    countryCode: 'HK',
    city: 'hong-kong',
  },
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

const CITY_OF_REGION: ReadonlyMap<string, CitySlug> = new Map(
  ASIAN_REGIONS.map((r) => [r.regionCode, r.city]),
);

/** D56: the city of a region code of the table; undefined for a code not in it. */
export function cityOfRegion(regionCode: string): CitySlug | undefined {
  return CITY_OF_REGION.get(regionCode);
}

/** The region codes in any of `cities`, in REGION_CODES order. */
export function regionCodesInCities(cities: readonly CitySlug[]): string[] {
  return REGION_CODES.filter((code) => cities.includes(CITY_OF_REGION.get(code)!));
}

// The catalogue's vocabulary: providers, regions and instance families as the API names them.
import type { FieldNotes, NotedValues } from './field-notes.js';

// Families and cities are data from the specification (sections 2 and 4.5, D35, D56); the
// providers and their regions (D1, D34) come from the provider registry.

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

/** One region of a provider's table (section 4.5). */
export interface RegionDefinition {
  readonly provider: ProviderName;
  /** Our region code on the wire (section 4.5); adapters map it to the upstream's id. */
  readonly regionCode: string;
  /** City name per the specification's table, whatever the upstream calls it (D34). */
  readonly regionName: string;
  readonly countryCode: string;
  /** D56: the city the region is in. A provider has at most one region per city. */
  readonly city: CitySlug;
  /** The provider's own id for the region (D34: the same city); default: our code. */
  readonly upstreamId?: string;
}

/**
 * What the catalogue needs to know of a provider: its name, its default display name (D55) and
 * its regions. The provider registry (src/providers/registry.ts) supplies them; the domain names
 * no provider itself.
 */
export interface ProviderEntry {
  /** The identifier on the wire (`provider` of a record); lower case, `_` allowed. */
  readonly name: string;
  /** D55: `provider.display_name` unless configuration overrides it. */
  readonly displayName: string;
  /** In the specification's table order; every code unique across providers. */
  readonly regions: readonly Omit<RegionDefinition, 'provider'>[];
  /** Which of a record's numbers are not what they seem (field-notes.ts); {} when all are. */
  fieldNotes(values: NotedValues): FieldNotes;
  /**
   * What it calls the network block storage it sells apart from an instance, where it has one:
   * a record without local storage (`field_notes.storage_gb` `not_included`) runs on it, and a
   * client can say so (GET /regions `providers`, the web UI's "EBS only").
   */
  readonly blockStorage?: string;
  /**
   * Our region codes whose availability the listed figures infer rather than record, given
   * what /health names as their source (D37); none when absent.
   */
  inferredRegions?(source: {
    readonly kind: 'snapshot' | 'live';
    readonly source: string;
  }): readonly string[];
}

/** A provider's identifier: a string the registry knows (isProviderName at the edges). */
export type ProviderName = string;

// The providers in use, in registry order, installed by the composition root through
// installProviders (the domain imports no provider); every reader reads them at call time.
// PROVIDER_NAMES and REGION_CODES are each one array, refilled in place by an install, so the
// HTTP schemas that list them as enums (built when their modules load) list the installed ones.
const providerNames: ProviderName[] = [];
const regionCodes: string[] = [];
export const PROVIDER_NAMES: readonly ProviderName[] = providerNames;
/** Every region of every provider, provider by provider in registry order. */
export let ASIAN_REGIONS: readonly RegionDefinition[] = Object.freeze([]);
export const REGION_CODES: readonly string[] = regionCodes;
let CITY_OF_REGION: ReadonlyMap<string, CitySlug> = new Map();
let UPSTREAM_OF_REGION: ReadonlyMap<string, string> = new Map();
let ENTRIES: ReadonlyMap<ProviderName, ProviderEntry> = new Map();

const PROVIDER_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * Makes `entries` the providers every reader of this module sees. Throws a plain Error for a
 * malformed name, a duplicate name or region code, or a city outside CITIES: a registry
 * mistake stops start-up.
 */
export function installProviders(entries: readonly ProviderEntry[]): void {
  const names = new Set<string>();
  const codes = new Set<string>();
  const regions: RegionDefinition[] = [];
  for (const entry of entries) {
    if (!PROVIDER_NAME.test(entry.name) || names.has(entry.name)) {
      throw new Error(`provider registry: "${entry.name}" is malformed or registered twice`);
    }
    names.add(entry.name);
    for (const region of entry.regions) {
      if (codes.has(region.regionCode) || !CITY_SLUGS.includes(region.city)) {
        throw new Error(
          `provider registry: ${entry.name} region "${region.regionCode}" repeats a code or names an unknown city`,
        );
      }
      codes.add(region.regionCode);
      regions.push(Object.freeze({ provider: entry.name, ...region }));
    }
  }
  providerNames.splice(0, providerNames.length, ...names);
  ASIAN_REGIONS = Object.freeze(regions);
  regionCodes.splice(0, regionCodes.length, ...codes);
  CITY_OF_REGION = new Map(regions.map((r) => [r.regionCode, r.city]));
  UPSTREAM_OF_REGION = new Map(regions.map((r) => [r.regionCode, r.upstreamId ?? r.regionCode]));
  ENTRIES = new Map(entries.map((e) => [e.name, e]));
}

/** A record's field notes (field-notes.ts); an empty object when every number means what it says. */
export function fieldNotes(provider: ProviderName, values: NotedValues): FieldNotes {
  return providerEntry(provider)?.fieldNotes(values) ?? {};
}

/** The installed entry of `provider`; undefined for a name the registry does not hold. */
export function providerEntry(provider: ProviderName): ProviderEntry | undefined {
  return ENTRIES.get(provider);
}

export function regionsOf(provider: ProviderName): readonly RegionDefinition[] {
  return ASIAN_REGIONS.filter((r) => r.provider === provider);
}

/**
 * A name a provider could have (lower case, `_` allowed), served or not: stored rows may name a
 * provider that PROVIDERS no longer enables (D65), which is not corruption.
 */
export function isWellFormedProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && PROVIDER_NAME.test(value);
}

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && PROVIDER_NAMES.includes(value);
}

/** D56: the city of a region code of the table; undefined for a code not in it. */
export function cityOfRegion(regionCode: string): CitySlug | undefined {
  return CITY_OF_REGION.get(regionCode);
}

/**
 * The provider's own id of a region code of the table (`region.provider_region_id`): where our
 * code (section 4.5) differs from the vendor's, the vendor's (Linode's Osaka is `jp-osa`).
 */
export function providerRegionId(regionCode: string): string {
  return UPSTREAM_OF_REGION.get(regionCode) ?? regionCode;
}

/** The region codes in any of `cities`, in REGION_CODES order. */
export function regionCodesInCities(cities: readonly CitySlug[]): string[] {
  return REGION_CODES.filter((code) => cities.includes(CITY_OF_REGION.get(code)!));
}

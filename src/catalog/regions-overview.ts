// GET /regions (D56) as a core function: every region of the table with its city and how many
// available records it holds, the cities with their regions, and when each provider's figures
// were observed (D37), so a client can pick places by city and see how old their prices are.
import type { InstanceRow } from './records.js';
import type { ProviderName } from './model.js';
import { ASIAN_REGIONS, CITIES, PROVIDER_NAMES, providerEntry, type CitySlug } from './model.js';

export interface RegionJson {
  provider: ProviderName;
  region_code: string;
  region_name: string;
  /** The provider's own id of the region (equal to region_code where they agree). */
  provider_region_id: string;
  city: CitySlug;
  country_code: string;
  /** Available records in the region now. */
  instances: number;
  /** When the provider's figures were observed upstream (D37); null before its first sync. */
  observed_at: string | null;
}

export interface CityJson {
  city: CitySlug;
  name: string;
  country_code: string;
  regions: { provider: ProviderName; region_code: string }[];
}

export interface ProviderJson {
  name: ProviderName;
  /** D55: the name people know it by (configuration may change it). */
  display_name: string;
  /** Its network block storage, where it sells one apart (ProviderEntry.blockStorage); else null. */
  block_storage: string | null;
}

export interface RegionsData {
  providers: ProviderJson[];
  regions: RegionJson[];
  cities: CityJson[];
}

/**
 * `records`: the available records of the current catalogue; `observedAt`: per provider, when
 * its listed figures were observed (absent: never synced); `displayNames`: per provider, its
 * configured display name. Providers in registry order. Regions in the table's order, cities
 * in CITY_SLUGS order, each with its regions in the table's order; regions with no records are
 * listed too (with 0), so the answer always names every place the API knows; every provider
 * with the display name `displayNames` gives it, in PROVIDER_NAMES order.
 */
export function regionsOverview(
  records: readonly InstanceRow[],
  observedAt: ReadonlyMap<ProviderName, Date>,
  displayNames: Readonly<Record<ProviderName, string>>,
): RegionsData {
  const providers = PROVIDER_NAMES.map((name): ProviderJson => ({
    name,
    display_name: displayNames[name] ?? name,
    block_storage: providerEntry(name)?.blockStorage ?? null,
  }));
  const counts = new Map<string, number>();
  for (const row of records) counts.set(row.regionCode, (counts.get(row.regionCode) ?? 0) + 1);
  const regions = ASIAN_REGIONS.map((r): RegionJson => ({
    provider: r.provider,
    region_code: r.regionCode,
    region_name: r.regionName,
    provider_region_id: r.upstreamId ?? r.regionCode,
    city: r.city,
    country_code: r.countryCode,
    instances: counts.get(r.regionCode) ?? 0,
    observed_at: observedAt.get(r.provider)?.toISOString() ?? null,
  }));
  const cities = CITIES.map((c): CityJson => ({
    city: c.city,
    name: c.name,
    country_code: c.countryCode,
    regions: ASIAN_REGIONS.filter((r) => r.city === c.city).map((r) => ({
      provider: r.provider,
      region_code: r.regionCode,
    })),
  }));
  return { providers, regions, cities };
}

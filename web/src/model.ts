// The API's vocabulary as the page needs it (docs/api.md): providers, regions, families, stacks,
// and the shapes of the responses it reads.
export const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
/**
 * Providers' display names (D55): the API's defaults until the page has seen a record, then
 * whatever the API calls them (`provider.display_name`, which configuration may change).
 */
export const PROVIDER_LABEL: Record<string, string> = {
  provider_a: 'Linode',
  provider_b: 'Vultr',
  provider_c: 'AWS',
};
/** Takes the display names the API gave these records (a renamed provider is named so). */
export function learnProviderNames(records: readonly InstanceRecord[]): void {
  for (const r of records) PROVIDER_LABEL[r.provider.name] = r.provider.display_name;
}

export interface RegionInfo {
  readonly provider: string;
  readonly code: string;
  readonly city: string;
  readonly country: string;
}
export const REGIONS: readonly RegionInfo[] = [
  { provider: 'provider_a', code: 'ap-northeast', city: 'Tokyo', country: 'JP' },
  { provider: 'provider_a', code: 'ap-south', city: 'Osaka', country: 'JP' },
  { provider: 'provider_a', code: 'ap-southeast', city: 'Singapore', country: 'SG' },
  { provider: 'provider_b', code: 'icn', city: 'Seoul', country: 'KR' },
  { provider: 'provider_b', code: 'nrt', city: 'Tokyo', country: 'JP' },
  { provider: 'provider_b', code: 'itm', city: 'Osaka', country: 'JP' },
  { provider: 'provider_c', code: 'ap-northeast-1', city: 'Tokyo', country: 'JP' },
  { provider: 'provider_c', code: 'ap-northeast-2', city: 'Seoul', country: 'KR' },
  { provider: 'provider_c', code: 'ap-northeast-3', city: 'Osaka', country: 'JP' },
  { provider: 'provider_c', code: 'ap-southeast-1', city: 'Singapore', country: 'SG' },
  { provider: 'provider_c', code: 'ap-east-1', city: 'Hong Kong', country: 'HK' },
];
/** D56's cities, slug to name, in the API's order (GET /regions lists their regions). */
export const CITY_NAMES: Readonly<Record<string, string>> = {
  tokyo: 'Tokyo',
  seoul: 'Seoul',
  osaka: 'Osaka',
  singapore: 'Singapore',
  'hong-kong': 'Hong Kong',
};
export function cityName(slug: string): string {
  return CITY_NAMES[slug] ?? slug;
}

/** GET /regions (D56). */
export interface RegionsData {
  regions: {
    provider: string;
    region_code: string;
    region_name: string;
    city: string;
    country_code: string;
    instances: number;
    observed_at: string | null;
  }[];
  cities: {
    city: string;
    name: string;
    country_code: string;
    regions: { provider: string; region_code: string }[];
  }[];
}

export function regionLabel(code: string): string {
  const region = REGIONS.find((r) => r.code === code);
  return region === undefined ? code : `${region.city} (${region.code})`;
}

export const FAMILIES = ['general', 'compute', 'memory', 'storage', 'gpu'] as const;
export const STACKS = [
  'nginx',
  'php-fpm',
  'mysql',
  'mariadb',
  'postgresql',
  'redis',
  'elasticsearch',
  'nodejs',
  'docker',
  'mongodb',
] as const;
export const SCALES = ['small', 'medium', 'large'] as const;
/**
 * The currencies the API accepts (D43: USD and the ECB reference set), those people in these
 * regions ask for first, then the rest alphabetically. A test checks every one against the
 * API's `allowed` list.
 */
export const CURRENCIES = [
  'USD',
  'EUR',
  'JPY',
  'KRW',
  'SGD',
  'HKD',
  'CNY',
  'INR',
  'IDR',
  'MYR',
  'PHP',
  'THB',
  'AUD',
  'NZD',
  'GBP',
  'BRL',
  'CAD',
  'CHF',
  'CZK',
  'DKK',
  'HUF',
  'ILS',
  'ISK',
  'MXN',
  'NOK',
  'PLN',
  'RON',
  'SEK',
  'TRY',
  'ZAR',
] as const;

/**
 * English names of the currencies, as `Intl.DisplayNames(['en'], { type: 'currency' })` gives
 * them (checked by test/web/format.test.ts): written out so the first render creates no Intl
 * object (see CURRENCY_FORMAT in format.ts).
 */
export const CURRENCY_NAMES: Readonly<Record<(typeof CURRENCIES)[number], string>> = {
  USD: 'US Dollar',
  EUR: 'Euro',
  JPY: 'Japanese Yen',
  KRW: 'South Korean Won',
  SGD: 'Singapore Dollar',
  HKD: 'Hong Kong Dollar',
  CNY: 'Chinese Yuan',
  INR: 'Indian Rupee',
  IDR: 'Indonesian Rupiah',
  MYR: 'Malaysian Ringgit',
  PHP: 'Philippine Peso',
  THB: 'Thai Baht',
  AUD: 'Australian Dollar',
  NZD: 'New Zealand Dollar',
  GBP: 'British Pound',
  BRL: 'Brazilian Real',
  CAD: 'Canadian Dollar',
  CHF: 'Swiss Franc',
  CZK: 'Czech Koruna',
  DKK: 'Danish Krone',
  HUF: 'Hungarian Forint',
  ILS: 'Israeli New Shekel',
  ISK: 'Icelandic Króna',
  MXN: 'Mexican Peso',
  NOK: 'Norwegian Krone',
  PLN: 'Polish Zloty',
  RON: 'Romanian Leu',
  SEK: 'Swedish Krona',
  TRY: 'Turkish Lira',
  ZAR: 'South African Rand',
};
export function currencyLabel(code: string): string {
  return `${code} · ${(CURRENCY_NAMES as Readonly<Record<string, string>>)[code] ?? code}`;
}

export interface InstanceRecord {
  id: number;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  memory_mb: number;
  storage_gb: number;
  transfer_tb: number;
  network_speed_gbps: number;
  gpu_count: number;
  gpu_type: string | null;
  instance_family: string;
  /** Which zeros mean "not included" or "not published" (docs/api.md); `{}` for none. */
  field_notes?: Partial<Record<'storage_gb' | 'transfer_tb' | 'network_speed_gbps', string>>;
  provider: { id: number; name: string; display_name: string };
  region: {
    id: number;
    region_code: string;
    region_name: string;
    country_code: string;
    city?: string;
  };
  pricing: {
    hourly_price: number;
    monthly_price: number;
    currency: string;
    available: number;
    observed_at?: string;
    monthly_price_per_vcpu?: number | null;
    monthly_price_per_gb?: number | null;
  };
}

export interface InstancesData {
  instances: InstanceRecord[];
  pagination: { total: number; limit: number; offset: number; has_more: boolean };
  metadata: { cached: boolean; last_sync: string | null; query_time_ms: number };
}

export interface DataSource {
  kind: string;
  observed_at: string;
  source: string;
  /** D57: whole days since observed_at, and whether that is over DATA_STALE_DAYS. */
  age_days?: number;
  stale?: boolean;
}
export interface ProviderHealth {
  name: string;
  status: string;
  last_sync: string | null;
  sync_status: string;
  regions_count: number;
  instances_count: number;
  error?: string;
  /** null before the provider's first successful sync. */
  data_source?: DataSource | null;
}
export interface HealthReport {
  status: string;
  timestamp: string;
  components: {
    database: { status: string; latency_ms: number };
    rate_limiter?: { status: string; latency_ms: number; backend: string };
    providers: ProviderHealth[];
    exchange_rates?: { status: string; as_of: string; source: string; last_refresh: string | null };
  };
  summary: {
    total_providers: number;
    healthy_providers: number;
    total_regions: number;
    total_instances: number;
  };
}

export interface SyncResult {
  sync_id: string;
  success: boolean;
  total_duration_ms: number;
  providers: {
    provider: string;
    success: boolean;
    regions_synced: number;
    instances_synced: number;
    pricing_synced: number;
    duration_ms: number;
    error?: string;
    error_details?: { code: string; message: string };
  }[];
}

export interface Recommendation {
  rank: number;
  id?: number;
  provider: string;
  instance: string;
  instance_id?: string;
  region: string;
  region_code?: string;
  specs: { vcpu: number; memory_mb: number; storage_gb: number };
  price: { monthly: number; hourly: number; currency?: string };
  match_score: number;
  pros: string[];
  cons: string[];
}
export interface RecommendData {
  requirements: { min_memory_mb: number; min_vcpu: number; breakdown: Record<string, string> };
  recommendations: Recommendation[];
}

export interface PricePeriod {
  valid_from: string;
  valid_to: string | null;
  hourly_price: number;
  monthly_price: number;
  currency: string;
  available: boolean;
}
export interface HistoryData {
  instance: InstanceRecord;
  history: PricePeriod[];
}

export const CHANGE_KINDS = [
  'added',
  'removed',
  'returned',
  'price_increased',
  'price_decreased',
] as const;
export const CHANGE_KIND_LABEL: Readonly<Record<string, string>> = {
  added: 'New',
  removed: 'Removed',
  returned: 'Back',
  price_increased: 'Price up',
  price_decreased: 'Price down',
};
export interface ChangeItem {
  id: number;
  at: string;
  sync_id: string;
  kind: string;
  instance: {
    id: number;
    provider: string;
    region_code: string;
    instance_id: string;
    instance_name: string;
  };
  old: { hourly_price: number; monthly_price: number; currency?: string } | null;
  new: { hourly_price: number; monthly_price: number; currency?: string } | null;
  change_pct: number | null;
}
export interface ChangesData {
  changes: ChangeItem[];
  next_cursor: string | null;
}

export interface InstanceTypeRow {
  provider: string;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  memory_mb: number;
  gpu_count: number;
  instance_family: string;
  prices: Record<string, { id: number; hourly_price: number; monthly_price: number }>;
  cheapest_region: string;
  min_monthly_price: number;
  max_monthly_price: number;
  spread_pct: number | null;
}
export interface InstanceTypesData {
  instance_types: InstanceTypeRow[];
  pagination: { total: number; limit: number; offset: number; has_more: boolean };
  metadata: { regions: string[]; available_in: string };
}

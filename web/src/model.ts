// The API's vocabulary as the page needs it (docs/api.md). The shapes of the answers are the
// served OpenAPI document's, generated into api-types.ts (`npm run web:types`); providers,
// regions and cities come from GET /regions at run time (places.ts), never from a copy here.
// The closed enums below (families, stacks, scales) are the API's own lists in the order the
// page offers them, each checked against the document's enum (`satisfies`); currencies depend on
// the exchange rates loaded (a test checks them against the API's `allowed`).
// `.js`: the tests import this file under Node's resolution too (type-only: nothing is loaded).
import type { components, operations } from './api-types.js';

type Schemas = components['schemas'];
/** The JSON body of an operation's 200 answer. */
type Json<Op extends keyof operations> = operations[Op]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
/** Its `data` (what apiJson resolves with). */
type Data<Op extends keyof operations> = Json<Op> extends { data: infer D } ? D : never;

/** GET /regions (D56): regions, cities and providers with their display names. */
export type RegionsData = Data<'listRegions'>;

type RecommendBody = operations['recommendInstances']['requestBody']['content']['application/json'];

export const FAMILIES = [
  'general',
  'compute',
  'memory',
  'storage',
  'gpu',
] as const satisfies readonly Schemas['InstanceRecord']['instance_family'][];
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
] as const satisfies RecommendBody['stack'];
export const SCALES = [
  'small',
  'medium',
  'large',
] as const satisfies readonly RecommendBody['scale'][];
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
/** The URL's currency when the API converts to it (CURRENCIES), else undefined. */
export function knownCurrency(value: string | null): string | undefined {
  return (CURRENCIES as readonly string[]).includes(value ?? '') ? value! : undefined;
}

export function currencyLabel(code: string): string {
  return `${code} · ${(CURRENCY_NAMES as Readonly<Record<string, string>>)[code] ?? code}`;
}

export type InstanceRecord = Schemas['InstanceRecord'];
export type InstancesData = Data<'listInstances'>;

export type HealthReport = Json<'getHealth'>;
export type ProviderHealth = HealthReport['components']['providers'][number];
export type DataSource = NonNullable<ProviderHealth['data_source']>;

export type SyncResult = Data<'syncProviders'>;

export type RecommendData = Data<'recommendInstances'>;
export type Recommendation = RecommendData['recommendations'][number];

export type PricePeriod = Schemas['PricePeriod'];
export type HistoryData = Data<'getInstanceHistory'>;

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
export type ChangeItem = Schemas['ChangeItem'];
export type ChangesData = Data<'listChanges'>;

export type InstanceTypeRow = Schemas['InstanceTypeRow'];
export type InstanceTypesData = Data<'listInstanceTypes'>;

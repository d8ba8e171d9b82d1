// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { Type, type TSchema } from 'typebox';
import type { FILTER_PARAMETERS } from '../../catalog/instance-query.js';
import { MAX_LIMIT, MAX_OFFSET, SORT_FIELDS } from '../../catalog/instance-query.js';
import { FIELD_NOTES, NOTED_FIELDS, type FieldNote } from '../../catalog/field-notes.js';
import { defaultProviders } from '../../providers/registry.js';
import { THIRD_PROVIDER } from './example-providers.js';
import {
  CITY_SLUGS,
  INSTANCE_FAMILIES,
  PROVIDER_NAMES,
  REGION_CODES,
} from '../../catalog/model.js';
import { InstalledEnum, StringEnum } from './common.js';
import { CPU_ALLOCATIONS, CPU_ARCHITECTURES, STORAGE_TYPES } from '../../catalog/machine-facts.js';
import { PURCHASE_OPTIONS, SPOT_INTERRUPTION_BANDS } from '../../catalog/purchase-options.js';

const nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** One purchase option's prices on a record (D61 `pricing.options`). */
const OptionPriceJsonSchema = Type.Object({
  hourly_price: Type.Number({ description: "Per hour in the record's currency, 4 decimals." }),
  monthly_price: Type.Number({ description: "Per month, rounded as the record's monthly_price." }),
  observed_at: Type.String({
    format: 'date-time',
    description: "When this option's figure was observed upstream (D37).",
  }),
});

/** D62's `cpu` object of a record. */
export const CpuFacts = Type.Object(
  {
    architecture: nullable(
      StringEnum(CPU_ARCHITECTURES),
      'x86_64 or arm64; null when not recorded. Filter: `arch`.',
    ),
    manufacturer: nullable(
      Type.String(),
      'CPU maker as recorded (Intel, AMD, AWS...); null when not recorded.',
    ),
    model: nullable(
      Type.String(),
      'CPU family and model as recorded (e.g. "Xeon 8488C", "ARMv8 Neoverse-N1"); null when not recorded.',
    ),
    allocation: nullable(
      StringEnum(CPU_ALLOCATIONS),
      "dedicated (cores of its own), shared (cores shared with other guests, no credit scheme) or burstable (a baseline share with bursts on credits: sustained load is throttled or billed beyond the baseline); from the provider's recording or its published plan class; null when not recorded. Filter: `cpu_allocation`.",
    ),
  },
  {
    description:
      "Extension (D62): the type's CPU. Every value comes from a recorded source or the vendor's published plan class (docs/api.md names each provider's rule); null is unknown, never a guess.",
  },
);

/** D63's `benchmark` of a record. */
export const BenchmarkFacts = Type.Union(
  [
    Type.Object({
      coremark: Type.Number({
        description:
          'CoreMark iterations per second, multi-threaded over all vCPUs, as recorded for the type (rounded to a whole number).',
        examples: [97652],
      }),
      coremark_per_usd_month: Type.Union([Type.Number(), Type.Null()], {
        description:
          "coremark / this record's monthly price in USD, 2 decimals (whatever `currency` shows); null for a free record. Sort: `sort_by=coremark_per_price`.",
      }),
      ran_at: Type.String({ format: 'date-time', description: 'When the benchmark ran.' }),
      source: Type.String({ description: 'Where the figure was recorded.' }),
    }),
    Type.Null(),
  ],
  {
    description:
      'Extension (D63): a recorded CoreMark score of the type, indicative only (one run on one machine of the type); null when none is recorded (every provider but AWS today).',
  },
);

/**
 * The cases of `note` of every provider a default start serves (D65: the document is built
 * before the configuration is read), each after its provider's name, by case.
 */
function fieldNoteCases(note: FieldNote, separator: string): string {
  return defaultProviders()
    .flatMap((p) => (p.fieldNoteCases[note] ?? []).map((text) => ({ p, text })))
    .sort((x, y) => (x.text < y.text ? -1 : x.text > y.text ? 1 : 0))
    .map(({ p, text }) => `${p.name} ${text}`)
    .join(separator);
}

const Enum = (values: readonly string[], description: string) =>
  StringEnum(values, { description });

export const InstanceRecord = Type.Object(
  {
    id: Type.Integer({ description: 'Record id: one per instance type and region.' }),
    instance_id: Type.String({ description: "The provider's own instance type id." }),
    instance_name: Type.String(),
    vcpu: Type.Integer(),
    memory_mb: Type.Integer(),
    storage_gb: Type.Integer({
      description:
        'Local storage in GB; 0 when the type has none (network storage only: field_notes.storage_gb is then `not_included`).',
    }),
    transfer_tb: Type.Number({
      description:
        'Monthly transfer included, in TB (1 TB = 1000 GB). 0 with field_notes.transfer_tb `not_included`: none is included, transfer is billed per GB.',
    }),
    network_speed_gbps: Type.Number({
      description:
        'Network speed in Gbps. 0 with field_notes.network_speed_gbps `not_published` (the provider publishes no figure) or `not_recorded` (the recording the record comes from holds none): 0 is then a placeholder, not a speed.',
    }),
    gpu_count: Type.Integer(),
    gpu_type: Type.Union([Type.String(), Type.Null()]),
    instance_family: Enum(INSTANCE_FAMILIES, 'general, compute, memory, storage or gpu'),
    field_notes: Type.Object(
      Object.fromEntries(
        NOTED_FIELDS.map((field) => [field, Type.Optional(StringEnum(FIELD_NOTES))]),
      ),
      {
        additionalProperties: false,
        description:
          "Extension (honest cells): which of this record's numbers are not what a bare number says, keyed by field; `{}` when every number means what it says. `not_included`: the price includes none, the provider sells it apart (" +
          fieldNoteCases('not_included', ', ') +
          '). `not_published`: the upstream publishes no figure and the number shown is a placeholder 0 (' +
          fieldNoteCases('not_published', '; ') +
          '). `not_recorded`: the upstream publishes the figure, but the recording the record comes from holds none, and the number shown is a placeholder 0 (' +
          fieldNoteCases('not_recorded', '; ') +
          '). The numbers themselves are unchanged.',
        examples: [{}, { storage_gb: 'not_included', transfer_tb: 'not_included' }],
      },
    ),
    provider: Type.Object({
      id: Type.Integer(),
      name: InstalledEnum(PROVIDER_NAMES, { description: 'provider name' }),
      display_name: Type.String(),
    }),
    region: Type.Object({
      id: Type.Integer(),
      region_code: Type.String(),
      region_name: Type.String(),
      country_code: Type.String(),
      city: StringEnum(CITY_SLUGS, {
        description:
          'Extension (D56): the city of the region, as a slug (GET /regions gives their names).',
      }),
      provider_region_id: Type.String({
        description:
          "Extension: the provider's own id of the region, where our code (section 4.5, D34) differs from the vendor's: Linode's Osaka is `jp-osa` and its Singapore `ap-south`. Equal to region_code where they agree.",
        examples: ['jp-osa'],
      }),
    }),
    pricing: Type.Object({
      hourly_price: Type.Number({
        description: 'Per hour in `currency`, rounded to 4 decimals.',
      }),
      monthly_price: Type.Number({
        description:
          "Per month in `currency`, rounded to the currency's minor unit (USD, EUR, SGD...: 2 decimals; JPY, KRW, IDR, ISK: 0).",
      }),
      currency: Type.String({
        description: 'USD unless another currency was asked for (D43).',
        examples: ['USD', 'JPY'],
      }),
      monthly_price_per_vcpu: Type.Union([Type.Number(), Type.Null()], {
        description: 'Extension (D45): monthly price / vcpu, rounded like monthly_price.',
      }),
      monthly_price_per_gb: Type.Union([Type.Number(), Type.Null()], {
        description:
          'Extension (D45): monthly price / memory in GiB (memory_mb / 1024), rounded like monthly_price.',
      }),
      available: Type.Integer({
        description:
          '1 when the provider offers the type in the region now. Only available records are listed.',
      }),
      observed_at: Type.String({
        format: 'date-time',
        description: `Extension (D37): when this price was observed upstream. For the bundled snapshots, the date the figures were recorded (e.g. 2024-02-21T08:20:21.000Z for ${THIRD_PROVIDER.name}); after a live sync, when it fetched them.`,
      }),
      purchase_option: StringEnum(PURCHASE_OPTIONS, {
        description:
          'Extension (D61): the purchase option whose prices hourly_price, monthly_price, the per-vCPU/GiB prices and observed_at are: on_demand unless the request selected another.',
      }),
      options: Type.Record(Type.String(), OptionPriceJsonSchema, {
        description: `Extension (D61): every purchase option the record is sold under, on-demand included, by name (${PURCHASE_OPTIONS.join(', ')}), in the record's currency and rounding. Monthly is hourly x 730 for every option but on_demand, whose monthly is as published. Linode and Vultr publish on_demand only.`,
      }),
      spot_advice: nullable(
        Type.Object({
          interruption_band: StringEnum(SPOT_INTERRUPTION_BANDS, {
            description: "AWS Spot Instance Advisor's interruption-frequency band, in AWS's words.",
          }),
          savings_pct: Type.Integer({
            minimum: 0,
            maximum: 100,
            description: "AWS's own figure of the spot saving against on-demand, whole percent.",
          }),
          observed_at: Type.String({ format: 'date-time' }),
          source: Type.String(),
        }),
        "Extension (D61): AWS's published spot advice for the type in the region, where recorded; null otherwise. AWS's figure as published, never turned into a price.",
      ),
    }),
    cpu: CpuFacts,
    gpu_memory_gb: nullable(
      Type.Number(),
      'Extension (D62): total GPU memory in GiB as recorded; null without a GPU or when not recorded.',
    ),
    storage_type: nullable(
      StringEnum(STORAGE_TYPES),
      'Extension (D62): kind of the local storage (nvme_ssd, ssd, hdd); null without local storage or when not recorded.',
    ),
    benchmark: BenchmarkFacts,
  },
  { $id: 'InstanceRecord' },
);

const filterDescriptions: Record<(typeof FILTER_PARAMETERS)[number], unknown> = {
  provider: InstalledEnum(PROVIDER_NAMES, { description: 'Only this provider.' }),
  region: Type.String({
    description: `Only this region code (exact match), or (extension D53) a comma-separated list of codes: any of them. Codes: ${REGION_CODES.join(', ')}. An unknown code, an empty item or more than 256 characters: 400 INVALID_PARAMETER with \`allowed\`.`,
    examples: ['ap-northeast-1', 'icn,nrt,ap-northeast-2'],
  }),
  city: Type.String({
    description: `Extension (D56): only regions in this city, or in any of a comma-separated list of cities: ${CITY_SLUGS.join(', ')} (exact, lower case). With \`region\` too, both must hold (a combination that matches nothing answers an empty list). An unknown slug or an empty item: 400 INVALID_PARAMETER with \`allowed\`.`,
    examples: ['tokyo', 'tokyo,seoul'],
  }),
  min_vcpu: Type.Integer({ minimum: 0, description: 'At least this many vCPUs (whole number).' }),
  max_vcpu: Type.Integer({
    minimum: 0,
    description: 'At most this many vCPUs; not below min_vcpu.',
  }),
  min_memory_gb: Type.Number({ minimum: 0, description: 'memory_mb / 1024 at least this.' }),
  max_memory_gb: Type.Number({
    minimum: 0,
    description: 'memory_mb / 1024 at most this; not below min_memory_gb.',
  }),
  max_price: Type.Number({
    minimum: 0,
    maximum: 1_000_000_000,
    description:
      'Monthly price at most this, in the requested `currency` (USD by default). Plain decimal, cut to the millionth and echoed as the value used. USD: compared with the price as shown (whole cents); another currency: compared with the converted price as shown (rounded to its minor unit).',
  }),
  instance_family: Enum(INSTANCE_FAMILIES, 'Only this family.'),
  has_gpu: Type.Boolean({ description: '`true`: gpu_count > 0; `false`: gpu_count = 0.' }),
  q: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'Extension (D54): instance_id or instance_name contains this text, ignoring the case of ASCII letters. 1 to 64 characters, no control characters. Echoed in filters_applied as it runs (ASCII letters lower-cased).',
    examples: ['t3.', 'linode 8gb'],
  }),
  arch: Type.String({
    description: `Extension (D62): only records whose cpu.architecture is this, or any of a comma-separated list: ${CPU_ARCHITECTURES.join(', ')}. A record whose architecture is not recorded (null) never matches. An unknown value, an empty item or more than 64 characters: 400 INVALID_PARAMETER with \`allowed\`.`,
    examples: ['arm64', 'x86_64,arm64'],
  }),
  cpu_allocation: Type.String({
    description: `Extension (D62): only records whose cpu.allocation is this, or any of a comma-separated list: ${CPU_ALLOCATIONS.join(', ')}. A record whose allocation is not recorded (null) never matches. An unknown value, an empty item or more than 64 characters: 400 INVALID_PARAMETER with \`allowed\`.`,
    examples: ['dedicated', 'dedicated,shared'],
  }),
  purchase_option: StringEnum(PURCHASE_OPTIONS, {
    description:
      "Extension (D61): price every record by this purchase option: only records sold under it are listed, and pricing.hourly_price/monthly_price, the per-vCPU/GiB prices, max_price, the price sorts, coremark_per_price and the currency conversion use its price. AWS: reserved_1y/3y are Standard Reserved Instances and convertible_1y/3y Convertible ones, both No Upfront; spot is AWS's spot price where a spot feed is configured. Linode and Vultr publish on_demand only. Default on_demand. Any other value: 400 INVALID_PARAMETER with `allowed`. Listed in filters_applied only when given.",
  }),
};

/** Every query parameter is optional (spec 4.2). */
const queryParameters = {
  ...(filterDescriptions as Record<string, TSchema>),
  sort_by: Enum(
    SORT_FIELDS,
    'Sort field. Default monthly price. price and monthly_price sort by monthly price, memory_gb by memory, provider by provider name, region by region code, instance_name by code point, price_per_vcpu and price_per_gb (extension, D45) by the exact monthly price per vCPU and per memory GiB, coremark and coremark_per_price (extension, D63) by benchmark.coremark and by that score per USD of monthly price (records without a score come last in either order). Ties always break by id ascending.',
  ),
  order: Enum(['asc', 'desc'], 'Default asc; applies to the default sort too.'),
  currency: Type.String({
    pattern: '^[A-Z]{3}$',
    default: 'USD',
    description:
      'Extension (D43): prices in this currency, converted from USD at the latest ECB reference rate (usd x rate[X] / rate[USD], both per EUR). USD, EUR or any currency in the ECB file (upper case, exact); any other value: 400 INVALID_PARAMETER with `allowed`. metadata.exchange_rate tells the rate used.',
    examples: ['JPY', 'KRW', 'SGD', 'HKD', 'EUR'],
  }),
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }),
  format: Type.String({
    enum: ['json', 'csv'],
    default: 'json',
    description:
      'D47: `csv` answers the same query as CSV (RFC 4180, UTF-8, header row; columns id, provider, region_code, region_name, instance_id, instance_name, vcpu, memory_mb, storage_gb, transfer_tb, network_speed_gbps, gpu_count, gpu_type, instance_family, hourly_price, monthly_price, currency) with Content-Disposition: attachment; filename="instances.csv" and X-Total-Count; `limit` may then be up to 10,000. Without `format`, `Accept: text/csv` preferred over application/json asks for CSV too. A cell beginning with =, +, -, @, tab, CR (or their full-width forms) is prefixed with \'. Errors stay JSON envelopes.',
  }),
  as_of: Type.String({
    description:
      'The catalogue as it was at this instant (D41): ISO 8601 date or date-time with a zone, not in the future. Read from the price history; never cached. Before the first sync: empty.',
    examples: ['2026-01-31T12:00:00Z'],
  }),
};

/** D43's `metadata.exchange_rate`, present when prices are not in USD. */
export const ExchangeRateNote = Type.Object(
  {
    base: Type.Literal('USD'),
    currency: Type.String({ examples: ['JPY'] }),
    rate: Type.Number({
      description:
        'Units of `currency` per 1 USD, rounded to 6 decimals for display; prices are converted with the exact ratio of the two ECB rates.',
      examples: [158.088562],
    }),
    as_of: Type.String({ format: 'date', description: 'The ECB reference date of the rates.' }),
    source: Type.String({
      examples: ['European Central Bank euro foreign exchange reference rates (bundled recording)'],
    }),
  },
  { description: 'Extension (D43): present when prices are not in USD.' },
);

export const InstancesQuery = Type.Object(
  Object.fromEntries(
    Object.entries(queryParameters).map(([name, schema]) => [name, Type.Optional(schema)]),
  ),
);

export const InstancesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    instances: Type.Array(Type.Ref('InstanceRecord')),
    pagination: Type.Object({
      total: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
      has_more: Type.Boolean(),
    }),
    metadata: Type.Object({
      cached: Type.Boolean(),
      last_sync: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'Newest successful sync of any provider, or null before the first.',
      }),
      query_time_ms: Type.Integer(),
      filters_applied: Type.Object({}, { additionalProperties: true }),
      exchange_rate: Type.Optional(ExchangeRateNote),
      as_of: Type.Optional(
        Type.String({ format: 'date-time', description: 'The parsed as_of, when given.' }),
      ),
    }),
  }),
});

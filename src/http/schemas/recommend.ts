// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { CPU_ALLOCATIONS, CPU_ARCHITECTURES } from '../../catalog/machine-facts.js';
import { PURCHASE_OPTIONS } from '../../catalog/purchase-options.js';
import { RANK_BY } from '../../recommend/rank.js';
import { Type } from 'typebox';
import { CITY_SLUGS, PROVIDER_NAMES, REGION_CODES } from '../../catalog/model.js';
import { SCORING_DESCRIPTION } from '../../recommend/scoring-description.js';
import { SCALES, STACK_NAMES } from '../../recommend/stacks.js';
import { InstalledEnum, StringEnum } from './common.js';
import { BenchmarkFacts, CpuFacts, ExchangeRateNote } from './instances.js';

export const RecommendRequestSchema = Type.Object({
  stack: Type.Array(StringEnum(STACK_NAMES), {
    minItems: 1,
    maxItems: 20,
    description: 'Stack names (exact, lower case); duplicates count once.',
  }),
  scale: StringEnum(SCALES),
  budget_max: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 1_000_000_000,
      description:
        'Monthly budget in `currency` (USD by default), cut to the millionth; compared with the monthly price as shown in that currency.',
    }),
  ),
  arch: Type.Optional(
    Type.Array(StringEnum(CPU_ARCHITECTURES), {
      minItems: 1,
      description:
        'Extension (D62): only records whose cpu.architecture is one of these; a record whose architecture is not recorded never matches. Empty, or an unknown entry: 400 INVALID_PARAMETER with `allowed`.',
    }),
  ),
  cpu_allocation: Type.Optional(
    Type.Array(StringEnum(CPU_ALLOCATIONS), {
      minItems: 1,
      description:
        'Extension (D62): only records whose cpu.allocation is one of these; a record whose allocation is not recorded never matches. Empty, or an unknown entry: 400 INVALID_PARAMETER with `allowed`.',
    }),
  ),
  rank_by: Type.Optional(
    StringEnum(RANK_BY, {
      description:
        'Extension (D67): `fit` (default; D28 and D58, unchanged), `price` (records meeting the memory and vCPU suggestion and the budget first, cheapest first, then the rest by D58) or `performance_per_price` (as `price`, ordered by benchmark.coremark_per_usd_month descending, records without a score after those with one). One record per provider and instance type either way.',
    }),
  ),
  purchase_option: Type.Optional(
    StringEnum(PURCHASE_OPTIONS, {
      description:
        "Extension (D61): rank by this purchase option's prices (default on_demand): only records sold under it are candidates, and the budget, price_fit, the price order and the shown prices use its price; cons name its terms (a 1- or 3-year commitment; spot: can be interrupted, with AWS's interruption band where recorded). Any other value: 400 INVALID_PARAMETER with `allowed`.",
    }),
  ),
  currency: Type.Optional(
    Type.String({
      pattern: '^[A-Z]{3}$',
      default: 'USD',
      description:
        'Extension (D43): prices and budget_max in this currency (USD, EUR or any currency of the ECB reference rates); otherwise 400 INVALID_PARAMETER with `allowed`.',
      examples: ['JPY'],
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Extension.' }),
  ),
  providers: Type.Optional(
    Type.Array(InstalledEnum(PROVIDER_NAMES), { minItems: 1, description: 'Extension.' }),
  ),
  regions: Type.Optional(
    Type.Array(InstalledEnum(REGION_CODES), { minItems: 1, description: 'Extension.' }),
  ),
  cities: Type.Optional(
    Type.Array(StringEnum(CITY_SLUGS), {
      minItems: 1,
      description:
        'Extension (D56): only candidates in these cities (slugs, exact, lower case; duplicates count once). With `regions` too, both must hold: no region in common gives no recommendations. Not a non-empty array of slugs: 400 INVALID_PARAMETER with `allowed`.',
      examples: [['tokyo', 'seoul']],
    }),
  ),
});

export const RecommendResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    requirements: Type.Object({
      min_memory_mb: Type.Integer(),
      min_vcpu: Type.Integer(),
      breakdown: Type.Record(Type.String(), Type.String(), {
        description:
          'One entry per stack name plus os_overhead: "<n>MB" below 1024 MB, else "<n>GB".',
      }),
    }),
    recommendations: Type.Array(
      Type.Object({
        rank: Type.Integer({ minimum: 1 }),
        provider: InstalledEnum(PROVIDER_NAMES),
        instance: Type.String(),
        region: Type.String({ description: 'Region display name.' }),
        specs: Type.Object({
          vcpu: Type.Integer(),
          memory_mb: Type.Integer(),
          storage_gb: Type.Integer(),
        }),
        price: Type.Object({
          monthly: Type.Number({ description: "Rounded to the currency's minor unit." }),
          hourly: Type.Number({ description: 'Rounded to 4 decimals.' }),
          currency: Type.String({ description: 'Extension (D43).', examples: ['USD'] }),
          purchase_option: StringEnum(PURCHASE_OPTIONS, {
            description: 'Extension (D61): the purchase option these prices are of.',
          }),
        }),
        match_score: Type.Integer({ minimum: 0, maximum: 100 }),
        score_breakdown: Type.Object(
          {
            memory_fit: Type.Number({ description: 'min_memory_mb / memory_mb.' }),
            vcpu_fit: Type.Number({ description: 'min(1, vcpu / min_vcpu).' }),
            price_fit: Type.Number({
              description:
                'Lowest monthly price among all candidates of the request (over-budget ones included) / this monthly price.',
            }),
            storage_fit: Type.Number({
              description: '1 with local storage (storage_gb > 0), else 0.5.',
            }),
            tie_break: Type.Number({
              description:
                '0.4 memory_fit + 0.3 vcpu_fit + 0.2 price_fit + 0.1 storage_fit, from the unrounded fits; orders equal match_score, higher first.',
            }),
          },
          {
            description:
              'D58: the fits that order recommendations with equal match_score, each rounded to 4 decimals.',
          },
        ),
        pros: Type.Array(Type.String()),
        cons: Type.Array(Type.String(), {
          description:
            'Includes, when they hold: how much dearer than rank 1 (amount and percent), no local storage, a stale price with its observation date.',
        }),
        id: Type.Integer({
          description: 'Extension: the record id, as in /instances (links to the record).',
        }),
        instance_id: Type.String({ description: "Extension: the provider's instance type id." }),
        region_code: Type.String({ description: 'Extension: the region code of the record.' }),
        cpu: CpuFacts,
        benchmark: BenchmarkFacts,
        observed_at: Type.String({
          format: 'date-time',
          description:
            "Extension (D37): when this record's price was observed upstream, as pricing.observed_at in /instances.",
        }),
      }),
      { description: SCORING_DESCRIPTION },
    ),
    summary: Type.Object(
      {
        candidates: Type.Integer({
          description:
            'Records passing the filters and the memory floor (D28), over budget included.',
        }),
        within_budget: Type.Integer({
          description: 'Of those, within budget_max (all of them without a budget).',
        }),
        cheapest_meeting_requirements: Type.Union(
          [
            Type.Object({
              provider: Type.String(),
              instance: Type.String(),
              region: Type.String(),
              monthly: Type.Number({ description: 'Monthly price in `currency`.' }),
            }),
            Type.Null(),
          ],
          {
            description:
              'The cheapest record meeting the memory and vCPU suggestion and the budget; null when none does (nothing fits the budget).',
          },
        ),
      },
      { description: 'Extension (D67): what the candidates are, whatever the order.' },
    ),
  }),
  meta: Type.Object({
    query_time_ms: Type.Integer(),
    exchange_rate: Type.Optional(ExchangeRateNote),
  }),
});

// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { SECOND_PROVIDER } from './example-providers.js';
import { Type } from 'typebox';
import { CITY_SLUGS, PROVIDER_NAMES, REGION_CODES } from '../../catalog/model.js';
import { CHANGE_KINDS } from '../../catalog/price-change-model.js';
import { CHANGE_ORDERS, CHANGES_MAX_LIMIT } from '../../history/history-query.js';
import { CHANGES_SUMMARY_MAX_SYNCS } from '../../history/history-service.js';
import { InstalledEnum, StringEnum } from './common.js';
import { INSTANCE_RECORD_EXAMPLE } from './examples.js';
import { PURCHASE_OPTIONS } from '../../catalog/purchase-options.js';
import { ExchangeRateNote } from './instances.js';

// The history endpoints (D39, D40) and `as_of` (D41).

const Instant = (description: string) =>
  Type.String({ description, examples: ['2026-01-31', '2026-01-31T12:00:00Z'] });

const Price = Type.Object({
  hourly_price: Type.Number({
    description: 'Per hour in the requested currency (USD by default), rounded to 4 decimals.',
  }),
  monthly_price: Type.Number({
    description:
      'Per month in the requested currency, rounded to its minor unit (USD: 2 decimals; JPY, KRW: 0).',
  }),
  currency: Type.Optional(
    Type.String({ description: 'Extension (D43): present when the currency is not USD.' }),
  ),
});

/** `currency` (D43) on the history endpoints. */
const CurrencyParameter = Type.String({
  pattern: '^[A-Z]{3}$',
  default: 'USD',
  description:
    'Extension (D43): prices in this currency, converted from USD at the latest ECB reference rate. USD, EUR or any currency in the ECB file (upper case, exact); any other value: 400 INVALID_PARAMETER with `allowed`.',
  examples: ['JPY', 'KRW', 'SGD', 'HKD', 'EUR'],
});

const MoneyMetadata = Type.Optional(
  Type.Object(
    { exchange_rate: ExchangeRateNote },
    { description: 'Extension (D43): present when prices are not in USD.' },
  ),
);

export const PricePeriod = Type.Object(
  {
    valid_from: Type.String({
      format: 'date-time',
      description: 'completed_at of the sync that opened the period.',
    }),
    valid_to: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'completed_at of the sync that closed it; null while current.',
    }),
    hourly_price: Type.Number(),
    monthly_price: Type.Number(),
    currency: Type.String({ description: 'USD unless another currency was asked for (D43).' }),
    available: Type.Boolean({
      description: 'false: the provider did not offer the record then (prices are the last seen).',
    }),
    purchase_option: StringEnum(PURCHASE_OPTIONS, {
      description: 'Extension (D61): the purchase option the period prices.',
    }),
  },
  { $id: 'PricePeriod' },
);

export const HistoryParams = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Record id, as in /instances.' }),
});

export const HistoryQuery = Type.Object({
  currency: Type.Optional(CurrencyParameter),
  purchase_option: Type.Optional(
    StringEnum(PURCHASE_OPTIONS, {
      description:
        'Extension (D61): the periods of this purchase option (default on_demand), and the record priced by it where it is sold under it. A record never sold under the option has no periods of it. Any other value: 400 INVALID_PARAMETER with `allowed`.',
    }),
  ),
});

export const HistoryResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      instance: Type.Ref('InstanceRecord'),
      history: Type.Array(Type.Ref('PricePeriod'), {
        description: 'Newest first; at most the newest 1,000 periods.',
      }),
      metadata: MoneyMetadata,
    }),
  },
  {
    examples: [
      {
        success: true,
        data: {
          instance: INSTANCE_RECORD_EXAMPLE,
          history: [
            {
              valid_from: '2026-01-03T00:00:00.000Z',
              valid_to: null,
              hourly_price: 0.0082,
              monthly_price: 6,
              currency: 'USD',
              available: true,
              purchase_option: 'on_demand',
            },
            {
              valid_from: '2026-01-01T00:00:00.000Z',
              valid_to: '2026-01-03T00:00:00.000Z',
              hourly_price: 0.0068,
              monthly_price: 5,
              currency: 'USD',
              available: true,
              purchase_option: 'on_demand',
            },
          ],
        },
      },
    ],
  },
);

export const ChangeItem = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time', description: 'completed_at of the sync.' }),
    sync_id: Type.String(),
    kind: StringEnum(CHANGE_KINDS),
    purchase_option: StringEnum(PURCHASE_OPTIONS, {
      description:
        "Extension (D61): the purchase option whose price changed; a record's options change apart.",
    }),
    instance: Type.Object({
      id: Type.Integer({ description: 'Record id, as in /instances.' }),
      provider: InstalledEnum(PROVIDER_NAMES),
      region_code: Type.String(),
      instance_id: Type.String(),
      instance_name: Type.String(),
    }),
    old: Type.Union([Price, Type.Null()], {
      description: 'Prices offered before; null for added and returned.',
    }),
    new: Type.Union([Price, Type.Null()], {
      description: 'Prices offered after; null for removed.',
    }),
    change_pct: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Monthly price change in percent of the old price (2 decimals); null unless both sides exist.',
    }),
  },
  { $id: 'ChangeItem' },
);

export const ChangesQuery = Type.Object({
  since: Type.Optional(Instant('Inclusive start; default 7 days ago.')),
  until: Type.Optional(Instant('Exclusive end; default none.')),
  provider: Type.Optional(InstalledEnum(PROVIDER_NAMES)),
  region: Type.Optional(InstalledEnum(REGION_CODES)),
  city: Type.Optional(
    Type.String({
      description: `Extension (D56): only items whose region is in this city, or in any of a comma-separated list of cities: ${CITY_SLUGS.join(', ')} (exact, lower case). With \`region\` too, both must hold (no region in common: no items). An unknown slug or an empty item: 400 INVALID_PARAMETER with \`allowed\`.`,
      examples: ['tokyo', 'seoul,osaka'],
    }),
  ),
  kind: Type.Optional(
    Type.String({
      description: `One kind, or (extension, ADR 0022) a comma-separated list of kinds: ${CHANGE_KINDS.join(', ')} (exact, lower case). An unknown kind or an empty item: 400 INVALID_PARAMETER with \`allowed\`.`,
      examples: ['price_increased', 'price_increased,price_decreased'],
    }),
  ),
  sync_id: Type.Optional(
    Type.String({
      description: "Extension (ADR 0022): only the items of this sync (an item's `sync_id`).",
      examples: ['sync_1767398400000_a1b2c3d4e5f6'],
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CHANGES_MAX_LIMIT, default: 100 })),
  cursor: Type.Optional(
    Type.String({
      description:
        'next_cursor of the previous page, as given (opaque). It is a position in the feed: with `order=newest` the page continues below it, otherwise above it.',
    }),
  ),
  order: Type.Optional(
    StringEnum(CHANGE_ORDERS, {
      description:
        'Extension (ADR 0022): `oldest` (the default) is commit order (D40); `newest` is the same order reversed. Anything else: 400 INVALID_PARAMETER with `allowed`.',
    }),
  ),
  summary: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Extension (ADR 0022): `true` adds data.summary, the counts over every item of the window and filters (not only this page; `cursor` and `limit` do not change them).',
    }),
  ),
  currency: Type.Optional(CurrencyParameter),
  purchase_option: Type.Optional(
    StringEnum([...PURCHASE_OPTIONS, 'all'], {
      description:
        'Extension (D61): only the items of this purchase option; default on_demand; `all` lists every option. Any other value: 400 INVALID_PARAMETER with `allowed`.',
    }),
  ),
});

const ChangeSummary = Type.Object(
  {
    total: Type.Integer({ description: 'Items matching the window and filters, on every page.' }),
    kinds: Type.Object(
      Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, Type.Integer()])) as Record<
        (typeof CHANGE_KINDS)[number],
        ReturnType<typeof Type.Integer>
      >,
      { description: 'Items per kind (0 for a kind with none).' },
    ),
    syncs: Type.Array(
      Type.Object({
        sync_id: Type.String(),
        at: Type.String({ format: 'date-time', description: 'completed_at of the sync.' }),
        kind: StringEnum(CHANGE_KINDS),
        provider: InstalledEnum(PROVIDER_NAMES),
        count: Type.Integer(),
      }),
      {
        description: `Items per sync, kind and provider: newest sync first, at most the newest ${CHANGES_SUMMARY_MAX_SYNCS} groups.`,
      },
    ),
    syncs_complete: Type.Boolean({
      description: `false when there were more than ${CHANGES_SUMMARY_MAX_SYNCS} groups (the oldest are left out).`,
    }),
  },
  { description: 'Extension (ADR 0022): present when asked with summary=true.' },
);

export const ChangesResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      changes: Type.Array(Type.Ref('ChangeItem'), {
        description: 'Oldest first; newest first with order=newest.',
      }),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass as `cursor` for the next page; null on the last page.',
      }),
      summary: Type.Optional(ChangeSummary),
      metadata: MoneyMetadata,
    }),
  },
  {
    examples: [
      {
        success: true,
        data: {
          changes: [
            {
              id: 7,
              at: '2026-01-03T00:00:00.000Z',
              sync_id: 'sync_1767398400000_a1b2c3d4e5f6',
              kind: 'price_increased',
              purchase_option: 'on_demand',
              instance: {
                id: 42,
                provider: SECOND_PROVIDER.name,
                region_code: 'icn',
                instance_id: 'vc2-1c-1gb',
                instance_name: 'vc2-1c-1gb',
              },
              old: { hourly_price: 0.0068, monthly_price: 5 },
              new: { hourly_price: 0.0082, monthly_price: 6 },
              change_pct: 20,
            },
          ],
          next_cursor: null,
        },
      },
    ],
  },
);

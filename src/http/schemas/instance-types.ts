// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { THIRD_PROVIDER } from './example-providers.js';
import { Type, type Static } from 'typebox';
import { AVAILABLE_IN, INSTANCE_TYPE_SORTS } from '../../catalog/instance-types/pivot.js';
import {
  INSTANCE_TYPE_COLUMNS,
  INSTANCE_TYPES_MAX_LIMIT,
} from '../../catalog/instance-types/instance-types-query.js';
import {
  CITY_SLUGS,
  INSTANCE_FAMILIES,
  PROVIDER_NAMES,
  REGION_CODES,
} from '../../catalog/model.js';
import { InstalledEnum, StringEnum } from './common.js';
import { ExchangeRateNote, InstancesQuery } from './instances.js';

// GET /instance-types (D46): instance types with their prices per region side by side.

const {
  region: _region,
  as_of: _asOf,
  sort_by: _sort,
  limit: _limit,
  ...filters
} = InstancesQuery.properties;

export const InstanceTypesQuery = Type.Object({
  ...filters,
  regions: Type.Optional(
    Type.String({
      description: `Comma-separated region codes whose prices are shown, in this order (default: every Asian region, ${REGION_CODES.join(',')}). With \`city\` (D56), only those in one of its cities. Duplicates are dropped; an empty item, an unknown code or more than 256 characters: 400 INVALID_PARAMETER with \`allowed\`. \`region\` is refused here (use \`regions\`).`,
      examples: ['ap-northeast-1,ap-northeast-2,ap-southeast-1'],
    }),
  ),
  columns: Type.Optional(
    StringEnum(INSTANCE_TYPE_COLUMNS, {
      description:
        'Extension (D56): `region` (default) keys `prices` by region code and `cheapest_region` holds a region code; `city` keys `prices` by city slug (a provider has at most one region per city), in the order tokyo, seoul, osaka, singapore, hong-kong, and `cheapest_region` then holds a city slug. metadata then gains `columns` and `cities`.',
    }),
  ),
  available_in: Type.Optional(
    StringEnum(AVAILABLE_IN, {
      description:
        '`any` (default): types offered in at least one listed region. `all`: only types offered in every listed region of their provider (regions are per provider: a provider none of whose regions is listed has no rows).',
    }),
  ),
  sort_by: Type.Optional(
    StringEnum(INSTANCE_TYPE_SORTS, {
      description:
        'Default min_price (cheapest monthly price among the listed regions). max_price: the dearest; spread: spread_pct, exact (a null spread is last in both orders); vcpu; memory (memory_mb); instance_id by code point. Ties break on provider then instance_id, ascending. Prices sort by the exact USD price, so the order is the same in every currency.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: INSTANCE_TYPES_MAX_LIMIT, default: 50 }),
  ),
});

const RegionPrice = Type.Object({
  id: Type.Integer({ description: 'The record id, as in /instances.' }),
  hourly_price: Type.Number({ description: 'As /instances shows this record, in `currency`.' }),
  monthly_price: Type.Number({ description: 'As /instances shows this record, in `currency`.' }),
});

export const InstanceTypeRow = Type.Object(
  {
    provider: InstalledEnum(PROVIDER_NAMES),
    instance_id: Type.String(),
    instance_name: Type.String(),
    vcpu: Type.Integer(),
    memory_mb: Type.Integer(),
    gpu_count: Type.Integer(),
    instance_family: StringEnum(INSTANCE_FAMILIES),
    prices: Type.Record(Type.String(), RegionPrice, {
      description:
        'Per listed region where the type is offered (and matches the filters), in the order of `regions`; a region where it is not offered has no key. With `columns=city`, keyed by city slug instead.',
    }),
    cheapest_region: Type.String({
      description:
        'Lowest monthly price; equal monthly prices: the lower hourly price, then the earlier in `regions`. A region code, or with `columns=city` a city slug.',
    }),
    min_monthly_price: Type.Number(),
    max_monthly_price: Type.Number(),
    spread_pct: Type.Union([Type.Number(), Type.Null()], {
      description:
        '(max - min) / min x 100, from the exact USD prices (the same in every currency), rounded half up to 2 decimals; null when the cheapest price is 0.',
    }),
  },
  {
    $id: 'InstanceTypeRow',
    description:
      'One (provider, instance type). Specs (instance_name, vcpu, memory_mb, gpu_count, instance_family) are those of its lowest record id.',
  },
);

export const InstanceTypesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    instance_types: Type.Array(Type.Ref('InstanceTypeRow')),
    pagination: Type.Object({
      total: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
      has_more: Type.Boolean(),
    }),
    metadata: Type.Object({
      last_sync: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      filters_applied: Type.Object({}, { additionalProperties: true }),
      regions: Type.Array(Type.String(), { description: 'The listed regions, in order.' }),
      available_in: StringEnum(AVAILABLE_IN),
      columns: Type.Optional(
        StringEnum(['city'] as const, { description: 'Present only with `columns=city` (D56).' }),
      ),
      cities: Type.Optional(
        Type.Array(StringEnum(CITY_SLUGS), {
          description: 'With `columns=city`: the cities of the listed regions, in column order.',
        }),
      ),
      exchange_rate: Type.Optional(ExchangeRateNote),
    }),
  }),
});

export const INSTANCE_TYPES_RESPONSE_EXAMPLE: Static<typeof InstanceTypesResponse> = {
  success: true,
  data: {
    instance_types: [
      {
        provider: THIRD_PROVIDER.name,
        instance_id: 't3.micro',
        instance_name: 't3.micro',
        vcpu: 2,
        memory_mb: 1024,
        gpu_count: 0,
        instance_family: 'general',
        prices: {
          'ap-northeast-1': { id: 812, hourly_price: 0.0136, monthly_price: 9.93 },
          'ap-northeast-2': { id: 1204, hourly_price: 0.013, monthly_price: 9.49 },
          'ap-southeast-1': { id: 1977, hourly_price: 0.0132, monthly_price: 9.64 },
        },
        cheapest_region: 'ap-northeast-2',
        min_monthly_price: 9.49,
        max_monthly_price: 9.93,
        spread_pct: 4.64,
      },
    ],
    pagination: { total: 412, limit: 1, offset: 0, has_more: true },
    metadata: {
      last_sync: '2026-11-23T06:00:04.512Z',
      filters_applied: { provider: THIRD_PROVIDER.name, min_vcpu: 2 },
      regions: ['ap-northeast-1', 'ap-northeast-2', 'ap-southeast-1'],
      available_in: 'all',
    },
  },
};

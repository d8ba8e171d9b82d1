// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { FIRST_PROVIDER, SECOND_PROVIDER, THIRD_PROVIDER } from './example-providers.js';
import { Type, type Static } from 'typebox';
import { CITY_SLUGS, PROVIDER_NAMES } from '../../catalog/model.js';
import { InstalledEnum, StringEnum } from './common.js';

// GET /regions (D56): the regions of the table with their cities, and the cities.

const Region = Type.Object({
  provider: InstalledEnum(PROVIDER_NAMES),
  region_code: Type.String(),
  region_name: Type.String({ description: 'The region table’s name (D34).' }),
  provider_region_id: Type.String({
    description:
      "Extension: the provider's own id of the region, where our code (section 4.5, D34) differs from the vendor's: Linode's Osaka is `jp-osa` and its Singapore `ap-south`. Equal to region_code where they agree.",
  }),
  city: StringEnum(CITY_SLUGS),
  country_code: Type.String(),
  instances: Type.Integer({
    minimum: 0,
    description: 'Available records in the region now (what /instances lists there).',
  }),
  observed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      "When the provider's figures were observed upstream: /health's data_source.observed_at (D37). null before the provider's first successful sync.",
  }),
});

const City = Type.Object({
  city: StringEnum(CITY_SLUGS),
  name: Type.String({ examples: ['Hong Kong'] }),
  country_code: Type.String(),
  regions: Type.Array(
    Type.Object({ provider: InstalledEnum(PROVIDER_NAMES), region_code: Type.String() }),
    { description: 'Its regions, one per provider at most, in the order of `regions`.' },
  ),
});

const Provider = Type.Object({
  name: InstalledEnum(PROVIDER_NAMES),
  display_name: Type.String({
    description: 'D55: the name people know it by (configuration may change it).',
  }),
  block_storage: Type.Union([Type.String(), Type.Null()], {
    description:
      'What the provider calls the network block storage it sells apart (e.g. EBS): a record without local storage (field_notes.storage_gb `not_included`) runs on it. null when it has none apart.',
  }),
});

export const RegionsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    providers: Type.Array(Provider, {
      description: 'Extension: every provider the service serves, in the order it lists them.',
    }),
    regions: Type.Array(Region, {
      description: 'Every region of the table, in its order, with or without records.',
    }),
    cities: Type.Array(City, {
      description: 'Every city: tokyo, seoul, osaka, singapore, hong-kong, in this order.',
    }),
  }),
});

export const REGIONS_RESPONSE_EXAMPLE: Static<typeof RegionsResponse> = {
  success: true,
  data: {
    providers: [FIRST_PROVIDER, SECOND_PROVIDER, THIRD_PROVIDER].map((p) => ({
      name: p.name,
      display_name: p.displayName,
      block_storage: p.blockStorage ?? null,
    })),
    regions: [
      {
        provider: FIRST_PROVIDER.name,
        region_code: 'ap-northeast',
        region_name: 'Tokyo',
        provider_region_id: 'ap-northeast',
        city: 'tokyo',
        country_code: 'JP',
        instances: 30,
        observed_at: '2024-07-11T00:00:00.000Z',
      },
      {
        provider: SECOND_PROVIDER.name,
        region_code: 'nrt',
        region_name: 'Tokyo',
        provider_region_id: 'nrt',
        city: 'tokyo',
        country_code: 'JP',
        instances: 17,
        observed_at: '2025-12-18T00:00:00.000Z',
      },
    ],
    cities: [
      {
        city: 'tokyo',
        name: 'Tokyo',
        country_code: 'JP',
        regions: [
          { provider: FIRST_PROVIDER.name, region_code: 'ap-northeast' },
          { provider: SECOND_PROVIDER.name, region_code: 'nrt' },
          { provider: THIRD_PROVIDER.name, region_code: 'ap-northeast-1' },
        ],
      },
    ],
  },
};

// Generates provider_a's bundled snapshot (data/snapshots/provider_a/) from the recorded Linode
// figures in data/sources/: the 37 types of a recorded live `GET /v4beta/linode/types` of
// 2024-07-11 (base prices and region_prices, exactly as recorded) and the 34 regions of a
// recorded `GET /v4/regions` of 2026-05-29 (ids, labels and capabilities, which decide where GPU
// and premium types are sold). The base prices were confirmed unchanged against a summary of the
// live endpoint on 2026-09-17. Nothing is estimated: fields the recording lacks (network_out)
// are left out, and the API notes them "not_recorded". Deterministic; a row the
// generator cannot read completely stops it with its line.
//
//   npx tsx src/providers/provider-a/snapshot/generate.ts [outDir]
import path from 'node:path';
import { collectionText } from '../../snapshot/refresh-support.js';
import {
  RecordedDataError,
  at,
  cell,
  decimalCell,
  readRecordedCsv,
  wholeCell,
  type CsvRow,
} from '../../snapshot/recorded-csv.js';
import {
  runWhenInvoked,
  writeSnapshotFiles,
  type SnapshotFile,
} from '../../snapshot/snapshot-output.js';

export const LINODE_TYPES_FILE = 'linode-types-2024-07-11.csv';
export const LINODE_REGIONS_FILE = 'linode-regions-2026-05-29.csv';
export const LINODE_OBSERVED_AT = '2024-07-11T00:00:00Z';
export const LINODE_CONFIRMED_ON = '2026-09-17';

export const PROVIDER_A_DATA_SOURCE = {
  observed_at: LINODE_OBSERVED_AT,
  source: `Linode API v4 /linode/types, recorded 2024-07-11 (base prices confirmed unchanged on ${LINODE_CONFIRMED_ON}); regions and capabilities recorded 2026-05-29`,
} as const;

const ID = /^[a-z0-9][a-z0-9-]*$/;
const CLASSES = ['nanode', 'standard', 'dedicated', 'premium', 'gpu', 'highmem'] as const;

export interface LinodeRecordedType {
  readonly line: number;
  readonly id: string;
  readonly label: string;
  readonly class: (typeof CLASSES)[number];
  readonly vcpus: number;
  readonly memoryMb: number;
  readonly diskMb: number;
  readonly transferGb: number;
  /** USD, exactly as recorded. */
  readonly hourly: string;
  readonly monthly: string;
  readonly regionPrices: readonly { id: string; hourly: string; monthly: string }[];
  /** From the label's "GPU x<N>" for GPU types; 0 for the CPU classes. */
  readonly gpus: number;
  readonly successor: string | null;
}

function readType(row: CsvRow): LinodeRecordedType {
  const id = cell(row, 'id');
  if (!ID.test(id)) throw new RecordedDataError(`${at(row, 'id')}: "${id}" is not a type id`);
  const label = cell(row, 'label');
  const typeClass = cell(row, 'class');
  const known = CLASSES.find((c) => c === typeClass);
  if (known === undefined) {
    throw new RecordedDataError(`${at(row, 'class')}: "${typeClass}" is not a known class`);
  }
  // The recording has no gpus column; GPU types say their count in the label ("... GPU x3").
  const gpuMatch = / GPU x([1-9]\d?)$/.exec(label);
  if ((known === 'gpu') !== (gpuMatch !== null)) {
    throw new RecordedDataError(
      `${at(row, 'label')}: "${label}" of class ${known}: a GPU count must be in the label exactly for class gpu`,
    );
  }
  const pricesColumn = 'region_prices(id:hourly/monthly)';
  const regionPrices = cell(row, pricesColumn, false)
    .split(' ')
    .filter(Boolean)
    .map((entry) => {
      const match = /^([a-z]{2}-[a-z0-9-]+):([0-9.]+)\/([0-9.]+)$/.exec(entry);
      if (match === null) {
        throw new RecordedDataError(
          `${at(row, pricesColumn)}: "${entry}" is not id:hourly/monthly`,
        );
      }
      const [, region = '', hourly = '', monthly = ''] = match;
      for (const value of [hourly, monthly]) {
        if (!/^(0|[1-9]\d*)(\.\d+)?$/.test(value) || /^0(\.0+)?$/.test(value)) {
          throw new RecordedDataError(`${at(row, pricesColumn)}: "${entry}" has a bad price`);
        }
      }
      return { id: region, hourly, monthly };
    });
  const successor = cell(row, 'successor', false);
  return {
    line: row.line,
    id,
    label,
    class: known,
    vcpus: wholeCell(row, 'vcpus', 1),
    memoryMb: wholeCell(row, 'memory_mb', 1),
    diskMb: wholeCell(row, 'disk_mb', 1),
    transferGb: wholeCell(row, 'transfer_gb'),
    hourly: decimalCell(row, 'price_hourly', true),
    monthly: decimalCell(row, 'price_monthly', true),
    regionPrices,
    gpus: gpuMatch === null ? 0 : Number(gpuMatch[1]),
    successor: successor === '' ? null : successor,
  };
}

export interface LinodeRecordedRegion {
  readonly id: string;
  readonly label: string;
  readonly country: string;
  readonly siteType: string;
  readonly status: string;
  readonly capabilities: readonly string[];
}

function readRegion(row: CsvRow): LinodeRecordedRegion {
  const id = cell(row, 'id');
  if (!ID.test(id)) throw new RecordedDataError(`${at(row, 'id')}: "${id}" is not a region id`);
  const capabilities = cell(row, 'capabilities').split(';');
  if (capabilities.some((c) => c.trim() === '' || c !== c.trim())) {
    throw new RecordedDataError(`${at(row, 'capabilities')}: an empty or padded capability`);
  }
  return {
    id,
    label: cell(row, 'label'),
    country: cell(row, 'country'),
    siteType: cell(row, 'site_type'),
    status: cell(row, 'status'),
    capabilities,
  };
}

export async function readLinodeRecordings(): Promise<{
  types: LinodeRecordedType[];
  regions: LinodeRecordedRegion[];
}> {
  const types = (
    await readRecordedCsv(LINODE_TYPES_FILE, [
      'id',
      'label',
      'class',
      'vcpus',
      'memory_mb',
      'disk_mb',
      'transfer_gb',
      'price_hourly',
      'price_monthly',
      'region_prices(id:hourly/monthly)',
      'successor',
    ])
  ).map(readType);
  const regions = (
    await readRecordedCsv(LINODE_REGIONS_FILE, [
      'id',
      'label',
      'country',
      'site_type',
      'status',
      'capabilities',
    ])
  ).map(readRegion);
  for (const [what, ids] of [
    ['type', types.map((t) => t.id)],
    ['region', regions.map((r) => r.id)],
  ] as const) {
    const dup = ids.find((id, index) => ids.indexOf(id) !== index);
    if (dup !== undefined) throw new RecordedDataError(`${what} ${dup} is recorded twice`);
  }
  return { types, regions };
}

function typeDocument(type: LinodeRecordedType): Record<string, unknown> {
  return {
    id: type.id,
    label: type.label,
    class: type.class,
    vcpus: type.vcpus,
    memory: type.memoryMb,
    disk: type.diskMb,
    transfer: type.transferGb,
    gpus: type.gpus,
    price: { hourly: Number(type.hourly), monthly: Number(type.monthly) },
    region_prices: type.regionPrices.map((p) => ({
      id: p.id,
      hourly: Number(p.hourly),
      monthly: Number(p.monthly),
    })),
    successor: type.successor,
  };
}

function regionDocument(region: LinodeRecordedRegion): Record<string, unknown> {
  return {
    id: region.id,
    label: region.label,
    country: region.country,
    capabilities: region.capabilities,
    status: region.status,
    site_type: region.siteType,
  };
}

function metadataText(types: readonly LinodeRecordedType[]): string {
  const metadata = {
    provider: 'provider_a',
    data_source: PROVIDER_A_DATA_SOURCE,
    upstream:
      'Linode/Akamai API v4: GET /linode/types and GET /regions (https://api.linode.com/v4)',
    recorded_in: [
      `types and prices: a recorded live GET /v4beta/linode/types of 2024-07-11 (linode/linodego test/integration/fixtures/TestTypes_List.yaml, MIT); kept as data/sources/${LINODE_TYPES_FILE}`,
      `regions: a recorded GET /v4/regions of 2026-05-29 (linodego fixture TestRegions_List.yaml @ 676b9dbe, MIT); kept as data/sources/${LINODE_REGIONS_FILE}`,
    ],
    observed_at: LINODE_OBSERVED_AT,
    regions_observed_at: '2026-05-29T00:00:00Z',
    prices_confirmed: `The base prices were confirmed unchanged on ${LINODE_CONFIRMED_ON} against a summary of the live /linode/types endpoint (Nanode $5, Linode 2GB $12, Dedicated 4GB $36, Premium from $43); that summary lists 75 types, including newer G7 dedicated and accelerated types that are not in this 2024 recording.`,
    licence: {
      name: 'MIT (linodego test fixtures)',
      attribution: 'Figures from linode/linodego test fixtures, MIT licence, Copyright Linode LLC',
    },
    generated_by: 'src/providers/provider-a/snapshot/generate.ts (npm run snapshots:generate)',
    records: types.length,
    prices:
      'price.hourly, price.monthly and region_prices are the recorded figures, unchanged. Only id-cgk and br-gru have region prices; Tokyo, Osaka and Singapore use the base prices.',
    regions:
      'Our codes read the Linode region of the same city (D34; src/providers/provider-a/regions.ts): ap-northeast (Tokyo) <- ap-northeast "Tokyo 2, JP", ap-south (Osaka) <- jp-osa "Osaka, JP", ap-southeast (Singapore) <- ap-south "Singapore, SG". GPU types are listed where the region has "GPU Linodes", premium types where it has "Premium Plans" (as recorded in 2026).',
    not_recorded: [
      'network_out: not in the recording, so left out; the API lists network_speed_gbps 0 (field_notes "not_recorded")',
      'gpus: the recording has no gpus column; GPU types state their count in the recorded label ("GPU x3"), the CPU classes have none',
      "addons (backup prices), accelerated_devices and the regions' resolvers and placement-group limits: not written, and not read",
    ],
    statement: `Real Linode list prices recorded from the live API on 2024-07-11 and confirmed unchanged on ${LINODE_CONFIRMED_ON}. A live sync (PROVIDER_A_URL=https://api.linode.com/v4) replaces them.`,
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

export interface ProviderAGenerateOptions {
  /** Keep only these regions (the test copy keeps ours and a few others, to stay small). */
  readonly keepRegion?: (id: string) => boolean;
}

/** Writes regions.json, linode/types.json and metadata.json under `outDir`. */
export async function generateProviderASnapshot(
  outDir: string,
  options: ProviderAGenerateOptions = {},
): Promise<string[]> {
  const recorded = await readLinodeRecordings();
  const keep = options.keepRegion ?? (() => true);
  const types = recorded.types;
  const regions = recorded.regions.filter((r) => keep(r.id));
  const page = (records: readonly unknown[]) =>
    collectionText('data', records, { page: 1, pages: 1, results: records.length });
  const files: SnapshotFile[] = [
    ['regions.json', page(regions.map(regionDocument))],
    [path.join('linode', 'types.json'), page(types.map(typeDocument))],
    ['metadata.json', metadataText(types)],
  ];
  return writeSnapshotFiles(outDir, files);
}

runWhenInvoked(import.meta.url, 'provider_a', generateProviderASnapshot);

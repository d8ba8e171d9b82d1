// Generates provider_c's bundled snapshot (data/snapshots/provider_c/) from the recorded AWS
// prices in data/sources/: the offer index, the EC2 region index and one offer file per Asian
// region in the real AWS Price List Bulk layout, from aws-ap-linux-2025-04-04.csv (AWS's website
// pricing JSON published 2025-04-04 22:41:22 UTC, recorded by ec2.shop, MIT): the on-demand terms
// and the four recorded No Upfront Reserved terms (D61, reserved-terms.ts), read by the same
// streaming scanner as a live file; and recordings.json, the earlier dated recordings (D64): the
// 2024-02-21 recording (Spare Cores sc-data, CC BY-SA 4.0) and the states of the change log
// aws-ap-ondemand-history-2024-07-05_2025-04-04.csv, which the first fill replays at their dates.
// Every price is the recorded figure, written with AWS's ten decimals and otherwise unchanged.
// What the layout needs and the recordings lack (instanceFamily, effective dates) is derived
// deterministically and named as synthetic in metadata.json. A row that cannot be read
// completely stops the generator with its line. Deterministic: same input, same bytes.
//
//   npx tsx src/providers/provider-c/snapshot/generate.ts [outDir]
import { formatDatedRecordings, type RecordingInput } from '../../../catalog/dated-recordings.js';
import { ec2GpuType } from '../classify.js';
import { formatAwsJson, type Json } from './aws-offer-json.js';
import {
  AWS_HISTORY_FILE,
  AWS_PRICE_FILE,
  AWS_PRICE_FILE_PUBLISHED_AT,
  AWS_SPECS_FILE,
  readAwsGpuCounts,
  readAwsHistory,
  readAwsPriceFile,
  type AwsPriceRow,
} from './aws-price-file.js';
import {
  AWS_OBSERVED_AT,
  AWS_RECORDING_FILE,
  AWS_REGIONS,
  readAwsRecording,
} from './aws-recording.js';
import { EC2_REGIONS, HOURLY_RATE_CODE, ON_DEMAND_CODE } from './records.js';
import { RecordedDataError, canonicalDecimal } from '../../snapshot/recorded-csv.js';
import {
  runWhenInvoked,
  writeSnapshotFiles,
  type SnapshotFile,
} from '../../snapshot/snapshot-output.js';
import { licenceText } from './licence.js';
import {
  NO_UPFRONT_TERMS,
  RESERVED_COLUMNS,
  addReservedTerms,
  readRecordedReservedPrices,
  type RecordedReservedPrices,
} from './reserved-terms.js';
import type { CommittedPurchaseOption } from '../../../catalog/purchase-options.js';

/** The offer files' version and dates: AWS's publication time of the recorded files. */
const VERSION = AWS_PRICE_FILE_PUBLISHED_AT.replace(/\D/g, '');
const PUBLICATION_DATE = AWS_PRICE_FILE_PUBLISHED_AT;
const EC2_BASE = '/offers/v1.0/aws/AmazonEC2';
const LICENCE_FILE = 'DATA-LICENSE.md';
const RECORDINGS_FILE = 'recordings.json';
const EC2_SHOP = 'AWS EC2 prices as recorded by ec2.shop (github.com/yeo/ec2.shop, MIT)';
const EC2_SHOP_COMMIT = '73696e380ae600b175f859850a726edebd1de72f';
const SPARE_CORES = 'Spare Cores (sc-data), CC BY-SA 4.0';

/** The short provenance /health shows as `data_source` (D37). */
export const PROVIDER_C_DATA_SOURCE = {
  observed_at: AWS_PRICE_FILE_PUBLISHED_AT,
  source: `${EC2_SHOP}: AWS's pricing JSON published 2025-04-04 22:41:22 UTC`,
} as const;

/** Accelerator families the adapter leaves out (D35, classify.ts): written, never listed. */
const ACCELERATOR = /^(inf|trn|vt)\d/;

/**
 * The offer file's `instanceFamily` attribute, which the recording lacks, from the type's name
 * by AWS's naming scheme (documented in metadata.json as synthetic). A name outside the scheme
 * stops the generator rather than get a guessed family.
 */
export function instanceFamilyOf(instanceType: string, where: string): string {
  const family = instanceType.split('.', 1)[0] ?? '';
  const rules: readonly [RegExp, string][] = [
    [/^t1$/, 'Micro instances'],
    [/^u(-|\d)/, 'Memory optimized'],
    [/^cr\d/, 'Memory optimized'],
    [/^(inf|trn)\d/, 'Machine Learning ASIC Instances'],
    [/^f\d/, 'FPGA Instances'],
    [/^vt\d/, 'Media Accelerator Instances'],
    [/^(g|gr|p)\d/, 'GPU instance'],
    [/^(hpc|c)\d/, 'Compute optimized'],
    [/^(t|m|a|mac)\d/, 'General purpose'],
    [/^(r|x|z)\d/, 'Memory optimized'],
    [/^(i|d|h|im|is)\d/, 'Storage optimized'],
  ];
  const found = rules.find(([pattern]) => pattern.test(family))?.[1];
  if (found === undefined) {
    throw new RecordedDataError(`${where}: "${instanceType}" has no known instance family`);
  }
  return found;
}

/** "12288" -> "12,288 GiB", "0.613" -> "0.613 GiB": the recorded figure as AWS writes memory. */
export function memoryText(gib: string): string {
  const [whole = '0', fraction] = gib.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${grouped}${fraction === undefined ? '' : `.${fraction}`} GiB`;
}

/** The recorded USD text with AWS's ten decimals ("0.0052" -> "0.0052000000"), value unchanged. */
export function awsPriceText(usd: string): string {
  const [whole = '0', fraction = ''] = usd.split('.');
  return `${whole}.${fraction.padEnd(10, '0')}`;
}

/** A priced row with the GPU count the offer file states (absent = 0, as AWS writes it). */
interface SnapshotRow extends AwsPriceRow {
  readonly gpuCount: number;
  readonly instanceFamily: string;
}

/**
 * Joins each price row with its GPU count: the 2024 recording's, else the 2026 spec dump's.
 * A GPU type with neither is left out (returned apart): its count would be a guess.
 */
async function snapshotRows(): Promise<{ rows: SnapshotRow[]; noGpuCount: AwsPriceRow[] }> {
  const [prices, recorded2024, specs] = await Promise.all([
    readAwsPriceFile(),
    readAwsRecording(),
    readAwsGpuCounts(),
  ]);
  const counts = new Map(recorded2024.map((r) => [r.instanceType, r.gpuCount]));
  const rows: SnapshotRow[] = [];
  const noGpuCount: AwsPriceRow[] = [];
  for (const row of prices) {
    const where = `${AWS_PRICE_FILE} line ${row.line}, column "instance_type"`;
    const instanceFamily = instanceFamilyOf(row.instanceType, where);
    const gpuCount = counts.get(row.instanceType) ?? specs.get(row.instanceType);
    const gpuFamily = instanceFamily === 'GPU instance';
    if (gpuCount === undefined && gpuFamily) {
      noGpuCount.push(row);
      continue;
    }
    const count = gpuCount ?? 0;
    if (!ACCELERATOR.test(row.instanceType) && gpuFamily !== count > 0) {
      throw new RecordedDataError(
        `${where}: "${row.instanceType}" is named as ${instanceFamily} but has ${count} GPUs`,
      );
    }
    if (count > 0 && ec2GpuType(row.instanceType, count) === null) {
      throw new RecordedDataError(`${where}: no GPU name for "${row.instanceType}"`);
    }
    rows.push({ ...row, gpuCount: ACCELERATOR.test(row.instanceType) ? 0 : count, instanceFamily });
  }
  return { rows, noGpuCount };
}

function productOf(row: SnapshotRow): Json {
  const { location, usagePrefix } = EC2_REGIONS[row.region];
  const attributes: Record<string, string> = {
    servicecode: 'AmazonEC2',
    location,
    locationType: 'AWS Region',
    instanceType: row.instanceType,
    currentGeneration: row.currentGeneration ? 'Yes' : 'No',
    instanceFamily: row.instanceFamily,
    vcpu: String(row.vcpus),
    memory: memoryText(row.memoryGib),
    storage: row.storage,
  };
  // Not in the recording for previous-generation types: left out, never guessed.
  if (row.networkPerformance !== '') attributes['networkPerformance'] = row.networkPerformance;
  Object.assign(attributes, {
    tenancy: 'Shared',
    operatingSystem: 'Linux',
    licenseModel: 'No License required',
    usagetype: `${usagePrefix}-BoxUsage:${row.instanceType}`,
    operation: 'RunInstances',
    capacitystatus: 'Used',
  });
  if (row.gpuCount > 0) attributes['gpu'] = String(row.gpuCount);
  attributes['marketoption'] = 'OnDemand';
  attributes['preInstalledSw'] = 'NA';
  attributes['regionCode'] = row.region;
  attributes['servicename'] = 'Amazon Elastic Compute Cloud';
  // AWS files the .metal sizes under their own product family (upstream-formats.md §3.3).
  const productFamily = /\.metal(-|$)/.test(row.instanceType)
    ? 'Compute Instance (bare metal)'
    : 'Compute Instance';
  return { sku: row.sku, productFamily, attributes };
}

function hourlyDimension(rate: string, description: string, usd: string): Json {
  return {
    rateCode: rate,
    description,
    beginRange: '0',
    endRange: 'Inf',
    unit: 'Hrs',
    pricePerUnit: { USD: awsPriceText(usd) },
    appliesTo: [],
  };
}

function onDemandOf(row: SnapshotRow): Json {
  const term = `${row.sku}.${ON_DEMAND_CODE}`;
  const rate = `${term}.${HOURLY_RATE_CODE}`;
  const description = `$${canonicalDecimal(row.onDemandUsd)} per On Demand Linux ${row.instanceType} Instance Hour`;
  return {
    [term]: {
      offerTermCode: ON_DEMAND_CODE,
      sku: row.sku,
      effectiveDate: PUBLICATION_DATE,
      priceDimensions: { [rate]: hourlyDimension(rate, description, row.onDemandUsd) },
      termAttributes: {},
    },
  };
}

/**
 * One region's offer file: its products and on-demand terms, then the recorded Reserved terms
 * of those products. A recorded reserved price whose type is not written (left out for want of
 * a GPU count) stops addReservedTerms rather than vanish; none has one today.
 */
function regionFileText(
  region: string,
  rows: readonly SnapshotRow[],
  reserved: ReadonlyMap<string, RecordedReservedPrices>,
): string {
  const sorted = [...rows].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: `Generated by cloudprice from AWS's EC2 prices published ${PUBLICATION_DATE} (${EC2_SHOP}); see metadata.json and ${LICENCE_FILE} at the top of this snapshot.`,
    offerCode: 'AmazonEC2',
    version: VERSION,
    publicationDate: PUBLICATION_DATE,
    products: Object.fromEntries(sorted.map((row) => [row.sku, productOf(row)])),
    terms: { OnDemand: Object.fromEntries(sorted.map((row) => [row.sku, onDemandOf(row)])) },
    attributesList: {},
  };
  return `${formatAwsJson(addReservedTerms(doc, region, reserved, PUBLICATION_DATE))}\n`;
}

function offerIndexText(): string {
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: 'Trimmed to the EC2 offer, the only one cloudprice reads.',
    publicationDate: PUBLICATION_DATE,
    offers: {
      AmazonEC2: {
        offerCode: 'AmazonEC2',
        versionIndexUrl: `${EC2_BASE}/index.json`,
        currentVersionUrl: `${EC2_BASE}/current/index.json`,
        currentRegionIndexUrl: `${EC2_BASE}/current/region_index.json`,
      },
    },
  };
  return `${formatAwsJson(doc)}\n`;
}

function regionIndexText(): string {
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: 'Trimmed to the five Asian regions cloudprice lists.',
    publicationDate: PUBLICATION_DATE,
    regions: Object.fromEntries(
      AWS_REGIONS.map((code) => [
        code,
        { regionCode: code, currentVersionUrl: `${EC2_BASE}/current/${code}/index.json` },
      ]),
    ),
  };
  return `${formatAwsJson(doc)}\n`;
}

/**
 * The dated recordings before the current files (D64), each complete: the 2024-02-21
 * recording, then the change log replayed to each of its observation times before the
 * current one. The log's replay must end exactly at the current price file.
 */
async function datedRecordings(prices: readonly AwsPriceRow[]): Promise<RecordingInput[]> {
  const [recorded2024, events] = await Promise.all([readAwsRecording(), readAwsHistory()]);
  const recordings: RecordingInput[] = [
    {
      observedAt: AWS_OBSERVED_AT,
      source:
        'AWS Price List API on 2024-02-21, as recorded by Spare Cores (sc-data, CC BY-SA 4.0)',
      prices: recorded2024.map((r) => [
        r.region,
        r.instanceType,
        canonicalDecimal(r.priceUsdPerHour),
      ]),
    },
  ];
  const state = new Map<string, readonly [string, string, string]>();
  const times = [...new Set(events.map((e) => e.observedAt))];
  if (times.some((time, i) => i > 0 && time <= (times[i - 1] ?? ''))) {
    throw new RecordedDataError(`${AWS_HISTORY_FILE}: observations are not oldest first`);
  }
  for (const time of times) {
    for (const e of events.filter((event) => event.observedAt === time)) {
      const key = `${e.region} ${e.instanceType}`;
      if (e.event === 'delisted') state.delete(key);
      else state.set(key, [e.region, e.instanceType, canonicalDecimal(e.onDemandUsd)]);
    }
    if (time >= AWS_PRICE_FILE_PUBLISHED_AT) continue;
    recordings.push({
      observedAt: time,
      source: `${EC2_SHOP}: AWS's pricing JSON published ${time.replace('T', ' ').replace('Z', ' UTC')}`,
      prices: [...state.values()],
    });
  }
  const current = new Map(
    prices.map((r) => [`${r.region} ${r.instanceType}`, canonicalDecimal(r.onDemandUsd)]),
  );
  const differ = [...new Set([...current.keys(), ...state.keys()])].filter(
    (key) => current.get(key) !== state.get(key)?.[2],
  );
  if (differ.length > 0) {
    throw new RecordedDataError(
      `${AWS_HISTORY_FILE}: its replay differs from ${AWS_PRICE_FILE} at ${differ.slice(0, 5).join(', ')}`,
    );
  }
  return recordings;
}

/**
 * Provenance per purchase option (D37, D61): where each option's figures in the offer files come
 * from, when they were observed and under which licence. All five are read from the same
 * recording; `region_prices` counts the figures written (the accelerator types' included).
 */
function optionProvenance(
  rows: readonly SnapshotRow[],
  reserved: ReadonlyMap<string, ReadonlyMap<string, RecordedReservedPrices>>,
): Record<string, Json> {
  const ec2Shop = {
    source: PROVIDER_C_DATA_SOURCE.source,
    observed_at: AWS_PRICE_FILE_PUBLISHED_AT,
    licence: 'MIT',
    attribution: EC2_SHOP,
    notice: LICENCE_FILE,
  };
  const out: Record<string, Json> = {
    on_demand: {
      ...ec2Shop,
      recorded_in: `data/sources/${AWS_PRICE_FILE}, column ondemand_usd_hour (ec2.shop data/ec2/<region>-ondemand.json and -previousgen-ondemand.json)`,
      offer_term: 'OnDemand, JRTCKXETXF',
      region_prices: rows.length,
    },
  };
  const files: Record<CommittedPurchaseOption, string> = {
    reserved_1y: 'reservedinstance-1y',
    reserved_3y: 'reservedinstance-3y',
    convertible_1y: 'reservedinstance-convertible-1y',
    convertible_3y: 'reservedinstance-convertible-3y',
  };
  for (const option of Object.keys(NO_UPFRONT_TERMS) as CommittedPurchaseOption[]) {
    const { code, lease, offering } = NO_UPFRONT_TERMS[option];
    const count = [...reserved.values()].reduce(
      (sum, byType) => sum + [...byType.values()].filter((p) => p[option] !== undefined).length,
      0,
    );
    out[option] = {
      ...ec2Shop,
      recorded_in: `data/sources/${AWS_PRICE_FILE}, column ${RESERVED_COLUMNS[option]} (ec2.shop data/ec2/<region>-${files[option]}.json)`,
      offer_term: `Reserved, ${code}: ${offering}, ${lease}, No Upfront (the hourly charge is the effective hourly rate; no upfront fee)`,
      region_prices: count,
    };
  }
  return out;
}

function metadataText(
  rows: readonly SnapshotRow[],
  reserved: ReadonlyMap<string, ReadonlyMap<string, RecordedReservedPrices>>,
  noGpuCount: readonly AwsPriceRow[],
  recordings: readonly RecordingInput[] | undefined,
): string {
  const perRegion = Object.fromEntries(
    AWS_REGIONS.map((region) => [region, rows.filter((r) => r.region === region).length]),
  );
  const accelerators = rows.filter((r) => ACCELERATOR.test(r.instanceType));
  const leftOut = [...new Set(noGpuCount.map((r) => r.instanceType))].sort();
  const metadata = {
    provider: 'provider_c',
    data_source: PROVIDER_C_DATA_SOURCE,
    ...(recordings === undefined ? {} : { dated_recordings: RECORDINGS_FILE }),
    upstream:
      'AWS Price List Bulk API, EC2 offer files (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/index.json)',
    recorded_in: `ec2.shop (github.com/yeo/ec2.shop), commit ${EC2_SHOP_COMMIT}, data/ec2/<region>-ondemand.json, -previousgen-ondemand.json and the four No Upfront reserved files (AWS's website pricing JSON); kept in this repository as data/sources/${AWS_PRICE_FILE}`,
    observed_at: AWS_PRICE_FILE_PUBLISHED_AT,
    licence: {
      name: 'MIT (prices of 2025-04-04 and the change log); CC BY-SA 4.0 (the 2024-02-21 recording, GPU counts)',
      attribution: `${EC2_SHOP}; ${SPARE_CORES}`,
      notice: LICENCE_FILE,
      scope:
        'this directory (data/snapshots/provider_c) and the recorded files it is built from are separately licensed data files; the code is not',
    },
    generated_by: 'src/providers/provider-c/snapshot/generate.ts (npm run snapshots:generate)',
    records: rows.length,
    records_per_region: perRegion,
    listed: rows.length - accelerators.length,
    purchase_options: optionProvenance(rows, reserved),
    slice:
      'operatingSystem Linux, tenancy Shared, preInstalledSw NA, licenseModel No License required, capacitystatus Used; on demand and the four No Upfront Reserved terms (standard and convertible, 1 and 3 years) where recorded: the products the adapter lists, and only those',
    prices:
      'Every pricePerUnit.USD is the recorded price, padded to the ten decimals AWS writes and otherwise unchanged. Monthly prices are hourly x 730 (D36). No price is derived, estimated or remembered.',
    from_the_recording: [
      `sku (from AWS's on-demand rate code), instanceType, regionCode, currentGeneration, vcpu, memory ("N GiB"), storage and networkPerformance in AWS's own words, the on-demand price and the four No Upfront reserved prices (an empty cell is an option not offered, and gets no term)`,
      `networkPerformance: not recorded for the previous-generation types, so left out (the API lists network_speed_gbps 0, noted "not_recorded")`,
      `gpu: from ${AWS_RECORDING_FILE} (Spare Cores sc-data) or, for types launched since, ${AWS_SPECS_FILE} (Spare Cores sc-data-dumps); the GPU model is named by the adapter per instance family (classify.ts)`,
    ],
    synthetic: [
      "offerTermCode JRTCKXETXF and rate code 6YS6EN2CT7 are the real on-demand codes; reserved term codes are AWS's public ones for the No Upfront terms (4NA7Y494T4, BPH4J8HBKS, 7NE97W5U4E, Z2E3P23VKM), their rate keys built like the on-demand one",
      `effectiveDate ${PUBLICATION_DATE}: the files' publication time, not the date each price took effect`,
      "instanceFamily: from the type name by AWS's naming scheme (t1 Micro; t, m, a, mac General purpose; c, hpc Compute optimized; r, x, z, cr, u Memory optimized; i, d, h, im, is Storage optimized; g, gr, p GPU instance; inf, trn, f, vt accelerators)",
      'productFamily "Compute Instance (bare metal)" for the .metal and .metal-<n>xl sizes, as AWS files them; the fixed attributes of the slice (servicecode, location, usagetype, operation, tenancy, operatingSystem, licenseModel, capacitystatus, marketoption, preInstalledSw)',
    ],
    not_listed: `The accelerator types (${[...new Set(accelerators.map((r) => r.instanceType.split('.')[0]))].sort().join(', ')}: ${accelerators.length} region prices; no GPU count, so no honest instance_family under D35) are in the files but not in the catalogue. Left out of the files: ${leftOut.join(', ')} (${noGpuCount.length} region prices, previous generation): no recording states their GPU count.`,
    dated_recordings_note:
      recordings === undefined
        ? undefined
        : `${RECORDINGS_FILE} holds ${recordings.length} earlier recordings (2024-02-21 from ${AWS_RECORDING_FILE}, then each observation of ${AWS_HISTORY_FILE} at which something changed, before the current files); the first fill replays them oldest first (D64). The change log's other observations (2024-07-12, 07-18, 07-29, 08-23, 08-26, 09-06) changed nothing and add no history.`,
    known_gaps:
      'Types AWS launched after 2025-04-04 are missing, and prices may have changed since. Network figures of previous-generation types are not recorded.',
    statement: `Real AWS on-demand and No Upfront Reserved Linux list prices, published by AWS on ${PUBLICATION_DATE.slice(0, 10)} and recorded by ec2.shop (MIT). A live sync (PROVIDER_C_URL=https://pricing.us-east-1.amazonaws.com) replaces them.`,
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

export interface ProviderCGenerateOptions {
  /** Keep only these rows (test fixtures hold a subset; the bundled snapshot all). */
  readonly keep?: (row: { readonly instanceType: string }) => boolean;
  /** Write recordings.json (the bundled snapshot does; the test copy does not). */
  readonly recordings?: boolean;
}

/** Writes the snapshot under `outDir` (replacing what is there); returns the relative paths. */
export async function generateProviderCSnapshot(
  outDir: string,
  options: ProviderCGenerateOptions = {},
): Promise<string[]> {
  const keep = options.keep ?? (() => true);
  const all = await snapshotRows();
  const rows = all.rows.filter(keep);
  const reserved = new Map(
    [...(await readRecordedReservedPrices(AWS_PRICE_FILE))].map(([region, byType]) => [
      region,
      new Map([...byType].filter(([instanceType]) => keep({ instanceType }))),
    ]),
  );
  const recordings =
    options.recordings === false ? undefined : await datedRecordings(await readAwsPriceFile());
  const files: SnapshotFile[] = [
    ['offers/v1.0/aws/index.json', offerIndexText()],
    ['offers/v1.0/aws/AmazonEC2/current/region_index.json', regionIndexText()],
    ...AWS_REGIONS.map((region): [string, string] => [
      `offers/v1.0/aws/AmazonEC2/current/${region}/index.json`,
      regionFileText(
        region,
        rows.filter((row) => row.region === region),
        reserved.get(region) ?? new Map(),
      ),
    ]),
    ['metadata.json', metadataText(rows, reserved, all.noGpuCount.filter(keep), recordings)],
    [LICENCE_FILE, licenceText()],
  ];
  if (recordings !== undefined) files.push([RECORDINGS_FILE, formatDatedRecordings(recordings)]);
  return writeSnapshotFiles(outDir, files);
}

runWhenInvoked(import.meta.url, 'provider_c', generateProviderCSnapshot);

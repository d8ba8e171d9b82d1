// Generates provider_c's bundled snapshot (data/snapshots/provider_c/) from the recorded AWS
// prices in data/sources/aws-ap-ondemand-linux-2024-02-21.csv (Spare Cores sc-data, CC BY-SA
// 4.0): the offer index, the EC2 region index and one offer file per Asian region in the real
// AWS Price List Bulk layout, read by the same streaming scanner as a live file. Every recorded
// row becomes one product with its on-demand term; its price is the recorded figure, written
// with AWS's ten decimals and otherwise unchanged. Nothing else is priced: no neighbours, no
// reserved terms. What the layout needs and the recording lacks (SKUs, dates, instanceFamily) is
// derived deterministically and named as synthetic in metadata.json. A row that cannot be read
// completely stops the generator with its line. Deterministic: same input, same bytes.
//
//   npx tsx src/providers/provider-c/snapshot/generate.ts [outDir]
import { ec2GpuType } from '../classify.js';
import { formatAwsJson, type Json } from './aws-offer-json.js';
import {
  AWS_OBSERVED_AT,
  AWS_RECORDING_FILE,
  AWS_REGIONS,
  readAwsRecording,
  type AwsRecordedRow,
  type AwsRegion,
} from './aws-recording.js';
import { EC2_REGIONS, HOURLY_RATE_CODE, ON_DEMAND_CODE, skuFor } from './records.js';
import { RecordedDataError, canonicalDecimal } from '../../snapshot/recorded-csv.js';
import {
  runWhenInvoked,
  writeSnapshotFiles,
  type SnapshotFile,
} from '../../snapshot/snapshot-output.js';

/** The recording's observation, as the offer files' version and dates (synthetic, see metadata). */
const VERSION = '20240221082021';
const PUBLICATION_DATE = AWS_OBSERVED_AT;
const EC2_BASE = '/offers/v1.0/aws/AmazonEC2';
const LICENCE_FILE = 'DATA-LICENSE.md';
const ATTRIBUTION = 'Spare Cores (sc-data), CC BY-SA 4.0';
const SPARE_CORES_COMMIT = 'ce414d8e9d6bb1faf6ce9407fedac0c1f25f587a';

/** The short provenance /health shows as `data_source` (D37). */
export const PROVIDER_C_DATA_SOURCE = {
  observed_at: AWS_OBSERVED_AT,
  source:
    'AWS Price List API (EC2 on-demand Linux), as recorded by Spare Cores sc-data on 2024-02-21',
} as const;

/**
 * The offer file's `instanceFamily` attribute, which the recording lacks, from the type's name
 * by AWS's naming scheme (documented in metadata.json as synthetic). A name outside the scheme
 * stops the generator rather than get a guessed family.
 */
export function instanceFamilyOf(row: AwsRecordedRow): string {
  const family = row.instanceType.split('.', 1)[0] ?? '';
  const rules: readonly [RegExp, string][] = [
    [/^t1$/, 'Micro instances'],
    [/^u-/, 'Memory optimized'],
    [/^(inf|trn)\d/, 'Machine Learning ASIC Instances'],
    [/^f\d/, 'FPGA Instances'],
    [/^vt\d/, 'Media Accelerator Instances'],
    [/^[gp]\d/, 'GPU instance'],
    [/^(hpc|c)\d/, 'Compute optimized'],
    [/^(t|m|a|mac)\d/, 'General purpose'],
    [/^(r|x|z)\d/, 'Memory optimized'],
    [/^(i|d|h|im|is)\d/, 'Storage optimized'],
  ];
  const found = rules.find(([pattern]) => pattern.test(family))?.[1];
  const where = `${AWS_RECORDING_FILE} line ${row.line}, column "instance_type"`;
  if (found === undefined) {
    throw new RecordedDataError(`${where}: "${row.instanceType}" has no known instance family`);
  }
  if ((found === 'GPU instance') !== row.gpuCount > 0) {
    throw new RecordedDataError(
      `${where}: "${row.instanceType}" is named as ${found} but has gpu_count ${row.gpuCount}`,
    );
  }
  return found;
}

/** "1740" MiB -> "1.69921875 GiB", "12288" -> "12,288 GiB": exact, as AWS writes memory. */
export function memoryText(mib: number): string {
  const whole = Math.floor(mib / 1024);
  // mib % 1024 / 1024 is a finite binary fraction: at most 10 decimals, exact in a double.
  const fraction = ((mib % 1024) / 1024)
    .toFixed(10)
    .replace(/^0/, '')
    .replace(/\.?0+$/, '');
  return `${String(whole).replace(/\B(?=(\d{3})+$)/g, ',')}${fraction} GiB`;
}

const STORAGE_NAMES = { NVME_SSD: 'NVMe SSD', SSD: 'SSD', HDD: 'HDD' } as const;

/** 0 -> "EBS only"; 118 NVME_SSD -> "1 x 118 NVMe SSD" (the recording gives the total only). */
export function storageText(row: AwsRecordedRow): string {
  if (row.storageType === '') return 'EBS only';
  return `1 x ${row.storageGb} ${STORAGE_NAMES[row.storageType]}`;
}

/**
 * The recorded baseline bandwidth as AWS writes a fixed figure: whole Gbps as "12 Gigabit",
 * others in Megabit ("0.032" -> "32 Megabit", "1.562" -> "1562 Megabit"); decimal text only.
 */
export function networkText(row: AwsRecordedRow): string {
  const value = canonicalDecimal(row.networkGbps);
  if (!value.includes('.')) return `${value} Gigabit`;
  const [whole = '0', fraction = ''] = value.split('.');
  if (fraction.length > 3) {
    throw new RecordedDataError(
      `${AWS_RECORDING_FILE} line ${row.line}, column "network_gbps": "${row.networkGbps}" is finer than one megabit`,
    );
  }
  return `${`${whole}${fraction.padEnd(3, '0')}`.replace(/^0+(?=\d)/, '')} Megabit`;
}

/** The recorded USD text with AWS's ten decimals ("0.0052" -> "0.0052000000"), value unchanged. */
export function awsPriceText(usd: string): string {
  const [whole = '0', fraction = ''] = usd.split('.');
  return `${whole}.${fraction.padEnd(10, '0')}`;
}

function productOf(row: AwsRecordedRow, sku: string): Json {
  const { location, usagePrefix } = EC2_REGIONS[row.region];
  const gpuName = ec2GpuType(row.instanceType, row.gpuCount);
  if (row.gpuCount > 0 && gpuName?.toLowerCase() !== row.gpuName.toLowerCase()) {
    throw new RecordedDataError(
      `${AWS_RECORDING_FILE} line ${row.line}, column "gpu_name": "${row.gpuName}", but the adapter names the GPU of ${row.instanceType} "${gpuName ?? ''}"; update EC2_GPU_MODELS first`,
    );
  }
  const attributes: Record<string, string> = {
    servicecode: 'AmazonEC2',
    location,
    locationType: 'AWS Region',
    instanceType: row.instanceType,
    instanceFamily: instanceFamilyOf(row),
    vcpu: String(row.vcpus),
    physicalProcessor: row.cpuManufacturer,
    memory: memoryText(row.memoryMib),
    storage: storageText(row),
    networkPerformance: networkText(row),
    processorArchitecture: row.cpuArch,
    tenancy: 'Shared',
    operatingSystem: 'Linux',
    licenseModel: 'No License required',
    usagetype: `${usagePrefix}-BoxUsage:${row.instanceType}`,
    operation: 'RunInstances',
    capacitystatus: 'Used',
  };
  if (row.gpuCount > 0) attributes['gpu'] = String(row.gpuCount);
  attributes['marketoption'] = 'OnDemand';
  attributes['preInstalledSw'] = 'NA';
  attributes['regionCode'] = row.region;
  attributes['servicename'] = 'Amazon Elastic Compute Cloud';
  // AWS files the .metal sizes under their own product family (upstream-formats.md §3.3).
  const productFamily = /\.metal(-|$)/.test(row.instanceType)
    ? 'Compute Instance (bare metal)'
    : 'Compute Instance';
  return { sku, productFamily, attributes };
}

function onDemandOf(row: AwsRecordedRow, sku: string): Json {
  const term = `${sku}.${ON_DEMAND_CODE}`;
  const rate = `${term}.${HOURLY_RATE_CODE}`;
  return {
    [term]: {
      offerTermCode: ON_DEMAND_CODE,
      sku,
      effectiveDate: PUBLICATION_DATE,
      priceDimensions: {
        [rate]: {
          rateCode: rate,
          description: `$${row.priceUsdPerHour} per On Demand Linux ${row.instanceType} Instance Hour`,
          beginRange: '0',
          endRange: 'Inf',
          unit: 'Hrs',
          pricePerUnit: { USD: awsPriceText(row.priceUsdPerHour) },
          appliesTo: [],
        },
      },
      termAttributes: {},
    },
  };
}

/** The synthetic SKU of a recorded row: 16 characters from a hash of region and type. */
export function recordedSku(region: AwsRegion, instanceType: string): string {
  return skuFor(`provider_c/${region}/${instanceType}`);
}

function regionFileText(rows: readonly AwsRecordedRow[]): string {
  const products: [string, Json][] = [];
  const onDemand: [string, Json][] = [];
  for (const row of rows) {
    const sku = recordedSku(row.region, row.instanceType);
    products.push([sku, productOf(row, sku)]);
    onDemand.push([sku, onDemandOf(row, sku)]);
  }
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: `Generated by cloudprice from prices recorded from the AWS Price List API on ${AWS_OBSERVED_AT} (${ATTRIBUTION}); see metadata.json and ${LICENCE_FILE} at the top of this snapshot.`,
    offerCode: 'AmazonEC2',
    version: VERSION,
    publicationDate: PUBLICATION_DATE,
    products: Object.fromEntries(products),
    terms: { OnDemand: Object.fromEntries(onDemand) },
    attributesList: {},
  };
  return `${formatAwsJson(doc)}\n`;
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

function metadataText(rows: readonly AwsRecordedRow[]): string {
  const perRegion = Object.fromEntries(
    AWS_REGIONS.map((region) => [region, rows.filter((r) => r.region === region).length]),
  );
  const metadata = {
    provider: 'provider_c',
    data_source: PROVIDER_C_DATA_SOURCE,
    upstream:
      'AWS Price List Bulk API, EC2 offer files (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/index.json)',
    recorded_in: `Spare Cores sc-data, commit ${SPARE_CORES_COMMIT}, src/sc_data/data/sc-data-all.db (crawled from the AWS Price List API); kept in this repository as data/sources/${AWS_RECORDING_FILE}`,
    observed_at: AWS_OBSERVED_AT,
    licence: {
      name: 'CC BY-SA 4.0',
      attribution: ATTRIBUTION,
      notice: LICENCE_FILE,
      scope:
        'this directory (data/snapshots/provider_c) and data/sources/aws-ap-ondemand-linux-2024-02-21.csv are a separately licensed data file; the code is not',
    },
    generated_by: 'src/providers/provider-c/snapshot/generate.ts (npm run snapshots:generate)',
    records: rows.length,
    records_per_region: perRegion,
    slice:
      'operatingSystem Linux, tenancy Shared, preInstalledSw NA, licenseModel No License required, capacitystatus Used, on demand: the products the adapter lists, and only those',
    prices:
      'Every pricePerUnit.USD is the recorded price_usd_per_hour, padded to the ten decimals AWS writes and otherwise unchanged. Monthly prices are hourly x 730 (D36). No price is derived, estimated or remembered.',
    from_the_recording: [
      'instanceType, regionCode, vcpu, memory (memory_mib / 1024, exact, as "N GiB"), gpu (gpu_count)',
      'storage: "EBS only" when storage_gb is 0, else "1 x <storage_gb> <NVMe SSD|SSD|HDD>" (the recording gives the total, not the disk count)',
      'networkPerformance: the recorded baseline bandwidth (network_gbps) written as "N Gigabit" or "N Megabit"; AWS itself writes a class or a burst ceiling ("Up to 12500 Megabit")',
      'physicalProcessor: the recorded processor maker only (cpu_manufacturer: Intel, AMD, AWS); processorArchitecture: the recorded cpu_arch (X86_64, ARM64, I386), not AWS\'s "64-bit"',
      'GPU name: not an offer-file attribute; the adapter names GPUs by instance family (src/providers/provider-c/classify.ts), and the generator stops if that name differs from the recorded gpu_name',
    ],
    synthetic: [
      'sku: 16 characters from a SHA-256 of "provider_c/<region>/<instance type>" (the recording has no SKUs)',
      'offerTermCode JRTCKXETXF and rate code 6YS6EN2CT7: the real on-demand codes, the same in every AWS offer file; the term and rate keys are built from the synthetic SKU',
      `version ${VERSION}, publicationDate and effectiveDate ${AWS_OBSERVED_AT}: the time the figures were observed, not a date AWS published`,
      "instanceFamily: from the type name by AWS's naming scheme (t1 Micro; t, m, a, mac General purpose; c, hpc Compute optimized; r, x, z, u- Memory optimized; i, d, h, im, is Storage optimized; g, p GPU instance; inf, trn, f, vt accelerators)",
      'productFamily "Compute Instance (bare metal)" for the .metal and .metal-<n>xl sizes, as AWS files them; the fixed attributes of the slice (servicecode, location, usagetype, operation, tenancy, operatingSystem, licenseModel, capacitystatus, marketoption, preInstalledSw)',
    ],
    not_listed:
      'The inf, trn and vt accelerator types (no GPU count, so no honest instance_family under D35) are in the files but not in the catalogue; every other recorded type is listed, the bare-metal sizes included.',
    known_gaps:
      'Types AWS launched after February 2024 are missing, and prices may have changed since.',
    statement: `Real AWS on-demand Linux list prices, observed on ${AWS_OBSERVED_AT.slice(0, 10)} and recorded by Spare Cores (${ATTRIBUTION}). A live sync (PROVIDER_C_URL=https://pricing.us-east-1.amazonaws.com) replaces them.`,
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

function licenceText(): string {
  return `# Data licence: provider_c snapshot

The files in this directory (\`data/snapshots/provider_c/\`) are generated from
\`data/sources/${AWS_RECORDING_FILE}\`, which holds AWS EC2 on-demand prices recorded
from the AWS Price List API on ${AWS_OBSERVED_AT} by Spare Cores.

Attribution: **${ATTRIBUTION}**.
Source: Spare Cores sc-data (https://github.com/SpareCores/sc-data), commit
\`${SPARE_CORES_COMMIT}\`, \`src/sc_data/data/sc-data-all.db\`.

These data files are licensed under the Creative Commons Attribution-ShareAlike 4.0
International licence (https://creativecommons.org/licenses/by-sa/4.0/). They are a separately
licensed part of this repository: the cloudprice source code is not under CC BY-SA, and
this licence does not extend to it. If you redistribute these files or data derived from
them, keep this notice and share the derived data under the same licence.

Changes made: the recording was converted into the AWS Price List offer-file layout with
synthetic SKUs and dates (see \`metadata.json\`); every price is unchanged.
`;
}

export interface ProviderCGenerateOptions {
  /** Keep only these recorded rows (test fixtures hold a subset; the bundled snapshot all). */
  readonly keep?: (row: AwsRecordedRow) => boolean;
}

/** Writes the snapshot under `outDir` (replacing what is there); returns the relative paths. */
export async function generateProviderCSnapshot(
  outDir: string,
  options: ProviderCGenerateOptions = {},
): Promise<string[]> {
  const keep = options.keep ?? (() => true);
  const rows = (await readAwsRecording()).filter(keep);
  const files: SnapshotFile[] = [
    ['offers/v1.0/aws/index.json', offerIndexText()],
    ['offers/v1.0/aws/AmazonEC2/current/region_index.json', regionIndexText()],
    ...AWS_REGIONS.map((region): [string, string] => [
      `offers/v1.0/aws/AmazonEC2/current/${region}/index.json`,
      regionFileText(rows.filter((row) => row.region === region)),
    ]),
    ['metadata.json', metadataText(rows)],
    [LICENCE_FILE, licenceText()],
  ];
  return writeSnapshotFiles(outDir, files);
}

runWhenInvoked(import.meta.url, 'provider_c', generateProviderCSnapshot);

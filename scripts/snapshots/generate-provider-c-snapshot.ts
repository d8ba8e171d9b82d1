// Generates provider_c's bundled snapshot (data/snapshots/provider_c/) from the table in
// provider-c-catalog.ts, in the real AWS Price List Bulk layout: the offer index, the EC2 region
// index and one region offer file per Asian region, with filtered-out neighbours (Windows, RHEL,
// Dedicated, BYOL, capacity reservations, a Local Zone, bare metal, Storage) and a few reserved
// terms, so a sync from the snapshot exercises the same filter as a live one. Deterministic:
// running it twice gives the same bytes.
//
//   npx tsx scripts/snapshots/generate-provider-c-snapshot.ts [outDir]
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatAwsJson, type Json } from './aws-offer-json.js';
import {
  CATALOG,
  KNOWN_PRICES,
  REGION_FACTORS,
  snapshotPrice,
  type CatalogType,
} from './provider-c-catalog.js';
import {
  EC2_REGIONS,
  EC2_REGION_CODES,
  RESERVED_TERMS,
  onDemandFor,
  onDemandRecord,
  priceText,
  productRecord,
  reservedRecord,
  skuFor,
  variantMicros,
  type Ec2RegionCode,
  type ProductVariant,
} from './provider-c-records.js';

export const SNAPSHOT_DATE = '2026-11-22';
const VERSION = '20261122000000';
const PUBLICATION_DATE = '2026-11-22T00:00:00Z';
const EFFECTIVE_DATE = '2026-11-01T00:00:00Z';
const DISCLAIMER =
  'This pricing list is for informational purposes only. All prices are subject to the ' +
  'additional terms included in the pricing pages on http://aws.amazon.com. All Free Tier ' +
  'prices are also subject to the terms included at https://aws.amazon.com/free/';
const EC2_BASE = '/offers/v1.0/aws/AmazonEC2';

/** One filtered-out neighbour per instance type, in turn. */
const NEIGHBOURS: readonly ProductVariant[] = [
  'windows',
  'rhel',
  'dedicated',
  'byol',
  'unused-cr',
  'sql-std',
  'suse',
  'allocated-cr',
];
const SNAPSHOT_RESERVED = RESERVED_TERMS.filter((t) =>
  ['4NA7Y494T4', '38NPMPTW36', 'MZU6U2429S'].includes(t.code),
);

interface RegionFile {
  readonly products: [string, Json][];
  readonly onDemand: [string, Json][];
  readonly reserved: [string, Json][];
}

function addProduct(
  file: RegionFile,
  region: Ec2RegionCode,
  type: CatalogType,
  variant: ProductVariant,
  linuxMicros: number,
  withReserved: boolean,
  productFamily?: string,
): void {
  const sku = skuFor(`provider_c/${region}/${type.spec.instanceType}/${variant}`);
  const record = productRecord(sku, type.spec, region, variant);
  const product =
    productFamily === undefined || typeof record !== 'object' || record === null
      ? record
      : { ...record, productFamily };
  const micros = variantMicros(linuxMicros, type.spec.vcpu, variant);
  file.products.push([sku, product]);
  file.onDemand.push([
    sku,
    onDemandFor(sku, micros, variant, type.spec.instanceType, EFFECTIVE_DATE),
  ]);
  if (withReserved) {
    file.reserved.push([sku, reservedRecord(sku, micros, SNAPSHOT_RESERVED, EFFECTIVE_DATE)]);
  }
}

/** EBS gp3 storage: a product of another family, priced per GB-month (Tokyo $0.096, §3.6). */
function addStorage(file: RegionFile, region: Ec2RegionCode): void {
  const { location, usagePrefix } = EC2_REGIONS[region];
  const sku = skuFor(`provider_c/${region}/ebs-gp3`);
  const micros = region === 'ap-northeast-2' ? 91_200 : region === 'ap-east-1' ? 105_600 : 96_000;
  file.products.push([
    sku,
    {
      sku,
      productFamily: 'Storage',
      attributes: {
        servicecode: 'AmazonEC2',
        location,
        locationType: 'AWS Region',
        storageMedia: 'SSD-backed',
        volumeType: 'General Purpose',
        maxVolumeSize: '16 TiB',
        maxIopsvolume: '16000',
        maxThroughputvolume: '1000 MiB/s',
        usagetype: `${usagePrefix}-EBS:VolumeUsage.gp3`,
        operation: '',
        regionCode: region,
        servicename: 'Amazon Elastic Compute Cloud',
        volumeApiName: 'gp3',
      },
    },
  ]);
  const description = `$${(micros / 1e6).toFixed(3)} per GB-month of General Purpose (gp3) provisioned storage - ${location}`;
  const record = onDemandRecord(sku, micros, description, EFFECTIVE_DATE);
  file.onDemand.push([sku, JSON.parse(JSON.stringify(record).replace('"Hrs"', '"GB-Mo"')) as Json]);
}

function regionFile(region: Ec2RegionCode): RegionFile {
  const file: RegionFile = { products: [], onDemand: [], reserved: [] };
  const types = CATALOG.filter((t) => t.regions === undefined || t.regions.includes(region));
  types.forEach((type, index) => {
    const { micros } = snapshotPrice(type, region);
    const name = type.spec.instanceType;
    addProduct(file, region, type, 'linux', micros, index % 5 === 0);
    const neighbour = NEIGHBOURS[index % NEIGHBOURS.length] ?? 'windows';
    addProduct(file, region, type, neighbour, micros, index % 7 === 0);
    if (name === 'g5.xlarge') addProduct(file, region, type, 'capacity-block', micros, false);
    if (region === 'ap-northeast-1' && (name === 't3.micro' || name === 'c5.large')) {
      addProduct(file, region, type, 'local-zone', micros, false);
    }
    if (name === 'm5.2xlarge') {
      // Bare metal is its own product family: never listed.
      const metal: CatalogType = {
        ...type,
        usEastMicros: 4_608_000,
        spec: {
          ...type.spec,
          instanceType: 'm5.metal',
          vcpu: 96,
          memory: '384 GiB',
          networkPerformance: '25 Gigabit',
        },
      };
      const metalMicros = snapshotPrice(metal, region).micros;
      addProduct(file, region, metal, 'linux', metalMicros, false, 'Compute Instance (bare metal)');
    }
  });
  addStorage(file, region);
  return file;
}

function regionFileText(region: Ec2RegionCode): string {
  const file = regionFile(region);
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: DISCLAIMER,
    offerCode: 'AmazonEC2',
    version: VERSION,
    publicationDate: PUBLICATION_DATE,
    products: Object.fromEntries(file.products),
    terms: {
      OnDemand: Object.fromEntries(file.onDemand),
      Reserved: Object.fromEntries(file.reserved),
    },
    attributesList: {},
  };
  return `${formatAwsJson(doc)}\n`;
}

function offerIndexText(): string {
  const other = (code: string) => ({
    offerCode: code,
    versionIndexUrl: `/offers/v1.0/aws/${code}/index.json`,
    currentVersionUrl: `/offers/v1.0/aws/${code}/current/index.json`,
    currentRegionIndexUrl: `/offers/v1.0/aws/${code}/current/region_index.json`,
  });
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: DISCLAIMER,
    publicationDate: PUBLICATION_DATE,
    offers: {
      AmazonS3: other('AmazonS3'),
      AmazonEC2: {
        ...other('AmazonEC2'),
        savingsPlanVersionIndexUrl: '/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/index.json',
        currentSavingsPlanIndexUrl:
          '/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json',
      },
      AmazonRDS: other('AmazonRDS'),
    },
  };
  return `${formatAwsJson(doc)}\n`;
}

function regionIndexText(): string {
  // Real region indexes list every region; the snapshot holds files for our five only.
  const codes = ['us-east-1', ...EC2_REGION_CODES, 'eu-west-1'];
  const doc: Json = {
    formatVersion: 'v1.0',
    disclaimer: DISCLAIMER,
    publicationDate: PUBLICATION_DATE,
    regions: Object.fromEntries(
      codes.map((code) => [
        code,
        { regionCode: code, currentVersionUrl: `${EC2_BASE}/current/${code}/index.json` },
      ]),
    ),
  };
  return `${formatAwsJson(doc)}\n`;
}

function metadataText(): string {
  const derived: Record<string, string[]> = {};
  let derivedCount = 0;
  for (const region of EC2_REGION_CODES) {
    derived[region] = CATALOG.filter((t) => t.regions === undefined || t.regions.includes(region))
      .filter((t) => snapshotPrice(t, region).status === 'derived')
      .map((t) => t.spec.instanceType);
    derivedCount += derived[region].length;
  }
  const known = (status: 'confirmed' | 'recalled') =>
    KNOWN_PRICES.filter((k) => k.status === status).map((k) => ({
      region: k.region,
      instance_type: k.instanceType,
      hourly_usd: priceText(k.micros),
      source: k.source,
    }));
  const metadata = {
    provider: 'provider_c',
    source:
      'AWS Price List Bulk API, EC2 offer files (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/index.json), in the real file layout',
    generated_by:
      'scripts/snapshots/generate-provider-c-snapshot.ts (table: scripts/snapshots/provider-c-catalog.ts)',
    snapshot_date: SNAPSHOT_DATE,
    prices_are_approximate: true,
    statement:
      'These prices are approximate and dated ' +
      SNAPSHOT_DATE +
      '. Only the prices listed under "confirmed" were read from a real price list or bill; those under "recalled" are remembered, not verified; every other price is derived (a recalled us-east-1 list price times a regional factor, rounded to $0.0001). SKUs are made up. A live sync against the AWS Price List Bulk API replaces all of them.',
    confirmed: known('confirmed'),
    recalled: known('recalled'),
    derived: {
      count: derivedCount,
      method:
        'us-east-1 on-demand Linux list price (recalled) x region_factors[region][group], rounded to $0.0001',
      region_factors: REGION_FACTORS,
      instance_types: derived,
    },
    filtered_out_neighbours:
      'each region file also holds Windows, RHEL, SUSE, SQL Server, BYOL, Dedicated, capacity-reservation and capacity-block variants, a Tokyo Local Zone, bare metal and EBS gp3 products; their prices are rough and never listed',
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

export async function generateProviderCSnapshot(outDir: string): Promise<string[]> {
  const files: [string, string][] = [
    ['offers/v1.0/aws/index.json', offerIndexText()],
    ['offers/v1.0/aws/AmazonEC2/current/region_index.json', regionIndexText()],
    ...EC2_REGION_CODES.map((region): [string, string] => [
      `offers/v1.0/aws/AmazonEC2/current/${region}/index.json`,
      regionFileText(region),
    ]),
    ['metadata.json', metadataText()],
  ];
  for (const [relative, text] of files) {
    const target = path.join(outDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  return files.map(([relative]) => relative);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'data/snapshots/provider_c'));
  generateProviderCSnapshot(outDir).then(
    (written) => console.log(`provider_c snapshot: wrote ${written.length} files under ${outDir}`),
    (err: unknown) => {
      console.error('provider_c snapshot generation failed:', err);
      process.exitCode = 1;
    },
  );
}

// Writes a synthetic AWS EC2 region offer file of about `targetBytes` in the real layout
// (upstream-formats.md §3.2): products first, then terms.OnDemand, then terms.Reserved (which,
// as in real files, is most of the bytes), then attributesList. About 1 product in 50 passes
// our filter (us-east-1 in 2026: ~2k of ~106k), about 1 in 10 is a Linux neighbour (dedicated,
// capacity reservation, capacity block) that the scanner has to parse to reject. Streamed to
// disk in ~1 MiB writes: nothing close to the file's size is ever held in memory.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatAwsJson } from '../../src/providers/provider-c/snapshot/aws-offer-json.js';
import {
  RESERVED_TERMS,
  onDemandFor,
  productRecord,
  reservedRecord,
  skuFor,
  variantMicros,
  type Ec2RegionCode,
  type Ec2TypeSpec,
  type ProductVariant,
} from '../../src/providers/provider-c/snapshot/records.js';

export interface GeneratedOfferFile {
  readonly path: string;
  readonly bytes: number;
  readonly products: number;
  /** Products our filter keeps (each with a distinct instance type). */
  readonly keptProducts: number;
}

const BASE_TYPES: readonly Ec2TypeSpec[] = [
  spec('m5.large', 'General purpose', 2, '8 GiB', 'EBS only', 'Up to 10 Gigabit'),
  spec('c6i.xlarge', 'Compute optimized', 4, '8 GiB', 'EBS only', 'Up to 12500 Megabit'),
  spec('r6i.2xlarge', 'Memory optimized', 8, '64 GiB', 'EBS only', 'Up to 12500 Megabit'),
  spec('i4i.xlarge', 'Storage optimized', 4, '32 GiB', '1 x 937 NVMe SSD', 'Up to 25 Gigabit'),
  spec('t3.micro', 'General purpose', 2, '1 GiB', 'EBS only', 'Up to 5 Gigabit'),
];

function spec(
  instanceType: string,
  instanceFamily: string,
  vcpu: number,
  memory: string,
  storage: string,
  networkPerformance: string,
): Ec2TypeSpec {
  return {
    instanceType,
    instanceFamily,
    vcpu,
    memory,
    storage,
    networkPerformance,
    physicalProcessor: 'Intel Xeon Platinum 8375C (Ice Lake)',
    clockSpeed: '3.5 GHz',
    processorArchitecture: '64-bit',
    currentGeneration: 'Yes',
  };
}

/** Neighbours in roughly the mix of a real file: mostly other OSes, some Linux variants. */
const NEIGHBOURS: readonly ProductVariant[] = [
  'windows',
  'rhel',
  'suse',
  'sql-std',
  'byol',
  'windows',
  'rhel',
  'dedicated',
  'unused-cr',
  'allocated-cr',
  'capacity-block',
  'suse',
];

const PLACEHOLDER = 'QQQQQQQQQQQQQQQQ';
const EFFECTIVE = '2026-11-01T00:00:00Z';
const KEEP_EVERY = 50;

interface SkuText {
  readonly product: string;
  readonly onDemand: string;
  readonly reserved: string;
}

/** Formatted records with a placeholder SKU, cached per (type, variant): formatting is slow. */
function textCache(region: Ec2RegionCode) {
  const cache = new Map<string, SkuText>();
  return (typeSpec: Ec2TypeSpec, variant: ProductVariant, micros: number): SkuText => {
    const key = `${typeSpec.instanceType}|${variant}|${micros}`;
    let text = cache.get(key);
    if (text === undefined) {
      const price = variantMicros(micros, typeSpec.vcpu, variant);
      text = {
        product: formatAwsJson(productRecord(PLACEHOLDER, typeSpec, region, variant), 2),
        onDemand: formatAwsJson(
          onDemandFor(PLACEHOLDER, price, variant, typeSpec.instanceType, EFFECTIVE),
          3,
        ),
        reserved: formatAwsJson(reservedRecord(PLACEHOLDER, price, RESERVED_TERMS, EFFECTIVE), 3),
      };
      cache.set(key, text);
    }
    return text;
  };
}

/** The SKU-th product: every KEEP_EVERY-th is a kept Linux product of a type of its own. */
function productAt(index: number): {
  typeSpec: Ec2TypeSpec;
  variant: ProductVariant;
  kept: boolean;
} {
  const base = BASE_TYPES[index % BASE_TYPES.length] ?? BASE_TYPES[0];
  if (base === undefined) throw new Error('no base types');
  if (index % KEEP_EVERY === 0) {
    // A distinct synthetic type per kept product ("m5x40.large"), so none is a duplicate.
    const [family, size] = base.instanceType.split('.');
    const typeSpec = { ...base, instanceType: `${family}x${index}.${size}` };
    return { typeSpec, variant: 'linux', kept: true };
  }
  const variant = NEIGHBOURS[index % NEIGHBOURS.length] ?? 'windows';
  return { typeSpec: base, variant, kept: false };
}

/** SKUs with reserved offers: two in three, all eight offers each (real files: most SKUs). */
function hasReserved(index: number): boolean {
  return index % 3 !== 2;
}

export async function writeOfferFile(
  path: string,
  targetBytes: number,
  region: Ec2RegionCode = 'ap-northeast-1',
): Promise<GeneratedOfferFile> {
  const texts = textCache(region);
  const micros = 124_000;
  // Bytes per SKU, averaged over one cycle of variants, to size the file.
  let cycleBytes = 0;
  const cycle = BASE_TYPES.length * NEIGHBOURS.length;
  for (let k = 1; k <= cycle; k++) {
    const { typeSpec, variant } = productAt(k);
    const t = texts(typeSpec, variant, micros);
    cycleBytes += t.product.length + t.onDemand.length + 40;
    if (hasReserved(k)) cycleBytes += t.reserved.length + 20;
  }
  const skus = Math.max(KEEP_EVERY, Math.round(targetBytes / (cycleBytes / cycle)));

  const out = createWriteStream(path);
  let pending: string[] = [];
  let pendingLength = 0;
  let bytes = 0;
  const write = async (text: string): Promise<void> => {
    pending.push(text);
    pendingLength += text.length;
    if (pendingLength >= 1 << 20) await flush();
  };
  const flush = async (): Promise<void> => {
    const piece = pending.join('');
    pending = [];
    pendingLength = 0;
    bytes += Buffer.byteLength(piece);
    if (!out.write(piece)) await once(out, 'drain');
  };

  await write(
    '{\n  "formatVersion" : "v1.0",\n  "disclaimer" : "This pricing list is for informational ' +
      'purposes only. All prices are subject to the additional terms included in the pricing ' +
      'pages on http://aws.amazon.com. All Free Tier prices are also subject to the terms ' +
      'included at https://aws.amazon.com/free/",\n  "offerCode" : "AmazonEC2",\n' +
      '  "version" : "20261101000000",\n  "publicationDate" : "2026-11-01T00:00:00Z",\n' +
      '  "products" : {\n',
  );
  let kept = 0;
  for (let k = 0; k < skus; k++) {
    const { typeSpec, variant, kept: isKept } = productAt(k);
    if (isKept) kept++;
    const sku = skuFor(`bench/${k}`);
    const product = texts(typeSpec, variant, micros).product.replaceAll(PLACEHOLDER, sku);
    await write(`${k === 0 ? '' : ',\n'}    "${sku}" : ${product}`);
  }
  await write('\n  },\n  "terms" : {\n    "OnDemand" : {\n');
  for (let k = 0; k < skus; k++) {
    const { typeSpec, variant } = productAt(k);
    const sku = skuFor(`bench/${k}`);
    const onDemand = texts(typeSpec, variant, micros).onDemand.replaceAll(PLACEHOLDER, sku);
    await write(`${k === 0 ? '' : ',\n'}      "${sku}" : ${onDemand}`);
  }
  await write('\n    },\n    "Reserved" : {\n');
  let first = true;
  for (let k = 0; k < skus; k++) {
    if (!hasReserved(k)) continue;
    const { typeSpec, variant } = productAt(k);
    const sku = skuFor(`bench/${k}`);
    const reserved = texts(typeSpec, variant, micros).reserved.replaceAll(PLACEHOLDER, sku);
    await write(`${first ? '' : ',\n'}      "${sku}" : ${reserved}`);
    first = false;
  }
  await write(
    '\n    }\n  },\n  "attributesList" : {\n    "instanceFamily" : [ "General purpose", ' +
      '"Compute optimized", "Memory optimized", "Storage optimized" ]\n  }\n}\n',
  );
  await flush();
  out.end();
  await once(out, 'finish');
  return { path, bytes, products: skus, keptProducts: kept };
}

/**
 * A directory in the bulk API's layout whose region index lists one region (ap-northeast-1)
 * with a generated offer file of about `targetBytes`: what a file:// upstream client reads.
 */
export async function writeOfferTree(
  dir: string,
  targetBytes: number,
): Promise<GeneratedOfferFile> {
  const ec2 = '/offers/v1.0/aws/AmazonEC2/current';
  await mkdir(path.join(dir, ec2, 'ap-northeast-1'), { recursive: true });
  await writeFile(
    path.join(dir, 'offers/v1.0/aws/index.json'),
    formatAwsJson({
      formatVersion: 'v1.0',
      offers: {
        AmazonEC2: { offerCode: 'AmazonEC2', currentRegionIndexUrl: `${ec2}/region_index.json` },
      },
    }),
  );
  await writeFile(
    path.join(dir, ec2, 'region_index.json'),
    formatAwsJson({
      formatVersion: 'v1.0',
      regions: {
        'ap-northeast-1': {
          regionCode: 'ap-northeast-1',
          currentVersionUrl: `${ec2}/ap-northeast-1/index.json`,
        },
      },
    }),
  );
  return writeOfferFile(path.join(dir, ec2, 'ap-northeast-1/index.json'), targetBytes);
}

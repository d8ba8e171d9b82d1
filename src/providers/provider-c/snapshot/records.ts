// Builders for AWS EC2 offer-file records in the real shape (upstream-formats.md §3.2-3.3):
// products in their attribute order, on-demand and reserved terms. Shared by the snapshot
// generator and the sync bench's file generator. SKUs are made up (deterministic), the shapes
// and codes are the real ones.
import { createHash } from 'node:crypto';
import type { Json } from './aws-offer-json.js';

/** §3.5: the five Asian regions of provider_c, with their usage-type prefixes. */
export const EC2_REGIONS = {
  'ap-northeast-1': { location: 'Asia Pacific (Tokyo)', usagePrefix: 'APN1' },
  'ap-northeast-2': { location: 'Asia Pacific (Seoul)', usagePrefix: 'APN2' },
  'ap-northeast-3': { location: 'Asia Pacific (Osaka)', usagePrefix: 'APN3' },
  'ap-southeast-1': { location: 'Asia Pacific (Singapore)', usagePrefix: 'APS1' },
  'ap-east-1': { location: 'Asia Pacific (Hong Kong)', usagePrefix: 'APE1' },
} as const;
export type Ec2RegionCode = keyof typeof EC2_REGIONS;
export const EC2_REGION_CODES = Object.keys(EC2_REGIONS) as Ec2RegionCode[];

/** One instance type's hardware, as the offer file states it. */
export interface Ec2TypeSpec {
  readonly instanceType: string;
  readonly instanceFamily: string;
  readonly vcpu: number;
  readonly memory: string;
  readonly storage: string;
  readonly networkPerformance: string;
  readonly physicalProcessor: string;
  readonly clockSpeed: string;
  readonly processorArchitecture: '64-bit' | '32-bit or 64-bit';
  readonly gpu?: number;
  readonly gpuMemory?: string;
  readonly currentGeneration: 'Yes' | 'No';
}

/**
 * Product variants. Only `linux` passes our filter (offer-records.ts); the others are the
 * neighbours a real region file holds for the same instance type.
 */
export const PRODUCT_VARIANTS = [
  'linux',
  'windows',
  'rhel',
  'suse',
  'dedicated',
  'byol',
  'unused-cr',
  'allocated-cr',
  'sql-std',
  'capacity-block',
  'local-zone',
] as const;
export type ProductVariant = (typeof PRODUCT_VARIANTS)[number];

export const ON_DEMAND_CODE = 'JRTCKXETXF';
export const HOURLY_RATE_CODE = '6YS6EN2CT7';
export const UPFRONT_RATE_CODE = '2TG2D8R56U';

/** Reserved offer term codes (public, the same in every offer file) and their attributes. */
export const RESERVED_TERMS = [
  { code: '4NA7Y494T4', lease: '1yr', offering: 'standard', purchase: 'No Upfront', factor: 0.63 },
  {
    code: 'HU7G6KETJZ',
    lease: '1yr',
    offering: 'standard',
    purchase: 'Partial Upfront',
    factor: 0.6,
  },
  { code: '6QCMYABX3D', lease: '1yr', offering: 'standard', purchase: 'All Upfront', factor: 0.59 },
  {
    code: '7NE97W5U4E',
    lease: '1yr',
    offering: 'convertible',
    purchase: 'No Upfront',
    factor: 0.72,
  },
  { code: 'BPH4J8HBKS', lease: '3yr', offering: 'standard', purchase: 'No Upfront', factor: 0.45 },
  {
    code: '38NPMPTW36',
    lease: '3yr',
    offering: 'standard',
    purchase: 'Partial Upfront',
    factor: 0.42,
  },
  { code: 'NQ3QZPMQV9', lease: '3yr', offering: 'standard', purchase: 'All Upfront', factor: 0.4 },
  {
    code: 'MZU6U2429S',
    lease: '3yr',
    offering: 'convertible',
    purchase: 'All Upfront',
    factor: 0.47,
  },
  {
    code: 'Z2E3P23VKM',
    lease: '3yr',
    offering: 'convertible',
    purchase: 'No Upfront',
    factor: 0.52,
  },
] as const;

const SKU_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A 16-character SKU derived from `seed` (made up, stable across runs). */
export function skuFor(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let sku = '';
  for (let i = 0; i < 16; i++) sku += SKU_ALPHABET[(digest[i] ?? 0) % 32];
  return sku;
}

/** Integer micro-dollars as the offer file writes prices: ten decimals ("0.0136000000"). */
export function priceText(micros: number): string {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${whole}.${fraction}0000`;
}

function osOf(variant: ProductVariant): {
  os: string;
  operation: string;
  license: string;
  sw: string;
} {
  switch (variant) {
    case 'windows':
      return {
        os: 'Windows',
        operation: 'RunInstances:0002',
        license: 'No License required',
        sw: 'NA',
      };
    case 'rhel':
      return {
        os: 'RHEL',
        operation: 'RunInstances:0010',
        license: 'No License required',
        sw: 'NA',
      };
    case 'suse':
      return {
        os: 'SUSE',
        operation: 'RunInstances:000g',
        license: 'No License required',
        sw: 'NA',
      };
    case 'byol':
      return {
        os: 'Windows',
        operation: 'RunInstances:0800',
        license: 'Bring your own license',
        sw: 'NA',
      };
    case 'sql-std':
      return {
        os: 'Windows',
        operation: 'RunInstances:0006',
        license: 'No License required',
        sw: 'SQL Std',
      };
    default:
      return { os: 'Linux', operation: 'RunInstances', license: 'No License required', sw: 'NA' };
  }
}

/** What the variant's usage type says before `:<type>`. */
function usageOf(variant: ProductVariant, prefix: string): string {
  switch (variant) {
    case 'dedicated':
      return `${prefix}-DedicatedUsage`;
    case 'unused-cr':
      return `${prefix}-UnusedBox`;
    case 'allocated-cr':
      return `${prefix}-Reservation`;
    case 'local-zone':
      return `${prefix}-TPE1-BoxUsage`;
    default:
      return `${prefix}-BoxUsage`;
  }
}

/** The `products.<sku>` record of `spec` in `region`, as `variant`. */
export function productRecord(
  sku: string,
  spec: Ec2TypeSpec,
  region: Ec2RegionCode,
  variant: ProductVariant,
): Json {
  const { location, usagePrefix } = EC2_REGIONS[region];
  const { os, operation, license, sw } = osOf(variant);
  const localZone = variant === 'local-zone';
  const attributes: Record<string, string> = {
    servicecode: 'AmazonEC2',
    location: localZone ? 'Asia Pacific (Taipei) Local Zone' : location,
    locationType: localZone ? 'AWS Local Zone' : 'AWS Region',
    instanceType: spec.instanceType,
    currentGeneration: spec.currentGeneration,
    instanceFamily: spec.instanceFamily,
    vcpu: String(spec.vcpu),
    physicalProcessor: spec.physicalProcessor,
    clockSpeed: spec.clockSpeed,
    memory: spec.memory,
    storage: spec.storage,
    networkPerformance: spec.networkPerformance,
    processorArchitecture: spec.processorArchitecture,
    tenancy: variant === 'dedicated' ? 'Dedicated' : 'Shared',
    operatingSystem: os,
    licenseModel: license,
    usagetype: `${usageOf(variant, usagePrefix)}:${spec.instanceType}`,
    operation,
    availabilityzone: 'NA',
    capacitystatus:
      variant === 'unused-cr'
        ? 'UnusedCapacityReservation'
        : variant === 'allocated-cr'
          ? 'AllocatedCapacityReservation'
          : 'Used',
    classicnetworkingsupport: 'false',
    dedicatedEbsThroughput: spec.vcpu <= 8 ? 'Up to 4750 Mbps' : '4750 Mbps',
    ecu: 'NA',
    enhancedNetworkingSupported: 'Yes',
  };
  if (spec.gpu !== undefined) attributes['gpu'] = String(spec.gpu);
  attributes['gpuMemory'] = spec.gpuMemory ?? 'NA';
  attributes['intelAvxAvailable'] = spec.physicalProcessor.startsWith('Intel') ? 'Yes' : 'No';
  attributes['marketoption'] = variant === 'capacity-block' ? 'CapacityBlock' : 'OnDemand';
  attributes['normalizationSizeFactor'] = String(Math.max(0.25, spec.vcpu / 4));
  attributes['preInstalledSw'] = sw;
  attributes['processorFeatures'] = spec.physicalProcessor.startsWith('Intel')
    ? 'Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo'
    : 'NA';
  attributes['regionCode'] = localZone ? `${region}-tpe-1` : region;
  attributes['servicename'] = 'Amazon Elastic Compute Cloud';
  attributes['vpcnetworkingsupport'] = 'true';
  return { sku, productFamily: 'Compute Instance', attributes };
}

/** Price-dimension description as AWS words it. */
function describe(micros: number, variant: ProductVariant, instanceType: string): string {
  const os = osOf(variant).os;
  const dollars = (micros / 1_000_000).toFixed(4);
  const kind = variant === 'dedicated' ? 'Dedicated' : 'On Demand';
  return `$${dollars} per ${kind} ${os} ${instanceType} Instance Hour`;
}

/** The `terms.OnDemand.<sku>` value: one JRTCKXETXF term with one "Hrs" dimension. */
export function onDemandRecord(
  sku: string,
  hourlyMicros: number,
  description: string,
  effectiveDate: string,
): Json {
  const term = `${sku}.${ON_DEMAND_CODE}`;
  const rate = `${term}.${HOURLY_RATE_CODE}`;
  return {
    [term]: {
      offerTermCode: ON_DEMAND_CODE,
      sku,
      effectiveDate,
      priceDimensions: {
        [rate]: {
          rateCode: rate,
          description,
          beginRange: '0',
          endRange: 'Inf',
          unit: 'Hrs',
          pricePerUnit: { USD: priceText(hourlyMicros) },
          appliesTo: [],
        },
      },
      termAttributes: {},
    },
  };
}

/** onDemandRecord with AWS's description for `variant` of `instanceType`. */
export function onDemandFor(
  sku: string,
  hourlyMicros: number,
  variant: ProductVariant,
  instanceType: string,
  effectiveDate: string,
): Json {
  return onDemandRecord(
    sku,
    hourlyMicros,
    describe(hourlyMicros, variant, instanceType),
    effectiveDate,
  );
}

/**
 * The `terms.Reserved.<sku>` value with the given reserved offers: an "Hrs" dimension each, plus
 * a "Quantity" upfront fee for Partial and All Upfront (as the real files have).
 */
export function reservedRecord(
  sku: string,
  onDemandMicros: number,
  terms: readonly (typeof RESERVED_TERMS)[number][],
  effectiveDate: string,
): Json {
  const out: Record<string, Json> = {};
  for (const t of terms) {
    const termKey = `${sku}.${t.code}`;
    const years = t.lease === '1yr' ? 1 : 3;
    const effective = Math.round(onDemandMicros * t.factor);
    const upfrontShare =
      t.purchase === 'All Upfront' ? 1 : t.purchase === 'Partial Upfront' ? 0.5 : 0;
    const hourly = Math.round(effective * (1 - upfrontShare));
    const upfront = Math.round((effective * upfrontShare * 8760 * years) / 1_000_000);
    const dimensions: Record<string, Json> = {
      [`${termKey}.${HOURLY_RATE_CODE}`]: {
        rateCode: `${termKey}.${HOURLY_RATE_CODE}`,
        description: 'Linux/UNIX (Amazon VPC), reserved instance applied',
        beginRange: '0',
        endRange: 'Inf',
        unit: 'Hrs',
        pricePerUnit: { USD: priceText(hourly) },
        appliesTo: [],
      },
    };
    if (upfrontShare > 0) {
      dimensions[`${termKey}.${UPFRONT_RATE_CODE}`] = {
        rateCode: `${termKey}.${UPFRONT_RATE_CODE}`,
        description: 'Upfront Fee',
        unit: 'Quantity',
        pricePerUnit: { USD: String(upfront) },
        appliesTo: [],
      };
    }
    out[termKey] = {
      offerTermCode: t.code,
      sku,
      effectiveDate,
      priceDimensions: dimensions,
      termAttributes: {
        LeaseContractLength: t.lease,
        OfferingClass: t.offering,
        PurchaseOption: t.purchase,
      },
    };
  }
  return out;
}

/**
 * Rough list price of a filtered-out variant from the Linux price, so the neighbours look
 * plausible (Windows adds a per-vCPU licence, RHEL/SUSE a subscription, and so on). These
 * prices are never listed by us; they only make the files realistic.
 */
export function variantMicros(linuxMicros: number, vcpu: number, variant: ProductVariant): number {
  switch (variant) {
    case 'windows':
    case 'byol':
      return variant === 'byol' ? linuxMicros : linuxMicros + 46_000 * vcpu;
    case 'sql-std':
      return linuxMicros + 46_000 * vcpu + 120_000 * vcpu;
    case 'rhel':
      return linuxMicros + 14_400 * vcpu;
    case 'suse':
      return linuxMicros + 25_000 + 3_000 * vcpu;
    case 'dedicated':
      return Math.round(linuxMicros * 1.1);
    case 'allocated-cr':
      return 0;
    case 'capacity-block':
      return Math.round(linuxMicros * 0.9);
    case 'local-zone':
      return Math.round(linuxMicros * 1.2);
    default:
      return linuxMicros;
  }
}

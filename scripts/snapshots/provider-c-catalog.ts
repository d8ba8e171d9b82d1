// The table behind provider_c's bundled snapshot: instance types (hardware as AWS states it),
// us-east-1 on-demand Linux prices, regional factors, and the few Asian prices we know
// (upstream-formats.md §3.6). Every snapshot price is one of:
//   confirmed - read from a real price list or bill (§3.6 [src]);
//   recalled  - remembered, not verified (§3.6 [~]);
//   derived   - us-east-1 list price (recalled) x the region's factor, rounded to $0.0001.
// A live sync replaces all of them; metadata.json says so and lists which is which.
import type { Ec2RegionCode, Ec2TypeSpec } from './provider-c-records.js';

export type PriceGroup = 't2' | 't3' | 't4g' | 'm' | 'c' | 'r' | 'i' | 'g4dn' | 'g5';

export interface CatalogType {
  readonly spec: Ec2TypeSpec;
  readonly group: PriceGroup;
  /** us-east-1 on-demand Linux $/h in micro-dollars (recalled list prices). */
  readonly usEastMicros: number;
  /** Regions that offer the type; default: all five. */
  readonly regions?: readonly Ec2RegionCode[];
}

/**
 * Regional price over us-east-1 per group, from the recalled anchors of §3.6 where there are
 * some (Tokyo t3.micro 0.0136/0.0104, m5.large 0.124/0.096, c5.large 0.107/0.085, r5.large
 * 0.152/0.126, t4g.small 0.0216/0.0168; Seoul and Singapore t3.micro and m5.large) and
 * typical AWS regional premiums elsewhere. Osaka is priced as Tokyo, as AWS does.
 */
export const REGION_FACTORS: Readonly<Record<Ec2RegionCode, Readonly<Record<PriceGroup, number>>>> =
  {
    'ap-northeast-1': {
      t2: 1.3103,
      t3: 1.3077,
      t4g: 1.2857,
      m: 1.2917,
      c: 1.2588,
      r: 1.2063,
      i: 1.2616,
      g4dn: 1.3498,
      g5: 1.4503,
    },
    'ap-northeast-3': {
      t2: 1.3103,
      t3: 1.3077,
      t4g: 1.2857,
      m: 1.2917,
      c: 1.2588,
      r: 1.2063,
      i: 1.2616,
      g4dn: 1.3498,
      g5: 1.4503,
    },
    'ap-northeast-2': {
      t2: 1.2414,
      t3: 1.25,
      t4g: 1.25,
      m: 1.2292,
      c: 1.1294,
      r: 1.2063,
      i: 1.2,
      g4dn: 1.23,
      g5: 1.3,
    },
    'ap-southeast-1': {
      t2: 1.2586,
      t3: 1.2692,
      t4g: 1.25,
      m: 1.25,
      c: 1.1529,
      r: 1.2063,
      i: 1.2,
      g4dn: 1.3992,
      g5: 1.4,
    },
    'ap-east-1': {
      t2: 1.3793,
      t3: 1.3846,
      t4g: 1.38,
      m: 1.375,
      c: 1.3765,
      r: 1.3333,
      i: 1.38,
      g4dn: 1.45,
      g5: 1.5,
    },
  };

export interface KnownPrice {
  readonly region: Ec2RegionCode;
  readonly instanceType: string;
  readonly micros: number;
  readonly status: 'confirmed' | 'recalled';
  readonly source: string;
}

/** Asian prices from upstream-formats.md §3.6; they override the derived figure. */
export const KNOWN_PRICES: readonly KnownPrice[] = [
  {
    region: 'ap-northeast-1',
    instanceType: 't4g.small',
    micros: 21_600,
    status: 'confirmed',
    source: 'ap-northeast-1 offer file, read 2026-07-23 (upstream-formats.md §3.6)',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 't4g.medium',
    micros: 43_200,
    status: 'confirmed',
    source: 'ap-northeast-1 offer file, read 2026-07-23 (upstream-formats.md §3.6)',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 't2.micro',
    micros: 15_200,
    status: 'confirmed',
    source: 'a Tokyo billing line (upstream-formats.md §3.6)',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 't3.micro',
    micros: 13_600,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~]',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 't3.small',
    micros: 27_200,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~]',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 't3.medium',
    micros: 54_400,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~]',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 'm5.large',
    micros: 124_000,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~]',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 'c5.large',
    micros: 107_000,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~]',
  },
  {
    region: 'ap-northeast-1',
    instanceType: 'r5.large',
    micros: 152_000,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~]',
  },
  {
    region: 'ap-northeast-2',
    instanceType: 't3.micro',
    micros: 13_000,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~] (≈)',
  },
  {
    region: 'ap-northeast-2',
    instanceType: 'm5.large',
    micros: 118_000,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~] (≈)',
  },
  {
    region: 'ap-southeast-1',
    instanceType: 't3.micro',
    micros: 13_200,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~] (≈)',
  },
  {
    region: 'ap-southeast-1',
    instanceType: 'm5.large',
    micros: 120_000,
    status: 'recalled',
    source: 'upstream-formats.md §3.6 [~] (≈)',
  },
];

interface Family {
  readonly prefix: string;
  readonly group: PriceGroup;
  readonly instanceFamily: string;
  readonly physicalProcessor: string;
  readonly clockSpeed: string;
  readonly regions?: readonly Ec2RegionCode[];
}

/** [size, vcpu, memory GiB, network, storage, us-east-1 $/h in micros, gpus?] */
type Size = readonly [string, number, string, string, string, number, number?];

function family(f: Family, sizes: readonly Size[], gpuMemory?: string): CatalogType[] {
  return sizes.map(([size, vcpu, memory, network, storage, micros, gpu]) => ({
    group: f.group,
    usEastMicros: micros,
    ...(f.regions ? { regions: f.regions } : {}),
    spec: {
      instanceType: `${f.prefix}.${size}`,
      instanceFamily: f.instanceFamily,
      vcpu,
      memory: `${memory} GiB`,
      storage,
      networkPerformance: network,
      physicalProcessor: f.physicalProcessor,
      clockSpeed: f.clockSpeed,
      processorArchitecture:
        f.group === 't2' && vcpu <= 2 && size !== 'large' ? '32-bit or 64-bit' : '64-bit',
      currentGeneration: f.group === 't2' ? 'No' : 'Yes',
      ...(gpu !== undefined ? { gpu, gpuMemory: gpuMemory ?? 'NA' } : {}),
    },
  }));
}

const EBS = 'EBS only';
const UP5 = 'Up to 5 Gigabit';
const UP10 = 'Up to 10 Gigabit';
const UP125 = 'Up to 12500 Megabit';
const GP = 'General purpose';
const CO = 'Compute optimized';
const MO = 'Memory optimized';

/** Sizes of the families listed with large/xlarge/2xlarge at 1x/2x/4x the large price. */
function threeSizes(
  ram: number,
  network: string,
  largeMicros: number,
  network2x = network,
): Size[] {
  return [
    ['large', 2, `${ram}`, network, EBS, largeMicros],
    ['xlarge', 4, `${ram * 2}`, network, EBS, largeMicros * 2],
    ['2xlarge', 8, `${ram * 4}`, network2x, EBS, largeMicros * 4],
  ];
}

/** t3/t4g: nano..2xlarge at 1/16..4x the large price. */
function burstable(network: string, largeMicros: number): Size[] {
  return [
    ['nano', 2, '0.5', network, EBS, largeMicros / 16],
    ['micro', 2, '1', network, EBS, largeMicros / 8],
    ['small', 2, '2', network, EBS, largeMicros / 4],
    ['medium', 2, '4', network, EBS, largeMicros / 2],
    ['large', 2, '8', network, EBS, largeMicros],
    ['xlarge', 4, '16', network, EBS, largeMicros * 2],
    ['2xlarge', 8, '32', network, EBS, largeMicros * 4],
  ];
}

const INTEL_ICE = 'Intel Xeon 8375C (Ice Lake)';
const INTEL_SPR = 'Intel Xeon Scalable (Sapphire Rapids)';

export const CATALOG: readonly CatalogType[] = [
  ...family(
    {
      prefix: 't2',
      group: 't2',
      instanceFamily: GP,
      physicalProcessor: 'Intel Xeon Family',
      clockSpeed: 'Up to 3.3 GHz',
      regions: ['ap-northeast-1', 'ap-northeast-2', 'ap-southeast-1'],
    },
    [
      ['nano', 1, '0.5', 'Low', EBS, 5_800],
      ['micro', 1, '1', 'Low to Moderate', EBS, 11_600],
      ['small', 1, '2', 'Low to Moderate', EBS, 23_000],
      ['medium', 2, '4', 'Low to Moderate', EBS, 46_400],
      ['large', 2, '8', 'Low to Moderate', EBS, 92_800],
    ],
  ),
  ...family(
    {
      prefix: 't3',
      group: 't3',
      instanceFamily: GP,
      physicalProcessor: 'Intel Skylake E5 2686 v5',
      clockSpeed: '3.1 GHz',
    },
    burstable(UP5, 83_200),
  ),
  ...family(
    {
      prefix: 't4g',
      group: 't4g',
      instanceFamily: GP,
      physicalProcessor: 'AWS Graviton2 Processor',
      clockSpeed: '2.5 GHz',
    },
    burstable(UP5, 67_200),
  ),
  ...family(
    {
      prefix: 'm5',
      group: 'm',
      instanceFamily: GP,
      physicalProcessor: 'Intel Xeon Platinum 8175',
      clockSpeed: '3.1 GHz',
    },
    threeSizes(8, UP10, 96_000),
  ),
  ...family(
    {
      prefix: 'm6i',
      group: 'm',
      instanceFamily: GP,
      physicalProcessor: INTEL_ICE,
      clockSpeed: '3.5 GHz',
    },
    threeSizes(8, UP125, 96_000),
  ),
  ...family(
    {
      prefix: 'm7i',
      group: 'm',
      instanceFamily: GP,
      physicalProcessor: INTEL_SPR,
      clockSpeed: '3.2 GHz',
    },
    threeSizes(8, UP125, 100_800),
  ),
  ...family(
    {
      prefix: 'm7g',
      group: 'm',
      instanceFamily: GP,
      physicalProcessor: 'AWS Graviton3 Processor',
      clockSpeed: '2.6 GHz',
    },
    threeSizes(8, UP125, 81_600, 'Up to 15 Gigabit'),
  ),
  ...family(
    {
      prefix: 'c5',
      group: 'c',
      instanceFamily: CO,
      physicalProcessor: 'Intel Xeon Platinum 8124M',
      clockSpeed: '3.4 GHz',
    },
    threeSizes(4, UP10, 85_000),
  ),
  ...family(
    {
      prefix: 'c6i',
      group: 'c',
      instanceFamily: CO,
      physicalProcessor: INTEL_ICE,
      clockSpeed: '3.5 GHz',
    },
    threeSizes(4, UP125, 85_000),
  ),
  ...family(
    {
      prefix: 'c7i',
      group: 'c',
      instanceFamily: CO,
      physicalProcessor: INTEL_SPR,
      clockSpeed: '3.2 GHz',
    },
    threeSizes(4, UP125, 89_250),
  ),
  ...family(
    {
      prefix: 'c7g',
      group: 'c',
      instanceFamily: CO,
      physicalProcessor: 'AWS Graviton3 Processor',
      clockSpeed: '2.6 GHz',
    },
    threeSizes(4, UP125, 72_500, 'Up to 15 Gigabit'),
  ),
  ...family(
    {
      prefix: 'r5',
      group: 'r',
      instanceFamily: MO,
      physicalProcessor: 'Intel Xeon Platinum 8175',
      clockSpeed: '3.1 GHz',
    },
    threeSizes(16, UP10, 126_000),
  ),
  ...family(
    {
      prefix: 'r6i',
      group: 'r',
      instanceFamily: MO,
      physicalProcessor: INTEL_ICE,
      clockSpeed: '3.5 GHz',
    },
    threeSizes(16, UP125, 126_000),
  ),
  ...family(
    {
      prefix: 'r7i',
      group: 'r',
      instanceFamily: MO,
      physicalProcessor: INTEL_SPR,
      clockSpeed: '3.2 GHz',
    },
    threeSizes(16, UP125, 132_300),
  ),
  ...family(
    {
      prefix: 'i4i',
      group: 'i',
      instanceFamily: 'Storage optimized',
      physicalProcessor: INTEL_ICE,
      clockSpeed: '3.5 GHz',
    },
    [
      ['large', 2, '16', UP10, '1 x 468 NVMe SSD', 172_000],
      ['xlarge', 4, '32', 'Up to 25 Gigabit', '1 x 937 NVMe SSD', 343_000],
      ['2xlarge', 8, '64', 'Up to 12 Gigabit', '1 x 1875 NVMe SSD', 686_000],
    ],
  ),
  ...family(
    {
      prefix: 'g4dn',
      group: 'g4dn',
      instanceFamily: 'GPU instance',
      physicalProcessor: 'Intel Xeon Family',
      clockSpeed: '2.5 GHz',
    },
    [
      ['xlarge', 4, '16', 'Up to 25 Gigabit', '1 x 125 NVMe SSD', 526_000, 1],
      ['2xlarge', 8, '32', 'Up to 25 Gigabit', '1 x 225 NVMe SSD', 752_000, 1],
      ['4xlarge', 16, '64', 'Up to 25 Gigabit', '1 x 225 NVMe SSD', 1_204_000, 1],
    ],
    '16 GB',
  ),
  ...family(
    {
      prefix: 'g5',
      group: 'g5',
      instanceFamily: 'GPU instance',
      physicalProcessor: 'AMD EPYC 7R32',
      clockSpeed: '3.3 GHz',
    },
    [
      ['xlarge', 4, '16', UP10, '1 x 250 NVMe SSD', 1_006_000, 1],
      ['2xlarge', 8, '32', UP10, '1 x 450 NVMe SSD', 1_212_000, 1],
      ['4xlarge', 16, '64', 'Up to 25 Gigabit', '1 x 600 NVMe SSD', 1_624_000, 1],
    ],
    '24 GB',
  ),
];

/** A type's price in a region and how we know it. */
export function snapshotPrice(
  type: CatalogType,
  region: Ec2RegionCode,
): { micros: number; status: 'confirmed' | 'recalled' | 'derived' } {
  const known = KNOWN_PRICES.find(
    (k) => k.region === region && k.instanceType === type.spec.instanceType,
  );
  if (known) return { micros: known.micros, status: known.status };
  const factor = REGION_FACTORS[region][type.group];
  // Rounded to $0.0001 (100 micros), as most AWS list prices are.
  return { micros: Math.round((type.usEastMicros * factor) / 100) * 100, status: 'derived' };
}

import { describe, expect, it } from 'vitest';
import {
  parseGpuCount,
  parseMemoryMb,
  parseNetworkGbps,
  parseStorageGb,
  parseVcpu,
} from './attribute-units.js';
import { classifyInstanceFamily, ec2GpuType } from './classify.js';
import { REGION, offerFileText, sampleLayout } from './fixtures/offer-file.js';
import { OfferFileScanner } from './offer-file-scanner.js';
import { classifyProduct, type KeptProduct } from './offer-records.js';
import { mapProviderCOffers } from './parse.js';

const M5: KeptProduct['attributes'] = {
  instanceType: 'm5.large',
  instanceFamily: 'General purpose',
  vcpu: '2',
  memory: '8 GiB',
  storage: 'EBS only',
  networkPerformance: 'Up to 10 Gigabit',
};

function kept(
  sku: string,
  attributes: Partial<KeptProduct['attributes']> = {},
  hourlyUsd: readonly string[] = ['0.1240000000'],
): KeptProduct {
  return { sku, attributes: { ...M5, ...attributes }, hourlyUsd };
}

describe('attribute units', () => {
  it.each([
    ['8 GiB', 8192],
    ['0.5 GiB', 512],
    ['1,952 GiB', 1_998_848],
    ['0.613 GiB', 628],
    ['12,288 GiB', 12_582_912],
  ])('memory %s is %i MB', (text, mb) => expect(parseMemoryMb(text)).toBe(mb));

  it.each(['NA', '8 GB', '8GiB', '', '-1 GiB', '0 GiB', '1,95 GiB'])(
    'memory %j is not understood',
    (text) => expect(parseMemoryMb(text)).toBeNull(),
  );

  it.each([
    ['EBS only', 0],
    ['1 x 450 GB NVMe SSD', 450],
    ['2 x 1900 NVMe SSD', 3800],
    ['125 GB NVMe SSD', 125],
    ['8 x 1000 SSD', 8000],
    ['1 x 468 AWS Nitro SSD', 468],
    ['2 x 7.5 TB NVMe SSD', 15_000],
  ])('storage %j is %i GB', (text, gb) => expect(parseStorageGb(text)).toBe(gb));

  it.each(['NA', 'lots', '', 'x 450 GB', '0 x 450 GB SSD', '1 x 0.4 NVMe SSD'])(
    'storage %j is not understood',
    (text) => expect(parseStorageGb(text)).toBeNull(),
  );

  it.each([
    ['Up to 5 Gigabit', 5],
    ['10 Gigabit', 10],
    ['Up to 12500 Megabit', 12.5],
    ['400 Gigabit', 400],
    ['4x 100 Gigabit', 400],
    ['Very Low', 0.05],
    ['Low', 0.1],
    ['Low to Moderate', 0.3],
    ['Moderate', 0.5],
    ['High', 1],
  ])('network %j is %d Gbps', (text, gbps) => expect(parseNetworkGbps(text)).toBe(gbps));

  it.each(['NA', 'Fast', '', '0 Gigabit', 'Up to Gigabit'])(
    'network %j is not understood',
    (text) => expect(parseNetworkGbps(text)).toBeNull(),
  );

  it('reads vCPU and GPU counts as whole numbers only', () => {
    expect(parseVcpu('2')).toBe(2);
    expect([parseVcpu('0'), parseVcpu('2.5'), parseVcpu(''), parseVcpu(undefined)]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(parseGpuCount(undefined)).toBe(0);
    expect(parseGpuCount('8')).toBe(8);
    expect(parseGpuCount('NA')).toBeNull();
  });
});

describe('families and GPUs', () => {
  it.each([
    ['General purpose', 0, 'general'],
    ['Micro instances', 0, 'general'],
    ['Compute optimized', 0, 'compute'],
    ['Memory optimized', 0, 'memory'],
    ['Storage optimized', 0, 'storage'],
    ['GPU instance', 1, 'gpu'],
    ['Compute optimized', 2, 'gpu'],
  ])('%s with %i GPUs is %s', (instanceFamily, gpus, family) =>
    expect(classifyInstanceFamily(instanceFamily, gpus)).toEqual({ kind: 'listed', family }),
  );

  it('leaves accelerator families out, and does not know others', () => {
    for (const name of [
      'Machine Learning ASIC Instances',
      'FPGA Instances',
      'Media Accelerator Instances',
    ]) {
      expect(classifyInstanceFamily(name, 0)).toEqual({ kind: 'excluded' });
    }
    expect(classifyInstanceFamily('Quantum', 0)).toEqual({ kind: 'unknown' });
    expect(classifyInstanceFamily(undefined, 0)).toEqual({ kind: 'unknown' });
    expect(classifyInstanceFamily('GPU instance', 0)).toEqual({ kind: 'unknown' });
  });

  it.each([
    ['g4dn.xlarge', 'NVIDIA T4'],
    ['g5.2xlarge', 'NVIDIA A10G'],
    ['p3.2xlarge', 'NVIDIA V100'],
    ['p4d.24xlarge', 'NVIDIA A100'],
    ['g6.xlarge', 'NVIDIA L4'],
    ['g4ad.xlarge', 'AMD Radeon Pro V520'],
    ['g9.xlarge', 'NVIDIA GPU'],
  ])('%s carries %s', (type, model) => expect(ec2GpuType(type, 1)).toBe(model));

  it('has no GPU type without GPUs', () => expect(ec2GpuType('m5.large', 0)).toBeNull());
});

describe('the plain on-demand Linux filter', () => {
  const base = {
    sku: 'S',
    productFamily: 'Compute Instance',
    attributes: {
      instanceType: 'm5.large',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      preInstalledSw: 'NA',
      capacitystatus: 'Used',
      licenseModel: 'No License required',
      marketoption: 'OnDemand',
      operation: 'RunInstances',
      usagetype: 'APN1-BoxUsage:m5.large',
      locationType: 'AWS Region',
      regionCode: REGION,
    },
  };
  const variant = (attributes: Record<string, string | undefined>) => ({
    ...base,
    attributes: { ...base.attributes, ...attributes },
  });

  it('keeps the plain product, with marketoption absent counted as on-demand', () => {
    expect(classifyProduct('S', base, REGION).kind).toBe('kept');
    expect(classifyProduct('S', variant({ marketoption: undefined }), REGION).kind).toBe('kept');
  });

  it('keeps the bare-metal sizes, which AWS files as their own product family', () => {
    const metal = { ...base, productFamily: 'Compute Instance (bare metal)' };
    expect(classifyProduct('S', metal, REGION).kind).toBe('kept');
    expect(classifyProduct('S', { ...base, productFamily: 'Compute Instance (x)' }).kind).toBe(
      'filtered',
    );
  });

  it.each([
    ['Windows', { operatingSystem: 'Windows', operation: 'RunInstances:0002' }],
    ['RHEL', { operatingSystem: 'RHEL', operation: 'RunInstances:0010' }],
    ['Dedicated', { tenancy: 'Dedicated', usagetype: 'APN1-DedicatedUsage:m5.large' }],
    ['BYOL', { licenseModel: 'Bring your own license' }],
    ['SQL Std', { preInstalledSw: 'SQL Std' }],
    ['an unused reservation', { capacitystatus: 'UnusedCapacityReservation' }],
    ['a capacity block', { marketoption: 'CapacityBlock' }],
    ['a Local Zone', { locationType: 'AWS Local Zone' }],
    ['another region', { regionCode: 'ap-northeast-2' }],
    ['a non-BoxUsage usage type', { usagetype: 'APN1-HostBoxUsage' }],
    ['an operation variant', { operation: 'RunInstances:0g00' }],
  ])('drops %s', (_name, attributes) =>
    expect(classifyProduct('S', variant(attributes), REGION)).toEqual({ kind: 'filtered' }),
  );

  it('drops other product families, and flags records of the wrong shape', () => {
    expect(classifyProduct('S', { ...base, productFamily: 'Dedicated Host' }).kind).toBe(
      'filtered',
    );
    expect(classifyProduct('S', { ...base, attributes: [] }).kind).toBe('invalid');
    expect(classifyProduct('S', { ...base, sku: 'T' }).kind).toBe('invalid');
    expect(classifyProduct('S', null).kind).toBe('invalid');
  });

  it('keeps only the attributes the mapping reads, and only string values', () => {
    const verdict = classifyProduct('S', variant({ vcpu: '2', ecu: '10' }), REGION);
    expect(verdict).toEqual({
      kind: 'kept',
      sku: 'S',
      attributes: { instanceType: 'm5.large', vcpu: '2', regionCode: REGION },
    });
  });
});

describe('mapProviderCOffers', () => {
  it('maps a product to an offer in our units, with monthly = hourly x 730 rounded to the cent', () => {
    const { offers, invalid, duplicates } = mapProviderCOffers(
      [kept('A', {}, ['0.1240000000'])],
      REGION,
    );
    expect(invalid + duplicates).toBe(0);
    expect(offers).toEqual([
      {
        instanceId: 'm5.large',
        instanceName: 'm5.large',
        vcpu: 2,
        memoryMb: 8192,
        storageGb: 0,
        transferTb: 0,
        networkSpeedGbps: 10,
        gpuCount: 0,
        gpuType: null,
        family: 'general',
        regionCode: REGION,
        hourlyMicros: 124_000,
        monthlyMicros: 90_520_000,
      },
    ]);
  });

  it.each([
    ['0.0136000000', 13_600, 9_930_000],
    ['0.0104000000', 10_400, 7_590_000],
    // Monthly in whole cents (issue 15 item 2): 123_457 x 730 = 90_123_610 is shown as 90.12.
    ['0.1234567890', 123_457, 90_120_000],
    ['0.0300970000', 30_097, 21_970_000],
    ['5.6000000000', 5_600_000, 4_088_000_000],
  ])('prices %s as %i micros an hour, %i a month', (usd, hourly, monthly) => {
    const [offer] = mapProviderCOffers([kept('A', {}, [usd])], REGION).offers;
    expect(offer?.hourlyMicros).toBe(hourly);
    expect(offer?.monthlyMicros).toBe(monthly);
  });

  it.each([
    ['no on-demand price (a Reserved-only SKU)', []],
    ['two hourly dimensions', ['0.1', '0.2']],
    ['a zero price', ['0.0000000000']],
    ['a price below half a micro-dollar', ['0.0000004000']],
    ['an exponent', ['1e-3']],
    ['a negative price', ['-0.1']],
    ['an absurd price', ['20000.0']],
  ])('skips and counts a product with %s, naming its type as unreadable', (_name, prices) => {
    expect(mapProviderCOffers([kept('A', {}, prices)], REGION)).toEqual({
      offers: [],
      invalid: 1,
      invalidTypes: ['m5.large'],
      duplicates: 0,
    });
  });

  it.each([
    ['an unknown memory text', { memory: 'NA' }, ['m5.large']],
    ['a missing vCPU', { vcpu: undefined }, ['m5.large']],
    ['an unknown storage text', { storage: 'plenty' }, ['m5.large']],
    ['an unknown network text', { networkPerformance: 'NA' }, ['m5.large']],
    ['an unknown family', { instanceFamily: 'Quantum' }, ['m5.large']],
    ['a bad GPU count', { gpu: 'one' }, ['m5.large']],
    ['a malformed instance type', { instanceType: 'M5 Large' }, []],
    ['a missing instance type', { instanceType: undefined }, []],
  ])('skips and counts a product with %s', (_name, attributes, invalidTypes) => {
    expect(mapProviderCOffers([kept('A', attributes)], REGION)).toEqual({
      offers: [],
      invalid: 1,
      invalidTypes,
      duplicates: 0,
    });
  });

  it('does not name a type unreadable when another SKU of the file lists it', () => {
    const bad = kept('AAAA', {}, ['1e-3']);
    const good = kept('BBBB', {}, ['0.1000000000']);
    const mapped = mapProviderCOffers([bad, good], REGION);
    expect(mapped.offers.map((o) => o.instanceId)).toEqual(['m5.large']);
    expect([mapped.invalid, mapped.invalidTypes]).toEqual([1, []]);
  });

  it('leaves accelerator families out without counting them as skipped', () => {
    const inf2 = kept('A', {
      instanceType: 'inf2.xlarge',
      instanceFamily: 'Machine Learning ASIC Instances',
    });
    expect(mapProviderCOffers([inf2], REGION)).toEqual({
      offers: [],
      invalid: 0,
      invalidTypes: [],
      duplicates: 0,
    });
  });

  it('lists a GPU type with its model and the gpu family', () => {
    const g5 = kept('A', {
      instanceType: 'g5.xlarge',
      instanceFamily: 'GPU instance',
      gpu: '1',
      storage: '1 x 250 NVMe SSD',
    });
    expect(mapProviderCOffers([g5], REGION).offers[0]).toMatchObject({
      gpuCount: 1,
      gpuType: 'NVIDIA A10G',
      family: 'gpu',
      storageGb: 250,
    });
  });

  it('lists one offer per instance type: the lowest SKU, whatever the file order', () => {
    const a = kept('AAAA', {}, ['0.1000000000']);
    const b = kept('BBBB', {}, ['0.2000000000']);
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      const { offers, invalid, duplicates } = mapProviderCOffers(order, REGION);
      expect(offers.map((o) => o.hourlyMicros)).toEqual([100_000]);
      expect([invalid, duplicates]).toEqual([0, 1]);
    }
  });

  it('turns the sample offer file into exactly its plain Linux offers', () => {
    const scanner = new OfferFileScanner({ upstreamRegionCode: REGION });
    scanner.push(new TextEncoder().encode(offerFileText(sampleLayout())));
    const { offers, invalid } = mapProviderCOffers(scanner.end().products, REGION);
    // Windows, RHEL, Dedicated, BYOL, Local Zone, capacity variants and Storage are filtered
    // out; the Reserved-only SKU (r5.large) has no on-demand price and is skipped and counted.
    expect(offers.map((o) => [o.instanceId, o.hourlyMicros])).toEqual([
      ['c5.large', 107_000],
      ['g4dn.xlarge', 710_000],
      ['m5.large', 124_000],
      ['t3.micro', 13_600],
    ]);
    expect(invalid).toBe(1);
  });
});

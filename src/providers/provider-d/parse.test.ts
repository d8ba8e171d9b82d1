// provider_d's parse step on the test copy of its snapshot, and its rules: family by machine
// series, machine facts from the recording, vCPU as Google's API counts them, only offered types,
// monthly = recorded hourly x 730 exactly; bad rows skipped and counted, never guessed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { classifyMachineType, machineSeries } from './classify.js';
import {
  monthlyMicrosOfHourlyText,
  parseProviderDCatalog,
  type ProviderDDocuments,
} from './parse.js';
import { PROVIDER_D_REGIONS } from './regions.js';

const FIXTURE = new URL('../../../test/fixtures/snapshots/provider_d/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, FIXTURE), 'utf8'));
const documents = (): ProviderDDocuments => ({
  machineTypes: read('machine-types.json'),
  prices: read('prices.json'),
});
const REGION_MAP = PROVIDER_D_REGIONS.map((r) => ({
  regionCode: r.regionCode,
  upstreamId: r.regionCode,
}));

const catalog = parseProviderDCatalog(documents(), REGION_MAP);
const offer = (id: string, region = 'asia-northeast1') =>
  catalog.offers.find((o) => o.instanceId === id && o.regionCode === region);

describe('provider_d parse', () => {
  it('reads every region, skipping nothing in the recorded snapshot', () => {
    expect(catalog.provider).toBe('provider_d');
    expect(catalog.regionCodes).toEqual(PROVIDER_D_REGIONS.map((r) => r.regionCode));
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.offers.length).toBeGreaterThan(30);
  });

  it('counts vCPUs as the API does and prices them as recorded (e2-medium, Tokyo)', () => {
    expect(offer('e2-medium')).toMatchObject({
      vcpu: 2,
      memoryMb: 4096,
      storageGb: 0,
      transferTb: 0,
      networkSpeedGbps: 2,
      family: 'general',
      // 0.04298286 USD/hour; x 730 = 31.3774878 -> 31.38 (not the recorded sustained-use figure)
      hourlyMicros: 42_983,
      monthlyMicros: 31_380_000,
    });
    expect(offer('e2-micro')?.vcpu).toBe(2);
    expect(offer('f1-micro')).toMatchObject({ vcpu: 1, memoryMb: 614 });
  });

  it('lists a type only where Google offers it', () => {
    expect(offer('c3d-standard-4', 'asia-northeast1')).toBeUndefined();
    expect(offer('c3d-standard-4', 'asia-southeast1')).toBeDefined();
    expect(offer('a2-highgpu-1g', 'asia-northeast2')).toBeUndefined();
    expect(offer('h3-standard-88', 'asia-southeast1')).toBeUndefined();
  });

  it('classifies by machine series as Google groups them', () => {
    expect(machineSeries('n2d-standard-2')).toBe('n2d');
    expect(classifyMachineType('e2-medium')).toBe('general');
    expect(classifyMachineType('c4a-standard-1')).toBe('general');
    expect(classifyMachineType('c3d-standard-4')).toBe('general');
    expect(classifyMachineType('c2-standard-4')).toBe('compute');
    expect(classifyMachineType('h3-standard-88')).toBe('compute');
    expect(classifyMachineType('m1-megamem-96')).toBe('memory');
    expect(classifyMachineType('z3-highmem-14-standardlssd')).toBe('storage');
    expect(classifyMachineType('a2-highgpu-1g')).toBe('gpu');
    expect(classifyMachineType('g2-standard-4')).toBe('gpu');
    expect(classifyMachineType('ct5lp-hightpu-1t')).toBeUndefined();
    expect(classifyMachineType('constructor-1')).toBeUndefined();
  });

  it('attaches the recorded machine facts and CoreMark', () => {
    expect(offer('e2-medium')?.facts).toMatchObject({
      cpuArchitecture: 'x86_64',
      cpuAllocation: 'burstable',
      cpuManufacturer: null, // Intel or AMD: the series' platforms mix both
      coremark: { score: 14529, ranAt: Date.parse('2024-06-24T00:00:00Z') },
    });
    expect(offer('f1-micro')?.facts?.cpuAllocation).toBe('burstable');
    expect(offer('n2-standard-2')?.facts).toMatchObject({
      cpuAllocation: 'dedicated',
      cpuManufacturer: 'Intel',
      cpuModel: 'Cascade Lake, Ice Lake',
    });
    expect(offer('t2a-standard-1', 'asia-southeast1')?.facts).toMatchObject({
      cpuArchitecture: 'arm64',
      cpuManufacturer: 'Ampere',
      coremark: { score: 23509 },
    });
    expect(offer('c4a-standard-1')?.facts).toMatchObject({
      cpuArchitecture: 'arm64',
      cpuManufacturer: 'Google',
      coremark: null,
    });
    expect(offer('a2-highgpu-1g')).toMatchObject({
      gpuCount: 1,
      gpuType: 'NVIDIA A100 40GB',
      family: 'gpu',
      facts: { gpuMemoryGb: 40, storageType: null },
    });
    expect(offer('g2-standard-4')).toMatchObject({
      gpuType: 'NVIDIA L4',
      facts: { gpuMemoryGb: null },
    });
    const z3 = offer('z3-highmem-14-standardlssd');
    expect(z3).toMatchObject({
      family: 'storage',
      networkSpeedGbps: 0,
      facts: { storageType: 'ssd' },
    });
    expect(z3?.storageGb).toBeGreaterThan(0);
  });

  it('prices spot and committed use as recorded, monthly = hourly x 730 in cents (D61)', () => {
    // Tokyo e2-standard-2: hour_spot 0.051584, cud_1y_hour 0.0541584, cud_3y_hour 0.03868457.
    expect(offer('e2-standard-2')?.optionPrices).toEqual({
      spot: { hourlyMicros: 51_584, monthlyMicros: 37_660_000 },
      reserved_1y: { hourlyMicros: 54_158, monthlyMicros: 39_540_000 },
      reserved_3y: { hourlyMicros: 38_685, monthlyMicros: 28_240_000 },
    });
    // On-demand stays the list price; its monthly is the exact text x 730 (62.7549756 -> 62.75).
    expect(offer('e2-standard-2')).toMatchObject({
      hourlyMicros: 85_966,
      monthlyMicros: 62_750_000,
    });
    // Spot differs per region; f1-micro and t2a have no committed use: spot only.
    expect(offer('e2-standard-2', 'asia-east2')?.optionPrices?.spot?.hourlyMicros).toBe(19_416);
    expect(Object.keys(offer('f1-micro')?.optionPrices ?? {})).toEqual(['spot']);
    expect(Object.keys(offer('t2a-standard-1', 'asia-southeast1')?.optionPrices ?? {})).toEqual([
      'spot',
    ]);
    expect(catalog.offers.every((o) => o.optionPrices?.spot !== undefined)).toBe(true);
    expect(catalog.invalidOptionPrices).toBeUndefined();
  });

  it('refuses a bad option price alone: the row and its other options stay', () => {
    const docs = documents() as {
      machineTypes: unknown;
      prices: { regions: { id: string; prices: Record<string, unknown>[] }[] };
    };
    const tokyo = docs.prices.regions.find((r) => r.id === 'asia-northeast1')!;
    const row = (id: string) => tokyo.prices.find((p) => p['id'] === id)!;
    row('e2-standard-2')['hour_spot'] = '-0.05';
    row('e2-standard-2')['cud_1y_hour'] = 0.0541584; // a number, not the recorded text
    row('e2-medium')['hour_spot'] = '0';
    row('e2-medium')['cud_3y_hour'] = '1e-3';
    row('n2-standard-2')['cud_1y_hour'] = '999999.5'; // above the hourly price ceiling
    delete row('f1-micro')['hour_spot']; // absent: not sold so, not an error
    const parsed = parseProviderDCatalog(docs, REGION_MAP);
    const at = (id: string) =>
      parsed.offers.find((o) => o.instanceId === id && o.regionCode === 'asia-northeast1');
    expect(Object.keys(at('e2-standard-2')?.optionPrices ?? {})).toEqual(['reserved_3y']);
    expect(at('e2-standard-2')?.hourlyMicros).toBe(85_966);
    expect(Object.keys(at('e2-medium')?.optionPrices ?? {})).toEqual(['reserved_1y']);
    expect(at('n2-standard-2')?.optionPrices?.reserved_1y).toBeUndefined();
    expect(at('f1-micro')?.optionPrices).toBeUndefined();
    expect(parsed.invalidOptionPrices).toBe(5);
    expect(parsed.skippedRecords).toBe(0);
  });

  it('multiplies the recorded decimal text exactly, rounding half-up to the cent', () => {
    expect(monthlyMicrosOfHourlyText('0.04298286')).toBe(31_380_000);
    expect(monthlyMicrosOfHourlyText('6.50651065753425')).toBe(4_749_750_000);
    // 0.0000068493 x 730 = 0.004999989: below half a cent; 0.00000685 x 730 = 0.0050005: above
    expect(monthlyMicrosOfHourlyText('0.0000068493')).toBe(0);
    expect(monthlyMicrosOfHourlyText('0.00000685')).toBe(10_000);
    expect(monthlyMicrosOfHourlyText('1')).toBe(730_000_000);
  });

  it('skips and counts bad rows, leaves out a region it was not given, refuses a bad envelope', () => {
    const docs = documents() as {
      machineTypes: unknown;
      prices: { regions: { id: string; prices: unknown[] }[] };
    };
    const tokyo = docs.prices.regions.find((r) => r.id === 'asia-northeast1')!;
    tokyo.prices.push(
      {
        id: 'unknown-type-1',
        offered: true,
        hour: '1',
        hour_spot: null,
        cud_1y_hour: null,
        cud_3y_hour: null,
      },
      { id: 'e2-medium', offered: true, hour: '-1' },
      {
        id: 'e2-medium',
        offered: true,
        hour: '0.05',
        hour_spot: null,
        cud_1y_hour: null,
        cud_3y_hour: null,
      },
    );
    docs.prices.regions = docs.prices.regions.filter((r) => r.id !== 'asia-east2');
    const parsed = parseProviderDCatalog(docs, REGION_MAP);
    expect(parsed.skippedReasons).toEqual({ invalid_type: 2, duplicate: 1 });
    expect(parsed.regionCodes).not.toContain('asia-east2');
    expect(parsed.offers.some((o) => o.regionCode === 'asia-east2')).toBe(false);
    expect(
      parsed.offers.find((o) => o.instanceId === 'e2-medium' && o.regionCode === 'asia-northeast1')
        ?.hourlyMicros,
    ).toBe(42_983);
    expect(() =>
      parseProviderDCatalog({ machineTypes: {}, prices: docs.prices }, REGION_MAP),
    ).toThrow(UpstreamError);
  });
});

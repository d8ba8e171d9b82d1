import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_MACHINE_FACTS } from '../../catalog/machine-facts.js';
import type { InstanceOffer } from '../../catalog/offers.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { resolveRegionMap } from '../region-map.js';
import { PROVIDER_B_REGION_TABLE } from '../provider-b/regions.js';
import { parseProviderBCatalog } from './parse.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

const identity = resolveRegionMap(PROVIDER_B_REGION_TABLE);
const regionsDoc = fixture('regions-example.json');

function plansPage(plans: unknown[], next = ''): unknown {
  return { plans, meta: { total: plans.length, links: { next, prev: '' } } };
}

function regionsPage(regions: unknown[]): unknown {
  return { regions, meta: { total: regions.length, links: { next: '', prev: '' } } };
}

/** A valid Vultr plan (the formats file's vc2-1c-1gb, offered in nrt only) with `overrides`. */
function plan(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'vc2-1c-1gb',
    vcpu_count: 1,
    ram: 1024,
    disk: 25,
    disk_count: 1,
    bandwidth: 1024,
    monthly_cost: 5,
    hourly_cost: 0.007,
    type: 'vc2',
    locations: ['nrt'],
    ...overrides,
  };
}

function parsePlans(plans: unknown[], regionMap = identity) {
  return parseProviderBCatalog(
    { regionPages: [regionsDoc], planPages: [plansPage(plans)] },
    regionMap,
  );
}

function offer(offers: readonly InstanceOffer[], id: string, region: string): InstanceOffer {
  const found = offers.find((o) => o.instanceId === id && o.regionCode === region);
  if (found === undefined) throw new Error(`no offer ${id} in ${region}`);
  return found;
}

function only(offers: readonly InstanceOffer[]): InstanceOffer {
  expect(offers).toHaveLength(1);
  const [first] = offers;
  if (first === undefined) throw new Error('no offer');
  return first;
}

function expectInvalidData(run: () => unknown): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UpstreamError);
  expect((caught as UpstreamError).code).toBe('UPSTREAM_INVALID_DATA');
}

describe('provider_b parse: the formats file example', () => {
  const catalog = parseProviderBCatalog(
    { regionPages: [regionsDoc], planPages: [fixture('plans-example.json')] },
    identity,
  );

  it('converts units: ram MB, disk GB x disk_count, bandwidth GB -> TB (/1024), no network figure', () => {
    expect(offer(catalog.offers, 'vc2-1c-1gb', 'icn')).toEqual({
      instanceId: 'vc2-1c-1gb',
      instanceName: 'Cloud Compute Regular, 1 vCPU, 1 GB',
      vcpu: 1,
      memoryMb: 1024,
      storageGb: 25,
      transferTb: 1,
      networkSpeedGbps: 0,
      gpuCount: 0,
      gpuType: null,
      family: 'general',
      // D62: Cloud Compute Regular shares cores; its id names no CPU maker.
      facts: { ...UNKNOWN_MACHINE_FACTS, cpuAllocation: 'shared' },
      regionCode: 'icn',
      hourlyMicros: 7000,
      monthlyMicros: 5_000_000,
    });
    expect(offer(catalog.offers, 'vc2-1c-2gb', 'nrt').transferTb).toBe(2);
  });

  it('offers a plan in each of our regions among its locations, and nowhere else', () => {
    const where = (id: string) =>
      catalog.offers.filter((o) => o.instanceId === id).map((o) => o.regionCode);
    expect(where('vc2-1c-1gb')).toEqual(['icn', 'nrt', 'itm']);
    expect(where('vc2-1c-2gb')).toEqual(['icn', 'nrt']);
    expect(where('vcg-a100-1c-6g-4vram')).toEqual([]);
    expect(catalog.regionCodes).toEqual(['icn', 'nrt', 'itm']);
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.provider).toBe('provider_b');
  });
});

describe('provider_b parse: prices', () => {
  it('uses location_cost for the mapped region when it has a monthly cost', () => {
    const catalog = parsePlans([
      plan({
        locations: ['icn', 'nrt'],
        location_cost: {
          nrt: { hourly_cost: 0.009, monthly_cost: 6, hourly_cost_preemptible: 0.001 },
          icn: { hourly_cost: 0.5 },
        },
      }),
    ]);
    expect(offer(catalog.offers, 'vc2-1c-1gb', 'nrt')).toMatchObject({
      hourlyMicros: 9000,
      monthlyMicros: 6_000_000,
    });
    // An entry without a monthly cost is not an override: the plan's own prices apply.
    expect(offer(catalog.offers, 'vc2-1c-1gb', 'icn')).toMatchObject({
      hourlyMicros: 7000,
      monthlyMicros: 5_000_000,
    });
  });

  it('derives hourly as monthly / 730 in integer micros, rounded half up', () => {
    const priced = (overrides: Record<string, unknown>) =>
      only(parsePlans([plan({ hourly_cost: undefined, ...overrides })]).offers);
    expect(priced({ monthly_cost: 5 }).hourlyMicros).toBe(6849); // 6849.32
    expect(priced({ monthly_cost: 2.5 }).hourlyMicros).toBe(3425); // 3424.66
    expect(priced({ monthly_cost: 0.000365 }).hourlyMicros).toBe(1); // exactly 0.5
    expect(priced({ monthly_cost: 1750, hourly_cost: null }).hourlyMicros).toBe(2_397_260); // 2397260.27
    expect(priced({ location_cost: { nrt: { monthly_cost: 6 } } }).hourlyMicros).toBe(8219); // 8219.18
  });

  it('keeps decimal prices exact', () => {
    const offers = parsePlans([
      plan({ id: 'a', monthly_cost: 11773.44, hourly_cost: 16.128 }),
      plan({ id: 'b', monthly_cost: 67.5, hourly_cost: 0.0925 }),
    ]).offers;
    expect(offers.map((o) => [o.hourlyMicros, o.monthlyMicros])).toEqual([
      [16_128_000, 11_773_440_000],
      [92_500, 67_500_000],
    ]);
  });

  it('looks up location_cost by own key only, so "constructor" is not read from the prototype', () => {
    const map = resolveRegionMap(PROVIDER_B_REGION_TABLE, { nrt: 'constructor' });
    const catalog = parseProviderBCatalog(
      {
        regionPages: [regionsPage([{ id: 'constructor' }])],
        planPages: [plansPage([plan({ locations: ['constructor'], location_cost: {} })])],
      },
      map,
    );
    expect(only(catalog.offers)).toMatchObject({ regionCode: 'nrt', monthlyMicros: 5_000_000 });
  });
});

describe('provider_b parse: families, GPUs and exclusions', () => {
  it.each([
    ['vc2', 'vc2-1c-1gb', 'general'],
    ['vhf', 'vhf-1c-1gb', 'general'],
    ['vhp', 'vhp-2c-4gb-amd', 'general'],
    ['voc-g', 'voc-g-2c-8gb-50s-amd', 'general'],
    ['voc-c', 'voc-c-2c-4gb-50s-amd', 'compute'],
    ['voc-m', 'voc-m-2c-16gb-100s-amd', 'memory'],
    ['voc-s', 'voc-s-2c-16gb-150s-amd', 'storage'],
    ['voc', 'voc-s-2c-16gb-150s-amd', 'storage'],
    ['vdc', 'vdc-2c-8gb', 'compute'],
    ['vcg', 'vcg-a100-1c-6g-4vram', 'gpu'],
  ])('type %s (%s) is %s', (type, id, family) => {
    expect(only(parsePlans([plan({ type, id })]).offers).family).toBe(family);
  });

  it.each([
    ['vc2', 'vc2-1c-1gb', 'shared', null, null],
    ['vhf', 'vhf-1c-1gb', 'shared', null, null],
    ['vhp', 'vhp-2c-4gb-amd', 'shared', 'AMD', 'x86_64'],
    ['vhp', 'vhp-2c-4gb-intel-sc1', 'shared', 'Intel', 'x86_64'],
    ['voc-c', 'voc-c-2c-4gb-50s-amd', 'dedicated', 'AMD', 'x86_64'],
    ['vdc', 'vdc-2c-8gb', 'dedicated', null, null],
    ['vcg', 'vcg-a100-1c-6g-4vram', null, null, null],
  ])('D62: type %s (%s) is %s, maker %s, %s', (type, id, allocation, maker, arch) => {
    const { facts } = only(parsePlans([plan({ type, id })]).offers);
    expect(facts).toMatchObject({
      cpuAllocation: allocation,
      cpuManufacturer: maker,
      cpuArchitecture: arch,
      cpuModel: null,
      storageType: null,
      coremark: null,
    });
  });

  it('reads the GPU type, counts fractional GPU plans as one and puts VRAM in the name', () => {
    const gpu = only(
      parsePlans([
        plan({
          id: 'vcg-a100-1c-6g-4vram',
          type: 'vcg',
          ram: 6144,
          gpu_vram_gb: 4,
          gpu_type: 'NVIDIA_A100',
        }),
      ]).offers,
    );
    expect(gpu).toMatchObject({
      gpuCount: 1,
      gpuType: 'NVIDIA A100',
      family: 'gpu',
      instanceName: 'Cloud GPU, NVIDIA A100 4 GB VRAM, 1 vCPU, 6 GB',
    });
    // D62: the plan's recorded VRAM.
    expect(gpu.facts?.gpuMemoryGb).toBe(4);
  });

  it('uses gpu_count when present, and marks any plan with a GPU as gpu', () => {
    const offers = parsePlans([
      plan({ id: 'x2', type: 'vcg', gpu_type: 'AMD_MI300X', gpu_count: 8 }),
      plan({ id: 'odd', type: 'vc2', gpu_count: 1 }),
      plan({ id: 'plain', type: 'vcg', gpu_type: null }),
    ]).offers;
    expect(offer(offers, 'x2', 'nrt')).toMatchObject({
      gpuCount: 8,
      gpuType: 'AMD MI300X',
      family: 'gpu',
    });
    expect(offer(offers, 'odd', 'nrt')).toMatchObject({
      gpuCount: 1,
      gpuType: 'Unknown GPU',
      family: 'gpu',
    });
    expect(offer(offers, 'plain', 'nrt')).toMatchObject({ gpuCount: 1, gpuType: 'Unknown GPU' });
  });

  it('names vendor variants and IPv6-only plans apart', () => {
    const offers = parsePlans([
      plan({ id: 'vhp-2c-4gb-amd', type: 'vhp', ram: 4096, vcpu_count: 2 }),
      plan({ id: 'vhp-2c-4gb-intel', type: 'vhp', ram: 4096, vcpu_count: 2 }),
      plan({ id: 'vc2-1c-0.5gb-v6', ram: 512 }),
    ]).offers;
    expect(offers.map((o) => o.instanceName)).toEqual([
      'Cloud Compute High Performance AMD, 2 vCPU, 4 GB',
      'Cloud Compute High Performance Intel, 2 vCPU, 4 GB',
      'Cloud Compute Regular, 1 vCPU, 512 MB (IPv6 only)',
    ]);
  });

  it('multiplies disk by disk_count', () => {
    expect(only(parsePlans([plan({ disk: 480, disk_count: 2 })]).offers).storageGb).toBe(960);
    expect(only(parsePlans([plan({ disk_count: undefined })]).offers).storageGb).toBe(25);
  });

  it('leaves out bare metal and preemptible-only plans without counting them', () => {
    const catalog = parsePlans([
      plan({ id: 'vbm-4c-32gb', type: 'vbm' }),
      plan({ id: 'vdm-gpu', type: 'vdm' }),
      plan({ id: 'spot-only', deploy_ondemand: false }),
      plan({ id: 'kept', deploy_ondemand: true }),
    ]);
    expect(catalog.offers.map((o) => o.instanceId)).toEqual(['kept']);
    expect(catalog.skippedRecords).toBe(0);
  });

  it('skips and counts unknown types, a plain voc without a sub-type, and a GPU type with zero GPUs', () => {
    const catalog = parsePlans([
      plan({ id: 'vxx-1', type: 'vxx' }),
      plan({ id: 'voc-1c', type: 'voc' }),
      plan({ id: 'vcg-zero', type: 'vcg', gpu_type: 'NVIDIA_A16', gpu_count: 0 }),
      plan({ id: 'kept' }),
    ]);
    expect(catalog.offers.map((o) => o.instanceId)).toEqual(['kept']);
    expect(catalog.skippedRecords).toBe(3);
  });
});

describe('provider_b parse: untrusted records are skipped and counted', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['missing vcpu_count', { vcpu_count: undefined }],
    ['negative vcpu_count', { vcpu_count: -2 }],
    ['fractional vcpu_count', { vcpu_count: 0.5 }],
    ['vcpu_count as a string', { vcpu_count: '1' }],
    ['absurd ram', { ram: 1e300 }],
    ['NaN monthly cost', { monthly_cost: Number.NaN }],
    ['monthly cost as a string', { monthly_cost: '5' }],
    ['negative hourly cost', { hourly_cost: -0.007 }],
    ['absurd monthly cost', { monthly_cost: 1e12 }],
    ['zero monthly cost', { monthly_cost: 0 }],
    ['locations not an array', { locations: 'nrt' }],
    ['location_cost with a string price', { location_cost: { nrt: { monthly_cost: '6' } } }],
    ['a hostile gpu_type', { type: 'vcg', gpu_type: '<script>' }],
    ['over-long id', { id: `vc2-${'1'.repeat(80)}` }],
    ['__proto__ id', { id: '__proto__' }],
    ['type as an object', { type: { name: 'vc2' } }],
  ];

  it.each(bad)('skips a plan with %s', (_name, overrides) => {
    const catalog = parsePlans([plan({ ...overrides, id: overrides.id ?? 'bad' }), plan()]);
    expect(catalog.skippedRecords).toBe(1);
    expect(catalog.offers.map((o) => o.instanceId)).toEqual(['vc2-1c-1gb']);
  });

  it('keeps the first of two plans with the same id and counts the second', () => {
    const catalog = parsePlans([plan(), plan({ monthly_cost: 99 })]);
    expect(catalog.skippedRecords).toBe(1);
    expect(only(catalog.offers).monthlyMicros).toBe(5_000_000);
  });

  it('does not let __proto__ keys pollute prototypes or fake a location price', () => {
    const hostile = JSON.parse(
      '{"plans":[{"id":"vc2-1c-1gb","vcpu_count":1,"ram":1024,"disk":25,"bandwidth":1024,' +
        '"monthly_cost":5,"type":"vc2","locations":["nrt"],"__proto__":{"polluted":true},' +
        '"location_cost":{"__proto__":{"monthly_cost":1}}}],' +
        '"meta":{"links":{"next":""}}}',
    ) as unknown;
    const catalog = parseProviderBCatalog(
      { regionPages: [regionsDoc], planPages: [hostile] },
      identity,
    );
    expect(only(catalog.offers).monthlyMicros).toBe(5_000_000);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('provider_b parse: documents of the wrong shape fail the sync', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['an object without plans', { meta: { links: { next: '' } } }],
    ['plans_metal instead of plans', { plans_metal: [], meta: { links: { next: '' } } }],
    ['a page without meta', { plans: [plan()] }],
    ['a cursor that is not a string', { plans: [plan()], meta: { links: { next: 5 } } }],
    ['an error body', { error: 'Invalid API token.', status: 401 }],
  ])('rejects a plans document that is %s', (_name, document) => {
    expectInvalidData(() =>
      parseProviderBCatalog({ regionPages: [regionsDoc], planPages: [document] }, identity),
    );
  });

  it('rejects a regions document of the wrong shape', () => {
    expectInvalidData(() =>
      parseProviderBCatalog(
        { regionPages: [{ data: [], page: 1 }], planPages: [plansPage([plan()])] },
        identity,
      ),
    );
  });

  it('rejects an empty collection and one where no record is valid', () => {
    expectInvalidData(() => parsePlans([]));
    expectInvalidData(() => parsePlans([{ id: 'x' }, 7]));
    expectInvalidData(() =>
      parseProviderBCatalog(
        { regionPages: [regionsPage([{ id: '' }])], planPages: [plansPage([plan()])] },
        identity,
      ),
    );
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_MACHINE_FACTS } from '../../catalog/machine-facts.js';
import { linodeMachineFacts } from './classify.js';
import type { InstanceOffer } from '../../catalog/offers.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { resolveRegionMap } from '../region-map.js';
import { PROVIDER_A_REGION_TABLE } from '../provider-a/regions.js';
import { parseProviderACatalog } from './parse.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

// These tests pin parsing, not the default map: read each of our codes from the upstream id of
// the same name, as the fixture's ids are.
const SAME_NAME = { 'ap-south': 'ap-south', 'ap-southeast': 'ap-southeast' } as const;
const identity = resolveRegionMap(PROVIDER_A_REGION_TABLE, SAME_NAME);
const regionsDoc = fixture('regions-example.json');

function page(data: unknown[]): unknown {
  return { data, page: 1, pages: 1, results: data.length };
}

/** A valid Linode type record (the formats file's nanode) with `overrides` applied. */
function linodeType(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'g6-nanode-1',
    label: 'Nanode 1GB',
    class: 'nanode',
    vcpus: 1,
    memory: 1024,
    disk: 25600,
    transfer: 1000,
    network_out: 1000,
    gpus: 0,
    price: { hourly: 0.0075, monthly: 5.0 },
    region_prices: [],
    ...overrides,
  };
}

function parseTypes(types: unknown[], regionMap = identity) {
  return parseProviderACatalog({ regionPages: [regionsDoc], typePages: [page(types)] }, regionMap);
}

function offer(offers: readonly InstanceOffer[], id: string, region: string): InstanceOffer {
  const found = offers.find((o) => o.instanceId === id && o.regionCode === region);
  if (found === undefined) throw new Error(`no offer ${id} in ${region}`);
  return found;
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

describe('provider_a parse: the formats file example', () => {
  const catalog = parseProviderACatalog(
    { regionPages: [regionsDoc], typePages: [fixture('types-example.json')] },
    identity,
  );

  it('converts units: memory MB, disk MB -> GB, transfer GB -> TB (/1000), network Mbps -> Gbps', () => {
    expect(offer(catalog.offers, 'g6-nanode-1', 'ap-northeast')).toEqual({
      instanceId: 'g6-nanode-1',
      instanceName: 'Nanode 1GB',
      vcpu: 1,
      memoryMb: 1024,
      storageGb: 25,
      transferTb: 1,
      networkSpeedGbps: 1,
      gpuCount: 0,
      gpuType: null,
      family: 'general',
      // D62: Nanode is a Shared CPU plan; Linode records no CPU, GPU memory or disk kind.
      facts: { ...UNKNOWN_MACHINE_FACTS, cpuAllocation: 'shared' },
      regionCode: 'ap-northeast',
      hourlyMicros: 7500,
      monthlyMicros: 5_000_000,
    });
  });

  it('D62: CPU allocation by plan class (dedicated and GPU plans dedicated)', () => {
    expect(offer(catalog.offers, 'g1-gpu-rtx6000-1', 'ap-south').facts?.cpuAllocation).toBe(
      'dedicated',
    );
    expect(linodeMachineFacts('dedicated').cpuAllocation).toBe('dedicated');
    expect(linodeMachineFacts('premium').cpuAllocation).toBe('dedicated');
    expect(linodeMachineFacts('highmem').cpuAllocation).toBe('shared');
    expect(linodeMachineFacts('accelerated')).toBe(UNKNOWN_MACHINE_FACTS);
  });

  it('reads the GPU count from `gpus` and the model from the label', () => {
    const gpu = offer(catalog.offers, 'g1-gpu-rtx6000-1', 'ap-south');
    expect(gpu).toMatchObject({
      gpuCount: 1,
      gpuType: 'NVIDIA RTX 6000',
      family: 'gpu',
      storageGb: 640,
      transferTb: 16,
      networkSpeedGbps: 10,
      hourlyMicros: 1_500_000,
      monthlyMicros: 1_000_000_000,
    });
  });

  it('offers GPU types only where the region has the GPU Linodes capability', () => {
    const gpuRegions = catalog.offers
      .filter((o) => o.instanceId === 'g1-gpu-rtx6000-1')
      .map((o) => o.regionCode);
    expect(gpuRegions).toEqual(['ap-south']);
  });

  it('keeps a region in outage: its status does not change what is offered', () => {
    expect(offer(catalog.offers, 'g6-nanode-1', 'ap-southeast').monthlyMicros).toBe(5_000_000);
  });

  it('reports only our regions, ignoring upstream regions outside the map', () => {
    expect(catalog.regionCodes).toEqual(['ap-northeast', 'ap-south', 'ap-southeast']);
    expect(catalog.offers).toHaveLength(4);
    expect(catalog.offers.every((o) => catalog.regionCodes.includes(o.regionCode))).toBe(true);
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.provider).toBe('provider_a');
  });
});

describe('provider_a parse: regions and prices', () => {
  it('uses the region_prices entry of the mapped upstream region, else the base price', () => {
    const map = resolveRegionMap(PROVIDER_A_REGION_TABLE, { ...SAME_NAME, 'ap-south': 'id-cgk' });
    const catalog = parseProviderACatalog(
      { regionPages: [regionsDoc], typePages: [fixture('types-example.json')] },
      map,
    );
    expect(offer(catalog.offers, 'g6-nanode-1', 'ap-south')).toMatchObject({
      hourlyMicros: 9000,
      monthlyMicros: 6_000_000,
    });
    expect(offer(catalog.offers, 'g6-nanode-1', 'ap-northeast').monthlyMicros).toBe(5_000_000);
    // GPU rows have no region_prices: the base price applies in id-cgk too.
    expect(offer(catalog.offers, 'g1-gpu-rtx6000-1', 'ap-south').monthlyMicros).toBe(1_000_000_000);
  });

  it('converts decimal prices exactly to micro-dollars', () => {
    const catalog = parseTypes([
      linodeType({ id: 'g7-premium-2', class: 'standard', price: { hourly: 0.0645, monthly: 43 } }),
      linodeType({ id: 'a', price: { hourly: 0.018, monthly: 14.4 } }),
      linodeType({ id: 'b', price: { hourly: 0.1, monthly: 51.84 } }),
      linodeType({ id: 'c', price: { hourly: 0.0000015, monthly: 0.3 } }),
    ]);
    const prices = catalog.offers
      .filter((o) => o.regionCode === 'ap-northeast')
      .map((o) => [o.hourlyMicros, o.monthlyMicros]);
    expect(prices).toEqual([
      [64_500, 43_000_000],
      [18_000, 14_400_000],
      [100_000, 51_840_000],
      [2, 300_000],
    ]);
  });

  it('offers premium types only where the region lists Premium Plans', () => {
    const map = resolveRegionMap(PROVIDER_A_REGION_TABLE, {
      ...SAME_NAME,
      'ap-northeast': 'jp-osa',
    });
    const catalog = parseTypes([linodeType({ id: 'g7-premium-2', class: 'premium' })], map);
    expect(catalog.offers.map((o) => o.regionCode)).toEqual(['ap-northeast']);
  });

  it('leaves out regions the upstream did not report, and types a region cannot run', () => {
    const regions = page([
      { id: 'ap-northeast', capabilities: ['Linodes'], status: 'ok' },
      { id: 'ap-south', capabilities: ['Object Storage'], status: 'ok' },
    ]);
    const catalog = parseProviderACatalog(
      { regionPages: [regions], typePages: [page([linodeType()])] },
      identity,
    );
    expect(catalog.regionCodes).toEqual(['ap-northeast', 'ap-south']);
    expect(catalog.offers.map((o) => o.regionCode)).toEqual(['ap-northeast']);
  });

  it('reads records from every page', () => {
    const catalog = parseProviderACatalog(
      {
        regionPages: [regionsDoc],
        typePages: [page([linodeType({ id: 'p1' })]), page([linodeType({ id: 'p2' })])],
      },
      identity,
    );
    expect(new Set(catalog.offers.map((o) => o.instanceId))).toEqual(new Set(['p1', 'p2']));
  });
});

describe('provider_a parse: families and GPUs', () => {
  it.each([
    ['nanode', 0, 'general'],
    ['standard', 0, 'general'],
    ['dedicated', 0, 'compute'],
    ['prodedicated', 0, 'compute'],
    ['premium', 0, 'compute'],
    ['highmem', 0, 'memory'],
    ['gpu', 1, 'gpu'],
    ['accelerated', 0, 'gpu'],
    ['dedicated', 2, 'gpu'],
  ])('class %s with %i GPUs is %s', (typeClass, gpus, family) => {
    const map = resolveRegionMap(PROVIDER_A_REGION_TABLE, {
      ...SAME_NAME,
      'ap-northeast': 'jp-osa',
    });
    const catalog = parseTypes([linodeType({ class: typeClass, gpus })], map);
    expect(offer(catalog.offers, 'g6-nanode-1', 'ap-northeast').family).toBe(family);
  });

  it('leaves bare metal out without counting it, and skips and counts unknown classes', () => {
    const catalog = parseTypes([
      linodeType({ id: 'metal-1', class: 'metal' }),
      linodeType({ id: 'future-1', class: 'quantum' }),
      linodeType({ id: 'ok-1' }),
    ]);
    expect(new Set(catalog.offers.map((o) => o.instanceId))).toEqual(new Set(['ok-1']));
    expect(catalog.skippedRecords).toBe(1);
  });

  it.each([
    ['g2-gpu-rtx4000a1-s', 'RTX4000 Ada x1 Small', 'NVIDIA RTX 4000 Ada'],
    ['g1-gpu-rtx4000a-2', 'RTX4000 Ada x2 Medium', 'NVIDIA RTX 4000 Ada'],
    ['g3-gpu-rtxpro6000-blackwell-1', 'RTX PRO 6000 Blackwell x1', 'NVIDIA RTX PRO 6000 Blackwell'],
    ['g1-gpu-rtx6000-2', 'Dedicated 64GB + RTX6000 GPU x2', 'NVIDIA RTX 6000'],
    ['g9-gpu-x-1', 'Mystery accelerator', 'Unknown GPU'],
  ])('derives the GPU model of %s from its id and label', (id, label, model) => {
    const catalog = parseTypes([linodeType({ id, label, class: 'gpu', gpus: 1 })]);
    expect(offer(catalog.offers, id, 'ap-south').gpuType).toBe(model);
  });
});

describe('provider_a parse: untrusted records are skipped and counted', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['missing vcpus', { vcpus: undefined }],
    ['negative vcpus', { vcpus: -1 }],
    ['fractional vcpus', { vcpus: 1.5 }],
    ['vcpus as a string', { vcpus: '2' }],
    ['zero memory', { memory: 0 }],
    ['absurd memory', { memory: 1e308 }],
    ['NaN price', { price: { hourly: Number.NaN, monthly: 5 } }],
    ['infinite price', { price: { hourly: 0.0075, monthly: Number.POSITIVE_INFINITY } }],
    ['null price', { price: null }],
    ['null hourly price', { price: { hourly: null, monthly: 5 } }],
    ['price as a string', { price: { hourly: '0.0075', monthly: 5 } }],
    ['zero price', { price: { hourly: 0, monthly: 0 } }],
    ['absurd price', { price: { hourly: 0.0075, monthly: 1e15 } }],
    ['negative gpus', { gpus: -1 }],
    ['over-long id', { id: `g6-${'x'.repeat(70)}` }],
    ['over-long label', { label: 'L'.repeat(129) }],
    ['label with control characters', { label: 'Nanode\u0000' }],
    ['id with spaces', { id: 'g6 nanode' }],
    ['__proto__ id', { id: '__proto__' }],
    ['class as a number', { class: 7 }],
    ['region_prices not an array', { region_prices: { 'ap-south': 1 } }],
  ];

  it.each(bad)('skips a record with %s', (_name, overrides) => {
    const catalog = parseTypes([
      linodeType({ ...overrides, id: overrides.id ?? 'bad' }),
      linodeType(),
    ]);
    expect(catalog.skippedRecords).toBe(1);
    expect(catalog.offers.every((o) => o.instanceId === 'g6-nanode-1')).toBe(true);
    expect(catalog.offers).toHaveLength(3);
  });

  it('skips a type whose override for one of our regions has no usable price', () => {
    const map = resolveRegionMap(PROVIDER_A_REGION_TABLE, { ...SAME_NAME, 'ap-south': 'id-cgk' });
    const broken = linodeType({
      id: 'broken',
      region_prices: [{ id: 'id-cgk', hourly: null, monthly: 6 }],
    });
    const irrelevant = linodeType({
      id: 'fine',
      region_prices: [{ id: 'br-gru', hourly: null, monthly: null }],
    });
    const catalog = parseTypes([broken, irrelevant], map);
    expect(catalog.skippedRecords).toBe(1);
    expect(catalog.offers.map((o) => o.instanceId)).toEqual(['fine', 'fine', 'fine']);
  });

  it('keeps the first of two records with the same id and counts the second', () => {
    const catalog = parseTypes([linodeType(), linodeType({ price: { hourly: 1, monthly: 1 } })]);
    expect(catalog.skippedRecords).toBe(1);
    expect(catalog.offers.every((o) => o.monthlyMicros === 5_000_000)).toBe(true);
  });

  it('counts invalid region records too', () => {
    const regions = page([
      { id: 'ap-northeast', capabilities: ['Linodes'] },
      { id: 'ap-south', capabilities: 'Linodes' },
      null,
    ]);
    const catalog = parseProviderACatalog(
      { regionPages: [regions], typePages: [page([linodeType()])] },
      identity,
    );
    expect(catalog.regionCodes).toEqual(['ap-northeast']);
    expect(catalog.skippedRecords).toBe(2);
  });

  it('does not let __proto__ keys pollute prototypes or change a record', () => {
    const hostile = JSON.parse(
      '{"data":[{"__proto__":{"vcpus":64,"polluted":true},"id":"g6-nanode-1","label":"Nanode 1GB",' +
        '"class":"nanode","vcpus":1,"memory":1024,"disk":25600,"transfer":1000,"network_out":1000,' +
        '"gpus":0,"price":{"hourly":0.0075,"monthly":5},"region_prices":[]}],' +
        '"page":1,"pages":1,"results":1,"__proto__":{"data":[]}}',
    ) as unknown;
    const catalog = parseProviderACatalog(
      { regionPages: [regionsDoc], typePages: [hostile] },
      identity,
    );
    expect(offer(catalog.offers, 'g6-nanode-1', 'ap-northeast').vcpu).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('provider_a parse: documents of the wrong shape fail the sync', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'data'],
    ['an object without data', { page: 1, pages: 1, results: 0 }],
    ['data that is not an array', { data: {}, page: 1, pages: 1, results: 0 }],
    ['a page number that is a string', { data: [], page: '1', pages: 1, results: 0 }],
    ['an error body', { errors: [{ reason: 'Not found' }] }],
  ])('rejects a types document that is %s', (_name, document) => {
    expectInvalidData(() =>
      parseProviderACatalog({ regionPages: [regionsDoc], typePages: [document] }, identity),
    );
  });

  it('rejects a regions document of the wrong shape', () => {
    expectInvalidData(() =>
      parseProviderACatalog(
        { regionPages: [{ regions: [] }], typePages: [page([linodeType()])] },
        identity,
      ),
    );
  });

  it('rejects an empty collection and one where no record is valid', () => {
    expectInvalidData(() => parseTypes([]));
    expectInvalidData(() => parseTypes([{ id: 1 }, 'x']));
    expectInvalidData(() =>
      parseProviderACatalog(
        { regionPages: [page([{}])], typePages: [page([linodeType()])] },
        identity,
      ),
    );
  });
});

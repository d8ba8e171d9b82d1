import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moneyView } from '../money-view.js';
import type { InstanceRow } from '../records.js';
import { UNKNOWN_MACHINE_FACTS } from '../machine-facts.js';
import { toInstanceRecord } from '../instance-json.js';
import { ASIAN_REGIONS, REGION_CODES } from '../model.js';
import { toInstanceTypeJson } from './instance-type-json.js';
import {
  INSTANCE_TYPE_SORTS,
  groupInstanceTypes,
  instanceTypesPage,
  spreadPct,
  type InstanceType,
} from './pivot.js';
import { recordOptions } from '../purchase-options.js';

// Rates as in the bundled ECB file (per EUR): USD 1.1269, JPY 178.15.
const rates = {
  asOf: '2026-10-06',
  kind: 'snapshot' as const,
  source: 'test',
  perEur: new Map([
    ['EUR', { units: 1n, scale: 0 }],
    ['USD', { units: 11269n, scale: 4 }],
    ['JPY', { units: 17815n, scale: 2 }],
  ]),
};

function row(
  id: number,
  region: (typeof ASIAN_REGIONS)[number],
  type: string,
  monthly: number,
  hourly = monthly / 730,
): InstanceRow {
  return {
    id,
    instanceId: type,
    instanceName: `${type} name`,
    vcpu: 2,
    memoryMb: 4096,
    storageGb: 80,
    transferTb: 1,
    networkSpeedGbps: 1,
    gpuCount: 0,
    gpuType: null,
    family: 'general',
    providerId: 1,
    providerName: region.provider,
    providerDisplayName: region.provider,
    regionId: 1,
    regionCode: region.regionCode,
    regionName: region.regionName,
    countryCode: region.countryCode,
    hourlyMicros: Math.round(hourly),
    monthlyMicros: monthly,
    available: 1,
    observedAt: 0,
    purchaseOption: 'on_demand',
    options: recordOptions({ hourlyMicros: Math.round(hourly), monthlyMicros: monthly }, 0),
    spotAdvice: null,
    facts: UNKNOWN_MACHINE_FACTS,
  };
}

/** A catalogue: each (type, region) at most once, like the store guarantees. */
const catalogue = fc
  .uniqueArray(
    fc.record({
      region: fc.constantFrom(...ASIAN_REGIONS),
      type: fc.constantFrom('a', 'b', 'c', 'd'),
      monthly: fc.oneof(
        fc.integer({ min: 0, max: 500_000_000 }),
        fc.constantFrom(5_000_000, 6_000_000),
      ),
      vcpu: fc.integer({ min: 1, max: 8 }),
    }),
    { selector: (r) => `${r.region.regionCode}|${r.type}`, maxLength: 40 },
  )
  .map((specs) =>
    specs.map((s, i) => ({ ...row(i + 1, s.region, s.type, s.monthly), vcpu: s.vcpu })),
  );

const regionList = fc.uniqueArray(fc.constantFrom(...REGION_CODES), { minLength: 1 });

describe('instance types pivot (D46)', () => {
  it('puts every listed record in exactly one type, each cell equal to the record as /instances shows it', () => {
    fc.assert(
      fc.property(
        catalogue,
        regionList,
        fc.constantFrom('USD', 'JPY'),
        (records, regions, currency) => {
          const money = moneyView(rates, currency);
          const types = groupInstanceTypes(records, { regions, availableIn: 'any' });
          const seen = new Set<number>();
          for (const type of types) {
            const json = toInstanceTypeJson(type, money);
            expect(Object.keys(json.prices)).toEqual(regions.filter((r) => r in json.prices));
            for (const [region, cell] of Object.entries(json.prices)) {
              const record = toInstanceRecord(
                records.find((r) => r.id === cell.id)!,
                money,
              );
              expect(record.region.region_code).toBe(region);
              expect(record.instance_id).toBe(json.instance_id);
              expect(record.provider.name).toBe(json.provider);
              expect(cell).toEqual({
                id: record.id,
                hourly_price: record.pricing.hourly_price,
                monthly_price: record.pricing.monthly_price,
              });
              expect(seen.has(cell.id)).toBe(false);
              seen.add(cell.id);
            }
            const shown = Object.values(json.prices).map((c) => c.monthly_price);
            expect(json.min_monthly_price).toBe(Math.min(...shown));
            expect(json.max_monthly_price).toBe(Math.max(...shown));
            expect(json.prices[json.cheapest_region]!.monthly_price).toBe(json.min_monthly_price);
          }
          const listed = records.filter((r) => regions.includes(r.regionCode));
          expect([...seen].sort((a, b) => a - b)).toEqual(listed.map((r) => r.id));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps with available_in=all exactly the types offered in every listed region of their provider', () => {
    fc.assert(
      fc.property(catalogue, regionList, (records, regions) => {
        const any = groupInstanceTypes(records, { regions, availableIn: 'any' });
        const all = groupInstanceTypes(records, { regions, availableIn: 'all' });
        const complete = (type: InstanceType) =>
          ASIAN_REGIONS.filter(
            (r) => r.provider === type.provider && regions.includes(r.regionCode),
          ).every((r) => type.cells.some((c) => c.regionCode === r.regionCode));
        expect(all.map((t) => `${t.provider}/${t.instanceId}`)).toEqual(
          any.filter(complete).map((t) => `${t.provider}/${t.instanceId}`),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('sorts by each key with ties on provider then instance id, and pages without overlap', () => {
    fc.assert(
      fc.property(
        catalogue,
        fc.constantFrom(...INSTANCE_TYPE_SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 1, max: 5 }),
        (records, sort, order, limit) => {
          const options = { regions: REGION_CODES, availableIn: 'any' as const, sort, order };
          const whole = instanceTypesPage(records, { ...options, limit: 1000, offset: 0 });
          const paged: InstanceType[] = [];
          for (let offset = 0; offset < whole.total; offset += limit) {
            const page = instanceTypesPage(records, { ...options, limit, offset });
            expect(page.total).toBe(whole.total);
            paged.push(...page.types);
          }
          expect(paged.map((t) => t.cells[0]!.id)).toEqual(whole.types.map((t) => t.cells[0]!.id));
          const key = (t: InstanceType): number | string | null => {
            switch (sort) {
              case 'min_price':
                return t.minMonthlyMicros;
              case 'max_price':
                return t.maxMonthlyMicros;
              case 'spread':
                return t.minMonthlyMicros === 0
                  ? null
                  : (t.maxMonthlyMicros - t.minMonthlyMicros) / t.minMonthlyMicros;
              case 'vcpu':
                return t.specs.vcpu;
              case 'memory':
                return t.specs.memoryMb;
              case 'instance_id':
                return t.instanceId;
            }
          };
          for (let i = 1; i < whole.types.length; i++) {
            const [a, b] = [whole.types[i - 1]!, whole.types[i]!];
            const [ka, kb] = [key(a), key(b)];
            if (ka === null || kb === null) {
              expect(kb === null).toBe(true); // a null spread is last in both orders
              continue;
            }
            if (ka !== kb) {
              expect(order === 'asc' ? ka < kb : ka > kb).toBe(true);
            } else {
              const tie = `${a.provider}/${a.instanceId}` < `${b.provider}/${b.instanceId}`;
              expect(tie).toBe(true);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([
    [5_000_000, 6_000_000, 20],
    [3_000_000, 4_000_000, 33.33],
    [3_000_000, 5_000_000, 66.67],
    [7_000_000, 7_000_000, 0],
    [0, 1_000_000, null],
    [1, 2, 100],
  ])('spread_pct of %d and %d micros is %s', (min, max, expected) => {
    expect(spreadPct(min, max)).toBe(expected);
  });

  it('computes spread_pct exactly, half up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e12 }),
        fc.integer({ min: 0, max: 1e12 }),
        (min, extra) => {
          const expected = new Decimal(extra)
            .mul(100)
            .div(min)
            .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
          expect(spreadPct(min, min + extra)).toBe(expected.toNumber());
        },
      ),
    );
  });

  it('answers one row per type with the cheapest region, the specs of its lowest record id', () => {
    const [tokyo, osaka, singapore] = ASIAN_REGIONS.slice(0, 3) as [
      (typeof ASIAN_REGIONS)[number],
      (typeof ASIAN_REGIONS)[number],
      (typeof ASIAN_REGIONS)[number],
    ];
    const records = [
      row(3, singapore, 'x', 6_000_000),
      row(1, tokyo, 'x', 5_000_000),
      row(2, osaka, 'x', 5_000_000, 6_000),
    ];
    const [type] = groupInstanceTypes(records, {
      regions: ['ap-southeast', 'ap-northeast', 'ap-south'],
      availableIn: 'all',
    });
    const json = toInstanceTypeJson(type!, moneyView(undefined, 'USD'));
    expect(Object.keys(json.prices)).toEqual(['ap-southeast', 'ap-northeast', 'ap-south']);
    // Equal monthly prices: the lower hourly price wins (Tokyo's 6,849 micros vs Osaka's 6,000).
    expect(json).toMatchObject({
      cheapest_region: 'ap-south',
      min_monthly_price: 5,
      max_monthly_price: 6,
      spread_pct: 20,
    });
  });
});

// The catalogue index on its own (no database): JSON bytes, lookups, the records in price order
// (what /recommend ranks), and the other-currency memo's bound.
import { describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/catalog/index/catalog-index.js';
import { CONVERTED_JSON_MAX_BYTES, RecordTexts } from '../../src/catalog/index/record-texts.js';
import { toInstanceRecord } from '../../src/catalog/instance-json.js';
import { moneyView } from '../../src/catalog/money-view.js';
import type { LoadedRates } from '../../src/catalog/rate-table.js';
import { PROVIDER_NAMES, regionsOf } from '../../src/catalog/model.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import { generateInstanceRows } from '../support/generate-catalog.js';
import { UNKNOWN_MACHINE_FACTS } from '../../src/catalog/machine-facts.js';
import { recordOptions } from '../../src/catalog/purchase-options.js';

function rows(count: number): InstanceRow[] {
  return Array.from({ length: count }, (_, i): InstanceRow => {
    const providerName = PROVIDER_NAMES[i % 3]!;
    const region = regionsOf(providerName)[i % regionsOf(providerName).length]!;
    return {
      id: 1_000 + i * 7,
      instanceId: `type-${i % 40}`,
      instanceName: `Type ${i % 40}`,
      vcpu: 1 + (i % 16),
      memoryMb: 1024 * (1 + (i % 32)),
      storageGb: 25 * (i % 5),
      transferTb: 1,
      networkSpeedGbps: 1,
      gpuCount: i % 13 === 0 ? 1 : 0,
      gpuType: i % 13 === 0 ? 'NVIDIA T4' : null,
      family: i % 13 === 0 ? 'gpu' : 'general',
      providerId: 1 + (i % 3),
      providerName,
      providerDisplayName: `Provider ${i % 3}`,
      regionId: 10 + (i % 5),
      regionCode: region.regionCode,
      regionName: region.regionName,
      countryCode: region.countryCode,
      hourlyMicros: 5_000 + ((i * 7919) % 100_000),
      monthlyMicros: (5_000 + ((i * 7919) % 100_000)) * 730,
      available: 1,
      observedAt: Date.UTC(2026, 10, 20),
      purchaseOption: 'on_demand',
      options: recordOptions(
        {
          hourlyMicros: 5_000 + ((i * 7919) % 100_000),
          monthlyMicros: (5_000 + ((i * 7919) % 100_000)) * 730,
        },
        Date.UTC(2026, 10, 20),
      ),
      spotAdvice: null,
      facts: UNKNOWN_MACHINE_FACTS,
    };
  });
}

const index = CatalogIndex.build({
  version: 3,
  lastSuccessfulSync: new Date('2026-11-20T10:00:00Z'),
  rows: rows(500).reverse(),
});

describe('CatalogIndex', () => {
  it('serialises each record once as the API record, and finds it by id', () => {
    const row = index.records[17]!;
    expect(index.get(row.id)).toBe(row);
    expect(JSON.parse(index.json(row.id)!.toString())).toEqual(toInstanceRecord(row));
    expect(index.get(row.id + 1)).toBeUndefined();
    expect(index.json(row.id + 1)).toBeUndefined();
    const list = index.records.slice(3, 6);
    expect(JSON.parse(index.jsonArray(list).toString())).toEqual(
      list.map((r) => toInstanceRecord(r)),
    );
    expect(index.jsonArray([]).toString()).toBe('[]');
  });

  it('serialises records in another currency with that currency’s prices, per rate table', () => {
    const rates = (usd: bigint, jpy: bigint, source: string): LoadedRates => ({
      asOf: '2026-11-20',
      perEur: new Map([
        ['EUR', { units: 1n, scale: 0 }],
        ['USD', { units: usd, scale: 4 }],
        ['JPY', { units: jpy, scale: 2 }],
      ]),
      kind: 'snapshot',
      source,
    });
    const list = index.records.slice(40, 45);
    for (const table of [rates(10_512n, 16_234n, 'first'), rates(10_512n, 17_001n, 'second')]) {
      for (const currency of ['JPY', 'EUR']) {
        const money = moneyView(table, currency);
        // Twice: the second answer comes from the memo and must be the same.
        for (let round = 0; round < 2; round++) {
          expect(JSON.parse(index.jsonArray(list, money).toString())).toEqual(
            list.map((r) => toInstanceRecord(r, money)),
          );
        }
      }
    }
    // USD through a rate table is the JSON serialised at build.
    expect(index.jsonArray(list, moneyView(rates(10_512n, 1n, 'x'), 'USD'))).toEqual(
      index.jsonArray(list),
    );
  });

  it('bounds the other-currency JSON memo in bytes, whatever the number of rate tables', () => {
    const fresh = CatalogIndex.build({ version: 1, lastSuccessfulSync: null, rows: rows(500) });
    for (let table = 0; table < 40; table++) {
      const money = moneyView(
        {
          asOf: '2026-11-20',
          perEur: new Map([
            ['EUR', { units: 1n, scale: 0 }],
            ['USD', { units: 10_512n, scale: 4 }],
            ['JPY', { units: 16_000n + BigInt(table), scale: 2 }],
          ]),
          kind: 'snapshot',
          source: `table ${table}`,
        },
        'JPY',
      );
      fresh.jsonArray(fresh.records, money);
    }
    // 40 tables x 500 records of about 1.5 KB each would be about 30 MB.
    expect(fresh.convertedBytesHeld).toBeGreaterThan(CONVERTED_JSON_MAX_BYTES / 2);
    expect(fresh.convertedBytesHeld).toBeLessThanOrEqual(CONVERTED_JSON_MAX_BYTES);
  });

  it('keeps records in id order whatever order the snapshot gave them in', () => {
    const ids = index.records.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(Object.isFrozen(index.records)).toBe(true);
  });

  it('holds every record in monthly price order, ties by id, frozen', () => {
    const { rows: list, priced } = index.byMonthlyPrice;
    list.forEach((row, i) => expect(priced(i)).toBe(row));
    expect([...list].sort((a, b) => a.id - b.id)).toEqual(index.records);
    for (let i = 1; i < list.length; i++) {
      const [before, after] = [list[i - 1]!, list[i]!];
      expect(
        before.monthlyMicros < after.monthlyMicros ||
          (before.monthlyMicros === after.monthlyMicros && before.id < after.id),
      ).toBe(true);
    }
    expect(Object.isFrozen(list)).toBe(true);
  });

  it('holds that order’s numbers as columns, entry i being record i (what ranking reads)', () => {
    const { rows: list, columns } = index.byMonthlyPrice;
    const { memoryMb, vcpu, monthlyMicros, storageGb } = columns;
    for (const column of [memoryMb, vcpu, monthlyMicros, storageGb]) {
      expect(column.length).toBe(list.length);
    }
    list.forEach((r, i) => {
      expect([memoryMb[i], vcpu[i], monthlyMicros[i], storageGb[i]]).toEqual([
        r.memoryMb,
        r.vcpu,
        r.monthlyMicros,
        r.storageGb,
      ]);
    });
  });

  it('holds the distinct observation instants, ascending', () => {
    const expected = [...new Set(index.records.map((r) => r.observedAt))].sort((a, b) => a - b);
    expect([...index.observationInstants]).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('gives two records one spec exactly when provider, type, memory, vCPU and storage agree, and keeps where each spec first appears', () => {
    const { rows: list, columns } = index.byMonthlyPrice;
    const { spec, specLeaders } = columns;
    const specOf = (r: (typeof list)[number]) =>
      [r.providerName, r.instanceId, r.memoryMb, r.vcpu, r.storageGb].join('|');
    const idByKey = new Map<string, number>();
    const firstAt: number[] = [];
    list.forEach((r, i) => {
      const known = idByKey.get(specOf(r));
      if (known === undefined) {
        idByKey.set(specOf(r), spec[i]!);
        firstAt[spec[i]!] = i;
      } else expect(spec[i]).toBe(known);
    });
    expect(new Set(idByKey.values()).size).toBe(idByKey.size);
    expect([...specLeaders]).toEqual(firstAt);
    // The catalogue has instance types in several regions, so specs are shared.
    expect(specLeaders.length).toBeLessThan(list.length);
  });
});

describe('CatalogIndex.forOption (D61)', () => {
  const observedAt = Date.UTC(2026, 10, 20);
  const withOptions = CatalogIndex.build({
    version: 4,
    lastSuccessfulSync: null,
    rows: generateInstanceRows(600, 7, observedAt, { optionPrices: true }),
  });

  it('holds the records sold under the option, priced by it, and nothing else changed', () => {
    const reserved = withOptions.forOption('reserved_1y');
    const expected = withOptions.records.filter((r) => r.options.reserved_1y !== undefined);
    expect(expected.length).toBeGreaterThan(0);
    expect(reserved.records.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    for (const row of reserved.records) {
      const base = withOptions.get(row.id)!;
      expect(row.purchaseOption).toBe('reserved_1y');
      expect(row.monthlyMicros).toBe(base.options.reserved_1y!.monthlyMicros);
      expect(row.hourlyMicros).toBe(base.options.reserved_1y!.hourlyMicros);
      expect(row.options).toBe(base.options);
      expect({
        ...row,
        hourlyMicros: 0,
        monthlyMicros: 0,
        observedAt: 0,
        purchaseOption: 'x',
      }).toEqual({
        ...base,
        hourlyMicros: 0,
        monthlyMicros: 0,
        observedAt: 0,
        purchaseOption: 'x',
      });
    }
    // Built once per option and version; on-demand is the index itself.
    expect(withOptions.forOption('reserved_1y')).toBe(reserved);
    expect(withOptions.forOption('on_demand')).toBe(withOptions);
  });

  it('holds no copy of a record: the views are made as they are handed out', () => {
    const reserved = withOptions.forOption('convertible_3y');
    // Only the option's prices and sold positions (and orders built on use), not rows or texts.
    expect(reserved.arrayBytes).toBeLessThanOrEqual(withOptions.size * 16 + 64);
    const row = reserved.records[0]!;
    expect(reserved.get(row.id)).toEqual(row);
    expect(reserved.get(row.id)).not.toBe(withOptions.get(row.id));
  });

  it('lists the option’s records in its price order for ranking, priced by it', () => {
    const spot = withOptions.forOption('spot');
    const { rows, columns, priced } = spot.byMonthlyPrice;
    expect(rows.length).toBe(spot.size);
    for (let i = 0; i < rows.length; i++) {
      const view = priced(i);
      expect(view.id).toBe(rows[i]!.id);
      expect(view.purchaseOption).toBe('spot');
      expect(columns.monthlyMicros[i]).toBe(view.monthlyMicros);
      if (i > 0) {
        const before = priced(i - 1);
        expect(
          before.monthlyMicros < view.monthlyMicros ||
            (before.monthlyMicros === view.monthlyMicros && before.id < view.id),
        ).toBe(true);
      }
    }
    expect(spot.byMonthlyPrice).toBe(spot.byMonthlyPrice);
  });

  it("sorts, filters and serialises by the option's price", () => {
    const spot = withOptions.forOption('spot');
    const cheapest = spot.query({
      filter: { maxMonthlyMicros: 20_000_000 },
      sort: 'monthly_price',
      order: 'asc',
      limit: 100,
      offset: 0,
    });
    const prices = cheapest.rows.map((r) => r.options.spot!.monthlyMicros);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices.every((p) => p <= 20_000_000)).toBe(true);
    const row = cheapest.rows[0]!;
    const text = JSON.parse(spot.jsonArray([row])) as [{ pricing: Record<string, unknown> }];
    expect(text[0].pricing['purchase_option']).toBe('spot');
    expect(text[0]).toEqual(toInstanceRecord(row));
    expect(JSON.parse(spot.json(row.id)!)).toEqual(toInstanceRecord(row));
  });
});

/** RecordTexts.arrayBytes written into a Buffer of exactly its length, as text. */
function arrayText(texts: RecordTexts, positions: number[]): string {
  const array = texts.arrayBytes(positions, undefined);
  const bytes = Buffer.alloc(array.byteLength + 2, '#');
  expect(array.writeTo(bytes, 1)).toBe(array.byteLength + 1);
  // Nothing written outside its range.
  expect([bytes[0], bytes[bytes.length - 1]]).toEqual([0x23, 0x23]);
  return bytes.subarray(1, -1).toString();
}

describe('RecordTexts: the USD texts kept', () => {
  const records = rows(300);

  it('writes ASCII and non-ASCII records as the same UTF-8 JSON.stringify gives', () => {
    const named = records
      .slice(0, 4)
      .map((row, i) => (i % 2 === 0 ? { ...row, instanceName: `Größe ✓ ${i}` } : row));
    const texts = new RecordTexts(named);
    const expected = JSON.stringify(named.map((row) => toInstanceRecord(row)));
    expect(arrayText(texts, [0, 1, 2, 3])).toBe(expected);
    expect(arrayText(texts, [])).toBe('[]');
    // The memo's texts (an option's index) and a second pass over the kept ones alike.
    expect(arrayText(new RecordTexts(named, false), [0, 1, 2, 3])).toBe(expected);
    expect(arrayText(texts, [3, 2])).toBe(
      JSON.stringify([named[3], named[2]].map((row) => toInstanceRecord(row!))),
    );
  });
  it('keeps texts up to its bound and serialises the rest per use, the same text either way', () => {
    const one = JSON.stringify(toInstanceRecord(records[0]!)).length;
    const texts = new RecordTexts(records, true, one * 100);
    const all = records.map((_, p) => p);
    const first = arrayText(texts, all);
    expect(JSON.parse(first)).toEqual(records.map((r) => toInstanceRecord(r)));
    // About 100 of the 300 are kept, never more than the bound.
    expect(texts.bytes).toBeGreaterThan(one * 90);
    expect(texts.bytes).toBeLessThanOrEqual(one * 100);
    expect(arrayText(texts, all)).toBe(first);
    expect(texts.at(299)).toBe(JSON.stringify(toInstanceRecord(records[299]!)));
    expect(texts.at(300)).toBeUndefined();
    expect(texts.bytes).toBeLessThanOrEqual(one * 100);
  });

  it('keeps nothing until a record is asked for', () => {
    const texts = new RecordTexts(records);
    expect(texts.bytes).toBe(0);
    texts.at(5);
    expect(texts.bytes).toBe(Buffer.byteLength(texts.at(5)!));
  });
});

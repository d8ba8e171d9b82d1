// An option's index (D61) shares the on-demand index's rows and columns and keeps only the
// option's prices (issue 33 item 6). Its reference: a catalogue made of the option's views of
// the records (recordAs) indexed on its own, which is what the option's answers mean. On random
// filters, sorts and pages, with some records not sold under the option, both give the same
// page, rows, total and JSON, the same records by id, and the same recommendations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/catalog/index/catalog-index.js';
import { parseInstanceQuery } from '../../src/catalog/instance-query.js';
import { PROVIDER_NAMES, REGION_CODES } from '../../src/catalog/model.js';
import { OTHER_PURCHASE_OPTIONS, type PurchaseOption } from '../../src/catalog/purchase-options.js';
import { recordAs, type InstanceRow } from '../../src/catalog/records.js';
import { buildRecommendations } from '../../src/recommend/recommend.js';
import { parseRecommendRequest } from '../../src/recommend/validate-request.js';
import { generateInstanceRows } from '../support/generate-catalog.js';
import { INSTANCE_QUERY_FIELDS } from '../support/instance-query-arbitrary.js';

const rawQuery = fc.record(
  { ...INSTANCE_QUERY_FIELDS, q: fc.constantFrom('a', 'x1', 'large') },
  { requiredKeys: [] },
);

/** Drops `option` from every `every`-th record (spot from none: every record sold as spot). */
function withGaps(rows: readonly InstanceRow[]): InstanceRow[] {
  const every: Partial<Record<PurchaseOption, number>> = {
    reserved_1y: 3,
    reserved_3y: 2,
    convertible_1y: 7,
    convertible_3y: 1,
  };
  return rows.map((row, i) => {
    const options = { ...row.options };
    for (const [option, n] of Object.entries(every)) {
      // convertible_3y: kept on a few records only.
      const drop = option === 'convertible_3y' ? i % 50 !== 0 : i % n === 0;
      if (drop) delete options[option as PurchaseOption];
    }
    return { ...row, options };
  });
}

const observedAt = Date.UTC(2026, 10, 20);
const shared = CatalogIndex.build({
  version: 9,
  lastSuccessfulSync: null,
  rows: withGaps(generateInstanceRows(1_500, 11, observedAt, { optionPrices: true })),
});

/** The option's reference: its views as a catalogue of their own. */
function referenceOf(option: PurchaseOption): CatalogIndex {
  return CatalogIndex.build({
    version: shared.version,
    lastSuccessfulSync: null,
    rows: shared.records.flatMap((row) => recordAs(row, option) ?? []),
  });
}

describe.each(OTHER_PURCHASE_OPTIONS)('the %s index shares the on-demand one', (option) => {
  const index = shared.forOption(option);
  const reference = referenceOf(option);

  it('holds the records sold under the option, priced by it', () => {
    expect(index.size).toBe(reference.size);
    expect(index.size).toBeLessThanOrEqual(shared.size);
    expect(index.records).toEqual(reference.records);
    expect([...index.observationInstants]).toEqual([...reference.observationInstants]);
    for (const row of shared.records.slice(0, 200)) {
      expect(index.get(row.id)).toEqual(reference.get(row.id));
      expect(index.json(row.id)).toBe(reference.json(row.id));
    }
  });

  it('answers every parsed query with the reference’s page, rows, total and JSON', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => {
        const parsed = parseInstanceQuery(raw);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        const { query } = parsed.value;
        const expected = reference.query(query);
        const actual = index.query(query);
        expect(actual.total).toBe(expected.total);
        expect(actual.ids).toEqual(expected.ids);
        expect(actual.rows).toEqual(expected.rows);
        const page = index.page(query);
        const bytes = Buffer.alloc(page.json.byteLength);
        page.json.writeTo(bytes, 0);
        expect(bytes.toString()).toBe(reference.jsonArray(expected.rows));
        expect(index.filter(query.filter, query.sort, query.order).map((r) => r.id)).toEqual(
          reference.filter(query.filter, query.sort, query.order).map((r) => r.id),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('ranks the same recommendations', () => {
    const bodies = fc.record(
      {
        stack: fc.subarray(['nginx', 'postgresql', 'redis', 'nodejs', 'mysql'], { minLength: 1 }),
        scale: fc.constantFrom('small', 'medium', 'large'),
        budget_max: fc.integer({ min: 5, max: 2_000 }),
        rank_by: fc.constantFrom('fit', 'price', 'performance_per_price'),
        providers: fc.subarray([...PROVIDER_NAMES], { minLength: 1 }),
        regions: fc.subarray([...REGION_CODES], { minLength: 1 }),
      },
      { requiredKeys: ['stack', 'scale'] },
    );
    fc.assert(
      fc.property(bodies, (body) => {
        const parsed = parseRecommendRequest({ ...body, purchase_option: option }, ['USD']);
        if (!parsed.ok) throw new Error(`refused: ${JSON.stringify(parsed.error)}`);
        expect(buildRecommendations(index.byMonthlyPrice, parsed.value)).toEqual(
          buildRecommendations(reference.byMonthlyPrice, parsed.value),
        );
      }),
      { numRuns: 60 },
    );
  });
});

// Properties of POST /recommend's pros and cons (D31, D58) on random catalogues: only numbers the
// response shows, and the sentences the numbers call for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  STALE_AT_OR_BEFORE,
  caseArb,
  eligible,
  cheapestOf,
  build,
  RUNS,
} from './fixtures/ranking-cases.js';

function numbersIn(sentence: string): { numbers: number[]; date: string | undefined } {
  const date = /\d{4}-\d{2}-\d{2}/.exec(sentence)?.[0];
  const rest = date === undefined ? sentence : sentence.replace(date, '');
  const numbers = (rest.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((t) => Number(t.replace(/,/g, '')));
  return { numbers, date };
}

const gb = (mb: number) => (mb < 1024 ? mb : Math.round((mb / 1024) * 100) / 100);

describe('pros and cons (properties)', () => {
  it('use only numbers of the response (or of the request and record they describe)', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const data = build(testCase);
        const list = data.recommendations;
        const first = list[0];
        const byId = new Map(testCase.candidates.map((c) => [c.id, c]));
        const budget = testCase.request.budgetMaxMicros;
        const counted = eligible(testCase).filter(
          (c) => budget === undefined || c.monthlyMicros <= budget,
        ).length;
        const { min_memory_mb, min_vcpu } = data.requirements;
        for (const r of list) {
          const record = byId.get(r.id)!;
          const [own, base] = [r.price.monthly, first!.price.monthly].map((m) =>
            Math.round(m * 100),
          );
          const diff = (own! - base!) / 100;
          // Percent of rank 1's price, half up to one decimal, in whole cents (no float error).
          const tenths = Math.floor(((own! - base!) * 2000 + base!) / (2 * base!));
          const allowed = [
            r.price.monthly,
            first!.price.monthly,
            diff,
            tenths / 10,
            0.1,
            1, // rank 1
            1.5,
            10,
            25,
            r.specs.vcpu,
            min_vcpu,
            gb(r.specs.memory_mb),
            gb(min_memory_mb),
            gb(r.specs.memory_mb - min_memory_mb),
            counted,
            record.transferTb,
            record.gpuCount,
            ...(budget === undefined ? [] : [budget / 1e6, (record.monthlyMicros - budget) / 1e6]),
          ];
          for (const sentence of [...r.pros, ...r.cons]) {
            // A GPU's model is the record's own text, not a number.
            const { numbers, date } = numbersIn(sentence.replace(record.gpuType ?? '\u0000', ''));
            for (const n of numbers) {
              expect(
                allowed.some((a) => Math.abs(a - n) < 1e-9),
                `${n} in "${sentence}"`,
              ).toBe(true);
            }
            if (date !== undefined) {
              expect(date).toBe(new Date(record.observedAt).toISOString().slice(0, 10));
              expect(record.observedAt).toBeLessThanOrEqual(STALE_AT_OR_BEFORE);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('say how much dearer than rank 1, name missing storage and stale prices, call only the cheapest cheapest', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const data = build(testCase);
        const first = data.recommendations[0];
        const cheapest = cheapestOf(testCase);
        const byId = new Map(testCase.candidates.map((c) => [c.id, c]));
        for (const r of data.recommendations) {
          const record = byId.get(r.id)!;
          const dearer = r.cons.filter((s) => s.includes('more than rank 1'));
          if (r.price.monthly > first!.price.monthly) {
            const diff =
              (Math.round(r.price.monthly * 100) - Math.round(first!.price.monthly * 100)) / 100;
            expect(dearer).toHaveLength(1);
            expect(dearer[0]).toMatch(
              new RegExp(
                `^\\$${diff.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}/month more than rank 1`,
              ),
            );
          } else {
            expect(dearer).toEqual([]);
          }
          expect(r.cons.some((s) => s.startsWith('No local storage'))).toBe(
            r.specs.storage_gb === 0,
          );
          expect(r.cons.some((s) => s.startsWith('Price observed on'))).toBe(
            record.observedAt <= STALE_AT_OR_BEFORE,
          );
          const saysCheapest = [...r.pros, ...r.cons].some((s) => /cheapest/i.test(s));
          if (saysCheapest) expect(record.monthlyMicros).toBe(cheapest);
        }
      }),
      RUNS,
    );
  });
});

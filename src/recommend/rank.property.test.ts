// Properties of POST /recommend's ranking (D28, D30, D58) on random catalogues, each checked
// against the reference in fixtures/ranking-cases.ts.
import fc from 'fast-check';
import { UNKNOWN_MACHINE_FACTS } from '../catalog/machine-facts.js';
import { describe, expect, it } from 'vitest';
import { ASIAN_REGIONS } from '../catalog/model.js';
import { recommend } from './rank.js';
import type { Candidate } from './rank.js';
import {
  OBSERVED,
  caseArb,
  expectedScore,
  cheapestOf,
  expectedFits,
  referenceOrder,
  round4,
  build,
  RUNS,
  type Case,
} from './fixtures/ranking-cases.js';

describe('ranking (properties)', () => {
  it('is exactly D58 order: score, tie-break, price, id; one record per (provider, type); cut to the limit', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const { ranked } = recommend(testCase.candidates, testCase.criteria);
        expect(ranked.map((r) => r.candidate.id)).toEqual(
          referenceOrder(testCase).map((c) => c.id),
        );
        expect(ranked.map((r) => r.rank)).toEqual(ranked.map((_, i) => i + 1));
        for (const r of ranked)
          expect(r.parts.score).toBe(expectedScore(r.candidate, testCase.criteria));
      }),
      RUNS,
    );
  });

  it('ranks the cheaper of two candidates with the same specs and score first', () => {
    const twinsArb = fc.record({
      testCase: caseArb,
      memoryFactor: fc.constantFrom(1, 1.1, 1.3, 2),
      vcpu: fc.integer({ min: 1, max: 8 }),
      storageGb: fc.constantFrom(0, 80),
      // Two different prices, both within or both over any budget (same score).
      cents: fc.uniqueArray(fc.integer({ min: 1, max: 20_000 }), { minLength: 2, maxLength: 2 }),
      providers: fc.tuple(fc.constantFrom(...ASIAN_REGIONS), fc.constantFrom(...ASIAN_REGIONS)),
    });
    fc.assert(
      fc.property(twinsArb, ({ testCase, memoryFactor, vcpu, storageGb, cents, providers }) => {
        const { criteria } = testCase;
        const twin = (k: 0 | 1): Candidate => ({
          id: 2_000_000 + k,
          providerName: providers[k].provider,
          // Types no other record has: each twin is its own (provider, type).
          instanceId: `twin-${k}`,
          facts: UNKNOWN_MACHINE_FACTS,
          instanceName: `Twin ${k}`,
          regionCode: providers[k].regionCode,
          regionName: providers[k].regionName,
          vcpu,
          memoryMb: Math.ceil(criteria.minMemoryMb * memoryFactor),
          storageGb,
          transferTb: 0,
          gpuCount: 0,
          gpuType: null,
          monthlyMicros: cents[k]! * 10_000,
          hourlyMicros: 0,
          observedAt: OBSERVED[0]!,
          purchaseOption: 'on_demand',
          spotAdvice: null,
        });
        const twins = [twin(0), twin(1)];
        const withTwins: Case = {
          ...testCase,
          // The filters must let both through.
          criteria: { ...criteria, providers: undefined, regions: undefined, limit: 50 },
          candidates: [...testCase.candidates, ...twins],
        };
        const [cheap, dear] = [...twins].sort((a, b) => a.monthlyMicros - b.monthlyMicros);
        const budget = criteria.budgetMaxMicros;
        fc.pre(
          budget === undefined || cheap!.monthlyMicros > budget === dear!.monthlyMicros > budget,
        );
        const ids = recommend(withTwins.candidates, withTwins.criteria).ranked.map(
          (r) => r.candidate.id,
        );
        const at = (c: Candidate) => ids.indexOf(c.id);
        if (at(dear!) >= 0) expect(at(cheap!)).toBeGreaterThanOrEqual(0);
        if (at(cheap!) >= 0 && at(dear!) >= 0) expect(at(cheap!)).toBeLessThan(at(dear!));
      }),
      RUNS,
    );
  });

  it('gives score_breakdown that recomputes from the record and the requirement', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const data = build(testCase);
        const cheapest = cheapestOf(testCase);
        const byId = new Map(testCase.candidates.map((c) => [c.id, c]));
        for (const r of data.recommendations) {
          const record = byId.get(r.id)!;
          const fits = expectedFits(record, testCase.criteria, cheapest);
          expect(r.score_breakdown).toEqual({
            memory_fit: round4(fits.memory_fit),
            vcpu_fit: round4(fits.vcpu_fit),
            price_fit: round4(fits.price_fit),
            storage_fit: round4(fits.storage_fit),
            tie_break: round4(fits.tie_break),
          });
        }
      }),
      RUNS,
    );
  });
});

// ---- Sentences ----

/** Numbers in a sentence (thousands separators dropped), its date apart. */

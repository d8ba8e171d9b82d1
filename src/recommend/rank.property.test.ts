import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASIAN_REGIONS, PROVIDER_NAMES } from '../catalog/model.js';
import { compareScored, recommend, tieBreakValue } from './rank.js';
import type { Candidate, RankCriteria, ScoredCandidate } from './rank.js';
import { computeRequirements } from './requirements.js';
import { scoreParts } from './score.js';
import { SCALES, STACK_NAMES } from './stacks.js';

interface Case {
  readonly candidates: readonly Candidate[];
  readonly criteria: RankCriteria;
}

/** Memory around the requirement, with the band edges (1.2x, 1.5x) and just past them often. */
function memoryArb(min: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(
      min - 1,
      min,
      Math.floor(min * 1.2),
      Math.floor(min * 1.2) + 1,
      Math.floor(min * 1.5),
      Math.floor(min * 1.5) + 1,
    ),
    fc.integer({ min: Math.max(1, min - 2048), max: min * 4 }),
  );
}

function candidateArb(min: number): fc.Arbitrary<Omit<Candidate, 'id'>> {
  return fc
    .record({
      region: fc.constantFrom(...ASIAN_REGIONS),
      // Few instance types so the same (provider, type) appears in several regions.
      type: fc.integer({ min: 1, max: 6 }),
      vcpu: fc.integer({ min: 1, max: 16 }),
      memoryMb: memoryArb(min),
      storageGb: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 640 })),
      transferTb: fc.constantFrom(0, 0.5, 1, 4),
      gpuCount: fc.constantFrom(0, 0, 0, 1, 2),
      // A small price set makes equal prices (and equal tie-break values) common.
      monthlyMicros: fc.oneof(
        fc.constantFrom(5_000_000, 10_000_000, 20_000_000, 40_000_000),
        fc.integer({ min: 0, max: 500_000_000 }),
      ),
    })
    .map((r) => ({
      providerName: r.region.provider,
      instanceId: `t${r.type}`,
      instanceName: `Type ${r.type}`,
      regionCode: r.region.regionCode,
      regionName: r.region.regionName,
      vcpu: r.vcpu,
      memoryMb: r.memoryMb,
      storageGb: r.storageGb,
      transferTb: r.transferTb,
      gpuCount: r.gpuCount,
      gpuType: r.gpuCount > 0 ? 'NVIDIA A100' : null,
      monthlyMicros: r.monthlyMicros,
      hourlyMicros: Math.round(r.monthlyMicros / 730),
    }));
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    stack: fc.subarray([...STACK_NAMES], { minLength: 1 }),
    scale: fc.constantFrom(...SCALES),
    budget: fc.option(fc.integer({ min: 1, max: 300_000_000 }), { nil: undefined }),
    limit: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
    providers: fc.option(fc.subarray([...PROVIDER_NAMES], { minLength: 1 }), { nil: undefined }),
    regions: fc.option(
      fc.subarray(
        ASIAN_REGIONS.map((r) => r.regionCode),
        { minLength: 1 },
      ),
      { nil: undefined },
    ),
  })
  .chain((r) => {
    const { minMemoryMb, minVcpu } = computeRequirements(r.stack, r.scale);
    const criteria: RankCriteria = {
      minMemoryMb,
      minVcpu,
      ...(r.budget === undefined ? {} : { budgetMaxMicros: r.budget }),
      ...(r.limit === undefined ? {} : { limit: r.limit }),
      ...(r.providers === undefined ? {} : { providers: r.providers }),
      ...(r.regions === undefined ? {} : { regions: r.regions }),
    };
    return fc.array(candidateArb(minMemoryMb), { maxLength: 120 }).chain((cs) =>
      fc
        .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), {
          minLength: cs.length,
          maxLength: cs.length,
        })
        .map((ids) => ({
          candidates: cs.map((c, i) => ({ ...c, id: ids[i] as number })),
          criteria,
        })),
    );
  });

function eligible({ candidates, criteria }: Case): Candidate[] {
  return candidates.filter(
    (c) =>
      c.memoryMb >= criteria.minMemoryMb &&
      (criteria.providers?.includes(c.providerName) ?? true) &&
      (criteria.regions?.includes(c.regionCode) ?? true),
  );
}

const pairKey = (c: Candidate) => `${c.providerName}/${c.instanceId}`;

/** D28 applied independently: float ratio (exact enough at these magnitudes), then clamp. */
function expectedScore(c: Candidate, criteria: RankCriteria): number {
  const r = c.memoryMb / criteria.minMemoryMb;
  let score = r <= 1.2 ? 100 : r <= 1.5 ? 90 : 70;
  if (c.vcpu < criteria.minVcpu) score -= 10;
  if (criteria.budgetMaxMicros !== undefined && c.monthlyMicros > criteria.budgetMaxMicros) {
    score -= 20;
  }
  return Math.min(100, Math.max(0, score));
}

/** The naive reference: score everything, sort everything, keep each pair's first. */
function naiveOrder(testCase: Case): Candidate[] {
  const all = eligible(testCase);
  const prices = all.map((c) => c.monthlyMicros);
  const bounds = {
    minMonthlyMicros: Math.min(...prices),
    maxMonthlyMicros: Math.max(...prices),
    maxStorageGb: Math.max(0, ...all.map((c) => c.storageGb)),
  };
  const { minMemoryMb, minVcpu } = testCase.criteria;
  const scored: ScoredCandidate[] = all.map((c) => ({
    candidate: c,
    parts: scoreParts(c, testCase.criteria),
    tieBreak: tieBreakValue(c, minMemoryMb, minVcpu, bounds),
  }));
  scored.sort(compareScored);
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const s of scored) {
    if (seen.has(pairKey(s.candidate))) continue;
    seen.add(pairKey(s.candidate));
    out.push(s.candidate);
  }
  return out;
}

const RUNS = { numRuns: 300 };

describe('recommend (properties)', () => {
  it('returns only fitting records, scored by the D28 rules from their own numbers', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const { criteria } = testCase;
        for (const r of recommend(testCase.candidates, criteria).ranked) {
          const c = r.candidate;
          expect(c.memoryMb).toBeGreaterThanOrEqual(criteria.minMemoryMb);
          if (criteria.providers) expect(criteria.providers).toContain(c.providerName);
          if (criteria.regions) expect(criteria.regions).toContain(c.regionCode);
          expect(r.parts.score).toBe(expectedScore(c, criteria));
          const over =
            criteria.budgetMaxMicros !== undefined && c.monthlyMicros > criteria.budgetMaxMicros;
          expect(r.parts.overBudget).toBe(over);
        }
      }),
      RUNS,
    );
  });

  it('ranks 1..n in order, score never rising, one record per (provider, instance type)', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const { ranked } = recommend(testCase.candidates, testCase.criteria);
        expect(ranked.map((r) => r.rank)).toEqual(ranked.map((_, i) => i + 1));
        for (let i = 1; i < ranked.length; i += 1) {
          expect(ranked[i]!.parts.score).toBeLessThanOrEqual(ranked[i - 1]!.parts.score);
          expect(compareScored(ranked[i - 1]!, ranked[i]!)).toBeLessThan(0);
        }
        const keys = ranked.map((r) => pairKey(r.candidate));
        expect(new Set(keys).size).toBe(keys.length);
      }),
      RUNS,
    );
  });

  it('has length min(limit, distinct pairs) and equals sort-everything-then-dedupe', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const { ranked, matchingMonthlyMicros } = recommend(testCase.candidates, testCase.criteria);
        const fits = eligible(testCase);
        const pairs = new Set(fits.map(pairKey)).size;
        expect(ranked).toHaveLength(Math.min(testCase.criteria.limit ?? 10, pairs));
        expect(matchingMonthlyMicros).toHaveLength(fits.length);
        const naive = naiveOrder(testCase);
        expect(ranked.map((r) => r.candidate.id)).toEqual(
          naive.slice(0, ranked.length).map((c) => c.id),
        );
      }),
      RUNS,
    );
  });

  it('never drops the best-ordered record, and keeps the best record of each pair', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const { ranked } = recommend(testCase.candidates, testCase.criteria);
        const naive = naiveOrder(testCase);
        if (naive.length > 0) expect(ranked[0]?.candidate.id).toBe(naive[0]?.id);
        // No other fitting record of a returned pair would come before the one returned.
        const { minMemoryMb, minVcpu } = testCase.criteria;
        const fits = eligible(testCase);
        const bounds = {
          minMonthlyMicros: Math.min(...fits.map((c) => c.monthlyMicros)),
          maxMonthlyMicros: Math.max(...fits.map((c) => c.monthlyMicros)),
          maxStorageGb: Math.max(0, ...fits.map((c) => c.storageGb)),
        };
        for (const r of ranked) {
          for (const other of fits) {
            if (pairKey(other) !== pairKey(r.candidate) || other.id === r.candidate.id) continue;
            const scored = {
              candidate: other,
              parts: scoreParts(other, testCase.criteria),
              tieBreak: tieBreakValue(other, minMemoryMb, minVcpu, bounds),
            };
            expect(compareScored(r, scored)).toBeLessThan(0);
          }
        }
      }),
      RUNS,
    );
  });
});

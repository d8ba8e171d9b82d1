// recommend() (typed columns, groups numbered once per frozen candidate list) against
// recommendReference() (one object per record, maps, a sort of every group's best): the same
// ranked list, the same score parts and tie-break values, the same matching prices, for random
// catalogues and requests, including one frozen list ranked for many requests in a row (the
// index's memoised lists) and unsorted, unfrozen lists.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASIAN_REGIONS, PROVIDER_NAMES } from '../catalog/model.js';
import { recommend } from './rank.js';
import { recommendReference } from '../../test/support/rank-reference.js';
import type { Candidate, RankCriteria } from './rank.js';
import { computeRequirements } from './requirements.js';
import { SCALES, STACK_NAMES } from './stacks.js';

const candidateArb: fc.Arbitrary<Omit<Candidate, 'id'>> = fc
  .record({
    region: fc.constantFrom(...ASIAN_REGIONS),
    type: fc.integer({ min: 1, max: 8 }),
    vcpu: fc.constantFrom(1, 2, 4, 8, 16),
    memoryMb: fc.oneof(
      fc.constantFrom(1024, 2048, 3072, 4096, 6144, 8192, 16384),
      fc.integer({ min: 512, max: 40_000 }),
    ),
    storageGb: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 640 })),
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
    transferTb: 0,
    gpuCount: 0,
    gpuType: null,
    monthlyMicros: r.monthlyMicros,
    hourlyMicros: Math.round(r.monthlyMicros / 730),
  }));

const listArb = fc.array(candidateArb, { maxLength: 150 }).chain((cs) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), {
      minLength: cs.length,
      maxLength: cs.length,
    })
    .map((ids): Candidate[] => cs.map((c, i) => ({ ...c, id: ids[i] as number }))),
);

const criteriaArb: fc.Arbitrary<RankCriteria> = fc
  .record({
    stack: fc.subarray([...STACK_NAMES], { minLength: 1 }),
    scale: fc.constantFrom(...SCALES),
    budget: fc.option(fc.integer({ min: 1, max: 300_000_000 }), { nil: undefined }),
    limit: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
    providers: fc.option(fc.subarray([...PROVIDER_NAMES]), { nil: undefined }),
    regions: fc.option(fc.subarray(ASIAN_REGIONS.map((r) => r.regionCode)), { nil: undefined }),
  })
  .map((r) => {
    const { minMemoryMb, minVcpu } = computeRequirements(r.stack, r.scale);
    return {
      minMemoryMb,
      minVcpu,
      ...(r.budget === undefined ? {} : { budgetMaxMicros: r.budget }),
      ...(r.limit === undefined ? {} : { limit: r.limit }),
      ...(r.providers === undefined ? {} : { providers: r.providers }),
      ...(r.regions === undefined ? {} : { regions: r.regions }),
    };
  });

/** As CatalogIndex.candidates hands them out: monthly price ascending, then id; frozen. */
function indexList(list: readonly Candidate[]): readonly Candidate[] {
  return Object.freeze([...list].sort((a, b) => a.monthlyMicros - b.monthlyMicros || a.id - b.id));
}

function expectSame(list: readonly Candidate[], criteria: RankCriteria): void {
  const fast = recommend(list, criteria);
  const reference = recommendReference(list, criteria);
  expect(fast.ranked).toStrictEqual(reference.ranked);
  // Same records (not copies), and tie-break values equal bit for bit.
  fast.ranked.forEach((r, i) => {
    expect(r.candidate).toBe(reference.ranked[i]!.candidate);
    expect(Object.is(r.tieBreak, reference.ranked[i]!.tieBreak)).toBe(true);
  });
  expect(fast.matchingMonthlyMicros).toStrictEqual(reference.matchingMonthlyMicros);
}

describe('recommend equals recommendReference', () => {
  it('on a frozen, price-ordered list ranked for many requests in a row', () => {
    fc.assert(
      fc.property(listArb, fc.array(criteriaArb, { minLength: 1, maxLength: 8 }), (cs, all) => {
        const list = indexList(cs);
        for (const criteria of all) expectSame(list, criteria);
      }),
      { numRuns: 300 },
    );
  });

  it('on a frozen list asked for one requirement with many budgets (a budget slider)', () => {
    // A budget: none, any amount, or exactly one of the list's prices (equal is within budget).
    const budgetArb = fc.oneof(
      fc.constant(undefined),
      fc.integer({ min: 0, max: 500_000_000 }),
      fc.nat().map((at) => ({ at })),
    );
    fc.assert(
      fc.property(
        listArb,
        criteriaArb,
        fc.array(budgetArb, { minLength: 1, maxLength: 12 }),
        (cs, criteria, budgets) => {
          const list = indexList(cs);
          const { budgetMaxMicros: _, ...rest } = criteria;
          for (const budget of budgets) {
            const amount =
              typeof budget === 'object'
                ? list[budget.at % Math.max(1, list.length)]?.monthlyMicros
                : budget;
            expectSame(list, amount === undefined ? rest : { ...rest, budgetMaxMicros: amount });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on unsorted, unfrozen lists (nothing is remembered for them)', () => {
    fc.assert(
      fc.property(listArb, criteriaArb, (cs, criteria) => {
        expectSame(cs, criteria);
        // The caller may change an unfrozen list between calls; the answer follows it.
        cs.reverse();
        expectSame(cs, criteria);
      }),
      { numRuns: 300 },
    );
  });

  it('can fail: a different list gives a different answer', () => {
    const [a, b] = fc.sample(
      listArb.filter((l) => l.length > 5),
      { numRuns: 2, seed: 7 },
    );
    const criteria: RankCriteria = { minMemoryMb: 512, minVcpu: 1 };
    expect(recommend(indexList(a!), criteria).ranked).not.toStrictEqual(
      recommendReference(indexList(b!), criteria).ranked,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { candidate } from './fixtures/candidates.js';
import { compareScored, recommend, tieBreakValue } from './rank.js';
import type { ScoredCandidate } from './rank.js';

// Hand-worked D29 example: min 1000 MB, 2 vCPU; prices $10..$20, storage max 100 GB.
//   A: 1000 MB, 2 vCPU,  50 GB, $10 -> 0.4*1 + 0.3*1 + 0.2*1 + 0.1*0.5        = 0.95
//   B: 1100 MB, 2 vCPU, 100 GB, $20 -> 0.4*(1000/1100) + 0.3 + 0 + 0.1*1      = 0.763636...
//   C: 1200 MB, 4 vCPU,   0 GB, $15 -> 0.4*(1000/1200) + 0.3 + 0.2*0.5 + 0    = 0.733333...
// All three score 100 (r <= 1.2, enough vCPU), so the tie-break orders them A, B, C.
const A = candidate({ id: 3, memoryMb: 1000, vcpu: 2, storageGb: 50, monthlyMicros: 10_000_000 });
const B = candidate({ id: 2, memoryMb: 1100, vcpu: 2, storageGb: 100, monthlyMicros: 20_000_000 });
const C = candidate({ id: 1, memoryMb: 1200, vcpu: 4, storageGb: 0, monthlyMicros: 15_000_000 });
const criteria = { minMemoryMb: 1000, minVcpu: 2 };

describe('tieBreakValue', () => {
  const bounds = { minMonthlyMicros: 10_000_000, maxMonthlyMicros: 20_000_000, maxStorageGb: 100 };
  it.each([
    [A, 0.95],
    [B, 0.763636],
    [C, 0.733333],
  ])('matches the hand-worked value for %#', (c, expected) => {
    expect(tieBreakValue(c, 1000, 2, bounds)).toBeCloseTo(expected, 6);
  });

  it('gives full price fit when every price is equal and no storage fit when all storage is 0', () => {
    const flat = { minMonthlyMicros: 5, maxMonthlyMicros: 5, maxStorageGb: 0 };
    // 0.4 * 1000/2000 + 0.3 * 1/2 + 0.2 * 1 + 0.1 * 0
    const c = candidate({ id: 1, memoryMb: 2000, vcpu: 1, storageGb: 0, monthlyMicros: 5 });
    expect(tieBreakValue(c, 1000, 2, flat)).toBeCloseTo(0.55, 12);
  });
});

describe('recommend', () => {
  it('orders equal scores by the tie-break value, not by price alone', () => {
    const { ranked } = recommend([C, B, A], criteria);
    expect(ranked.map((r) => [r.rank, r.candidate.id, r.parts.score])).toEqual([
      [1, 3, 100],
      [2, 2, 100],
      [3, 1, 100],
    ]);
  });

  it('puts a higher score first whatever the tie-break value', () => {
    const short = candidate({ id: 9, memoryMb: 1000, vcpu: 1, storageGb: 100, monthlyMicros: 1 });
    const { ranked } = recommend([short, C], criteria);
    expect(ranked.map((r) => [r.candidate.id, r.parts.score])).toEqual([
      [1, 100],
      [9, 90],
    ]);
  });

  it('excludes records below the required memory and outside the filters', () => {
    const small = candidate({ id: 5, memoryMb: 999 });
    const other = candidate({
      id: 6,
      memoryMb: 1000,
      providerName: 'provider_b',
      regionCode: 'icn',
    });
    expect(recommend([small, A], criteria).ranked.map((r) => r.candidate.id)).toEqual([3]);
    const filtered = recommend([A, other], { ...criteria, providers: ['provider_b'] });
    expect(filtered.ranked.map((r) => r.candidate.id)).toEqual([6]);
    const byRegion = recommend([A, other], { ...criteria, regions: ['ap-northeast'] });
    expect(byRegion.ranked.map((r) => r.candidate.id)).toEqual([3]);
    expect(byRegion.matchingMonthlyMicros).toHaveLength(1);
  });

  it('keeps one record per (provider, instance type): its best region', () => {
    const tokyo = candidate({ id: 1, instanceId: 'g1', monthlyMicros: 12_000_000, memoryMb: 1000 });
    const osaka = candidate({
      id: 2,
      instanceId: 'g1',
      regionCode: 'ap-south',
      regionName: 'Osaka',
      monthlyMicros: 10_000_000,
      memoryMb: 1000,
    });
    // Same instance id at another provider is a different plan.
    const otherProvider = candidate({
      id: 3,
      instanceId: 'g1',
      providerName: 'provider_c',
      memoryMb: 1000,
    });
    const { ranked, matchingMonthlyMicros } = recommend([tokyo, osaka, otherProvider], criteria);
    expect(ranked.map((r) => r.candidate.id)).toEqual([2, 3]);
    expect([...matchingMonthlyMicros]).toEqual([10_000_000, 12_000_000, 20_000_000]);
  });

  it('keeps the within-budget region of a plan even when the over-budget one has the better tie-break', () => {
    // Bounds $50..$1000, storage max 640. Over: 0.4 + 0.3 + 0.2*(949/950) + 0.1 = 0.9998 but
    // scores 80; within: 0.4*(1000/1200) + 0.3 + 0.2 + 0 = 0.8333 and scores 100.
    const over = candidate({
      id: 1,
      instanceId: 'g1',
      memoryMb: 1000,
      storageGb: 640,
      monthlyMicros: 51_000_000,
    });
    const within = candidate({
      id: 2,
      instanceId: 'g1',
      regionCode: 'ap-south',
      regionName: 'Osaka',
      memoryMb: 1200,
      storageGb: 0,
      monthlyMicros: 50_000_000,
    });
    const dear = candidate({
      id: 3,
      instanceId: 'g9',
      memoryMb: 1000,
      monthlyMicros: 1_000_000_000,
    });
    const { ranked } = recommend([over, within, dear], {
      ...criteria,
      budgetMaxMicros: 50_000_000,
    });
    expect(ranked.map((r) => [r.candidate.id, r.parts.score])).toEqual([
      [2, 100],
      [3, 80],
    ]);
    expect(ranked[0]!.tieBreak).toBeLessThan(0.84);
  });

  it('cuts to the limit, 10 by default', () => {
    const many = Array.from({ length: 30 }, (_, i) => candidate({ id: i + 1, memoryMb: 1000 }));
    expect(recommend(many, criteria).ranked).toHaveLength(10);
    expect(recommend(many, { ...criteria, limit: 25 }).ranked).toHaveLength(25);
    expect(recommend([], criteria).ranked).toEqual([]);
  });
});

describe('compareScored', () => {
  const parts = { memoryPoints: 100, vcpuShort: false, overBudget: false, score: 100 };
  const scored = (id: number, tieBreak: number, monthlyMicros: number): ScoredCandidate => ({
    candidate: candidate({ id, monthlyMicros }),
    parts,
    tieBreak,
  });

  it('breaks an equal tie-break value by monthly price, then by id', () => {
    const list = [scored(4, 0.5, 20), scored(3, 0.5, 10), scored(1, 0.5, 20), scored(2, 0.6, 99)];
    expect(list.sort(compareScored).map((s) => s.candidate.id)).toEqual([2, 3, 1, 4]);
  });
});

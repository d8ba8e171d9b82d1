import { describe, expect, it } from 'vitest';
import { candidate } from './fixtures/candidates.js';
import { fitsOf } from './fits.js';
import { recommend } from './rank.js';

// Hand-worked D58 example: min 1000 MB, 2 vCPU; the cheapest candidate costs $10.
//   A: 1000 MB, 2 vCPU,  50 GB, $10 -> 0.4*1 + 0.3*1 + 0.2*(10/10) + 0.1*1          = 1
//   B: 1100 MB, 2 vCPU, 100 GB, $20 -> 0.4*(1000/1100) + 0.3 + 0.2*(10/20) + 0.1    = 0.863636...
//   C: 1200 MB, 4 vCPU,   0 GB, $15 -> 0.4*(1000/1200) + 0.3 + 0.2*(10/15) + 0.05   = 0.816666...
// All three score 100 (r <= 1.2, enough vCPU), so the tie-break orders them A, B, C.
const A = candidate({ id: 3, memoryMb: 1000, vcpu: 2, storageGb: 50, monthlyMicros: 10_000_000 });
const B = candidate({ id: 2, memoryMb: 1100, vcpu: 2, storageGb: 100, monthlyMicros: 20_000_000 });
const C = candidate({ id: 1, memoryMb: 1200, vcpu: 4, storageGb: 0, monthlyMicros: 15_000_000 });
const criteria = { minMemoryMb: 1000, minVcpu: 2 };

describe('fitsOf', () => {
  it.each([
    [A, { memory: 1, vcpu: 1, price: 1, storage: 1 }, 1],
    [B, { memory: 1000 / 1100, vcpu: 1, price: 0.5, storage: 1 }, 0.863636],
    [C, { memory: 1000 / 1200, vcpu: 1, price: 10 / 15, storage: 0.5 }, 0.816667],
  ])('matches the hand-worked fits for %#', (c, fits, tieBreak) => {
    const got = fitsOf(c, criteria, 10_000_000);
    expect(got).toMatchObject(fits);
    expect(got.tieBreak).toBeCloseTo(tieBreak, 6);
  });

  it('caps the vCPU fit at 1 and measures a shortfall; a free record is the cheapest', () => {
    const short = candidate({ id: 1, memoryMb: 2000, vcpu: 1, storageGb: 0, monthlyMicros: 0 });
    // 0.4 * 1000/2000 + 0.3 * 1/2 + 0.2 * 1 + 0.1 * 0.5
    expect(fitsOf(short, criteria, 0)).toEqual({
      memory: 0.5,
      vcpu: 0.5,
      price: 1,
      storage: 0.5,
      tieBreak: 0.4 * 0.5 + 0.3 * 0.5 + 0.2 * 1 + 0.1 * 0.5,
    });
    expect(fitsOf(candidate({ id: 2, vcpu: 8 }), criteria, 1).vcpu).toBe(1);
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
    expect(ranked[1]!.fits).toEqual(fitsOf(B, criteria, 10_000_000));
  });

  it('ranks the cheaper of two plans with the same specs first (D58, issue 25)', () => {
    // The D29 tie-break let a larger disk outweigh a 20% lower price; D58 does not.
    const dear = candidate({
      id: 1,
      memoryMb: 4096,
      vcpu: 2,
      storageGb: 128,
      monthlyMicros: 24_000_000,
    });
    const cheap = candidate({
      id: 2,
      memoryMb: 4096,
      vcpu: 2,
      storageGb: 80,
      monthlyMicros: 20_000_000,
    });
    const { ranked } = recommend([dear, cheap], { minMemoryMb: 4096, minVcpu: 2 });
    expect(ranked.map((r) => r.candidate.id)).toEqual([2, 1]);
  });

  it('breaks an equal tie-break value by monthly price, then by id', () => {
    const twin = (id: number, monthlyMicros: number) =>
      candidate({ id, memoryMb: 1000, vcpu: 2, storageGb: 10, monthlyMicros });
    // All four priced at the cheapest: equal fits; then price, then id.
    const { ranked } = recommend([twin(4, 10), twin(3, 10), twin(1, 10), twin(2, 10)], criteria);
    expect(ranked.map((r) => r.candidate.id)).toEqual([1, 2, 3, 4]);
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
    const small = candidate({ id: 5, memoryMb: 999, monthlyMicros: 1 });
    const other = candidate({
      id: 6,
      memoryMb: 1000,
      providerName: 'provider_b',
      regionCode: 'icn',
    });
    const all = recommend([small, A], criteria);
    expect(all.ranked.map((r) => r.candidate.id)).toEqual([3]);
    // The excluded record is not the cheapest candidate.
    expect(all.cheapestMonthlyMicros).toBe(10_000_000);
    const filtered = recommend([A, other], { ...criteria, providers: ['provider_b'] });
    expect(filtered.ranked.map((r) => r.candidate.id)).toEqual([6]);
    const byRegion = recommend([A, other], { ...criteria, regions: ['ap-northeast'] });
    expect(byRegion.ranked.map((r) => r.candidate.id)).toEqual([3]);
    expect(byRegion.countedMonthlyMicros).toHaveLength(1);
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
    const { ranked, countedMonthlyMicros } = recommend([tokyo, osaka, otherProvider], criteria);
    expect(ranked.map((r) => r.candidate.id)).toEqual([2, 3]);
    expect([...countedMonthlyMicros]).toEqual([10_000_000, 12_000_000, 20_000_000]);
  });

  it('counts over-budget candidates for the cheapest price, and only in-budget ones for option counts', () => {
    // Both are over the $4 budget: the cheaper still sets price_fit's numerator.
    const dearer = candidate({ id: 1, instanceId: 'g1', memoryMb: 1000, monthlyMicros: 8_000_000 });
    const cheaper = candidate({
      id: 2,
      instanceId: 'g2',
      memoryMb: 1000,
      monthlyMicros: 5_000_000,
    });
    const inBudget = candidate({ id: 3, instanceId: 'g3', memoryMb: 999, monthlyMicros: 1 });
    const result = recommend([dearer, cheaper, inBudget], {
      ...criteria,
      budgetMaxMicros: 4_000_000,
    });
    expect(result.cheapestMonthlyMicros).toBe(5_000_000);
    expect(result.countedMonthlyMicros).toHaveLength(0);
    expect(result.ranked.map((r) => [r.candidate.id, r.parts.score, r.fits.price])).toEqual([
      [2, 80, 1],
      [1, 80, 5 / 8],
    ]);
    const wider = recommend([dearer, cheaper], { ...criteria, budgetMaxMicros: 6_000_000 });
    expect([...wider.countedMonthlyMicros]).toEqual([5_000_000]);
    expect(wider.ranked.map((r) => [r.candidate.id, r.parts.score])).toEqual([
      [2, 100],
      [1, 80],
    ]);
  });

  it('keeps the within-budget region of a plan even when the over-budget one has the better tie-break', () => {
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
    expect(ranked[0]!.fits.tieBreak).toBeLessThan(fitsOf(over, criteria, 50_000_000).tieBreak);
  });

  it('cuts to the limit, 10 by default', () => {
    const many = Array.from({ length: 30 }, (_, i) => candidate({ id: i + 1, memoryMb: 1000 }));
    expect(recommend(many, criteria).ranked).toHaveLength(10);
    expect(recommend(many, { ...criteria, limit: 25 }).ranked).toHaveLength(25);
    expect(recommend([], criteria)).toMatchObject({ ranked: [], cheapestMonthlyMicros: undefined });
  });

  it('keeps over-budget records out of a full list of better ones, and ranks them after when there is room', () => {
    // Two plans within a $20 budget score 100; the over-budget record (80 at most) cannot
    // enter a list of two of them, whatever its tie-break.
    const within = [1, 2].map((id) =>
      candidate({ id, instanceId: `w${id}`, memoryMb: 1000, monthlyMicros: id * 10_000_000 }),
    );
    const over = candidate({ id: 3, instanceId: 'o', memoryMb: 1000, monthlyMicros: 30_000_000 });
    const result = recommend([...within, over], {
      ...criteria,
      budgetMaxMicros: 20_000_000,
      limit: 2,
    });
    expect(result.ranked.map((r) => [r.candidate.id, r.parts.score])).toEqual([
      [1, 100],
      [2, 100],
    ]);
    expect(result.countedMonthlyMicros).toEqual([10_000_000, 20_000_000]);
    // With room for a third, the over-budget record is ranked after them.
    const wider = recommend([...within, over], {
      ...criteria,
      budgetMaxMicros: 20_000_000,
      limit: 3,
    });
    expect(wider.ranked.map((r) => [r.candidate.id, r.parts.score])).toEqual([
      [1, 100],
      [2, 100],
      [3, 80],
    ]);
  });

  it('ranks a list in any order as the same list cheapest first', () => {
    const shuffled = [B, A, C];
    const inOrder = [A, C, B];
    const ids = (list: typeof shuffled) =>
      recommend(list, criteria).ranked.map((r) => r.candidate.id);
    expect(ids(shuffled)).toEqual(ids(inOrder));
    expect(recommend(shuffled, criteria).countedMonthlyMicros).toEqual([
      10_000_000, 15_000_000, 20_000_000,
    ]);
  });
});

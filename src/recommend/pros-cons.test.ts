import { describe, expect, it } from 'vitest';
import { formatDecimal, formatMemoryText, formatUsd } from './format.js';
import { candidate } from './fixtures/candidates.js';
import { pricePosition, prosAndCons } from './pros-cons.js';
import type { Candidate } from './rank.js';
import { scoreParts } from './score.js';
import type { ScoreCriteria } from './score.js';

function sentences(c: Candidate, criteria: ScoreCriteria, prices: readonly number[]) {
  const scored = { candidate: c, parts: scoreParts(c, criteria), tieBreak: 0 };
  return prosAndCons(scored, criteria, Float64Array.from(prices).sort());
}

/** n prices 1..n dollars. */
const ladder = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * 1_000_000);

describe('price position sentences', () => {
  const criteria = { minMemoryMb: 4096, minVcpu: 2 };
  const at = (dollars: number, prices: readonly number[]) =>
    sentences(candidate({ id: 1, monthlyMicros: dollars * 1_000_000 }), criteria, prices);

  it.each([
    // [price, n, pro, con]
    [1, 143, 'Lowest monthly price of 143 matching options', undefined],
    [2, 20, 'Within the cheapest 10% of 20 matching options', undefined],
    [3, 20, 'Within the cheapest 25% of 20 matching options', undefined],
    [5, 20, 'Within the cheapest 25% of 20 matching options', undefined],
    [6, 20, undefined, undefined],
    [15, 20, undefined, undefined],
    [16, 20, undefined, 'Priced in the most expensive 25% of 20 matching options'],
    [20, 20, undefined, 'Highest monthly price of 20 matching options'],
  ])('$%i among %i options', (dollars, n, pro, con) => {
    const { pros, cons } = at(dollars, ladder(n));
    const priceSentence = /matching options/;
    expect(pros.filter((s) => priceSentence.test(s))).toEqual(pro === undefined ? [] : [pro]);
    expect(cons.filter((s) => priceSentence.test(s))).toEqual(con === undefined ? [] : [con]);
  });

  it('says nothing about price position with a single matching option', () => {
    const { pros, cons } = at(7, [7_000_000]);
    expect([...pros, ...cons].some((s) => s.includes('matching option'))).toBe(false);
  });

  it('lets ties share the better place', () => {
    expect(pricePosition(Float64Array.from([1, 2, 2, 2, 3]), 2)).toEqual({
      total: 5,
      cheaper: 1,
      dearer: 1,
    });
    // Everything at one price: lowest (tied), never also highest.
    const { pros, cons } = at(5, [5_000_000, 5_000_000, 5_000_000]);
    expect(pros).toContain('Lowest monthly price of 3 matching options');
    expect(cons).toEqual([]);
  });
});

describe('memory, vCPU, budget, transfer and GPU sentences', () => {
  it('describes a roomy, under-powered, over-budget GPU instance with transfer', () => {
    // Requirement 1928 MB / 3 vCPU; instance 4 GB, 2 vCPU, $62.00 against a $50.00 budget.
    const c = candidate({
      id: 1,
      memoryMb: 4096,
      vcpu: 2,
      monthlyMicros: 62_000_000,
      transferTb: 4,
      gpuCount: 1,
      gpuType: 'NVIDIA A100',
    });
    const criteria = { minMemoryMb: 1928, minVcpu: 3, budgetMaxMicros: 50_000_000 };
    expect(sentences(c, criteria, [62_000_000])).toEqual({
      pros: [
        '4 GB memory: 2.12 GB above the 1.88 GB required',
        '4 TB monthly transfer included',
        '1x NVIDIA A100 GPU',
      ],
      cons: [
        'Memory is more than 1.5x the 1.88 GB required',
        '2 vCPU, below the 3 vCPU suggested',
        '$12.00/month over the $50.00 budget',
      ],
    });
  });

  it('describes an exact fit within budget', () => {
    const c = candidate({ id: 1, memoryMb: 2048, vcpu: 1, monthlyMicros: 50_000_000 });
    const criteria = { minMemoryMb: 2048, minVcpu: 1, budgetMaxMicros: 50_000_000 };
    expect(sentences(c, criteria, [50_000_000])).toEqual({
      pros: [
        '2 GB memory: exactly the 2 GB required',
        '1 vCPU, meeting the 1 vCPU suggested',
        '$50.00/month, within the $50.00 budget',
      ],
      cons: [],
    });
  });

  it('names an unknown GPU model plainly and shows more vCPU than suggested', () => {
    const c = candidate({ id: 1, memoryMb: 1100, vcpu: 8, gpuCount: 2, gpuType: null });
    const { pros, cons } = sentences(c, { minMemoryMb: 1000, minVcpu: 1 }, [20_000_000]);
    expect(pros).toEqual([
      '1.07 GB memory: 100 MB above the 1000 MB required',
      '8 vCPU, above the 1 vCPU suggested',
      '2x GPU',
    ]);
    expect(cons).toEqual([]);
  });

  it('shows a sub-cent overrun exactly', () => {
    const c = candidate({ id: 1, memoryMb: 1000, monthlyMicros: 10_000_001 });
    const { cons } = sentences(
      c,
      { minMemoryMb: 1000, minVcpu: 1, budgetMaxMicros: 10_000_000 },
      [],
    );
    expect(cons).toEqual(['$0.000001/month over the $10.00 budget']);
  });
});

describe('formatting', () => {
  it.each([
    [0, '$0.00'],
    [50_000_000, '$50.00'],
    [1_234_567, '$1.234567'],
    [1_500_000_000, '$1,500.00'],
    [12_345_678_900_000, '$12,345,678.90'],
  ])('formatUsd(%i) is %s', (micros, text) => {
    expect(formatUsd(micros)).toBe(text);
  });

  it.each([
    [512, '512 MB'],
    [1024, '1 GB'],
    [1928, '1.88 GB'],
    [6912, '6.75 GB'],
  ])('formatMemoryText(%i) is %s', (mb, text) => {
    expect(formatMemoryText(mb)).toBe(text);
  });

  it('keeps tiny positive decimals visible', () => {
    expect(formatDecimal(1.024, 3)).toBe('1.024');
    expect(formatDecimal(0.0001, 3)).toBe('0.0001');
    expect(formatDecimal(4, 3)).toBe('4');
  });
});

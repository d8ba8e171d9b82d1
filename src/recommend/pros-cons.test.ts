import { describe, expect, it } from 'vitest';
import { moneyView } from '../catalog/money-view.js';
import { usdBudgetText } from './budget-text.js';
import { formatDecimal, formatMemoryText, formatUsd, groupThousands } from './format.js';
import { candidate } from './fixtures/candidates.js';
import { pricePosition, prosAndCons } from './pros-cons.js';
import { fitsOf } from './fits.js';
import type { Candidate } from './rank.js';
import { scoreParts } from './score.js';
import type { ScoreCriteria } from './score.js';

const USD = moneyView(undefined, 'USD');

function sentences(
  c: Candidate,
  criteria: ScoreCriteria,
  prices: readonly number[],
  first: Candidate = c,
  staleAtOrBefore = -Infinity,
) {
  const scored = { candidate: c, parts: scoreParts(c, criteria), fits: fitsOf(c, criteria, 1) };
  const counted = [...prices].sort((a, b) => a - b);
  return prosAndCons(scored, {
    criteria,
    countedMonthlyMicros: counted,
    first,
    money: USD,
    staleAtOrBefore,
    budgetText:
      criteria.budgetMaxMicros === undefined ? undefined : usdBudgetText(criteria.budgetMaxMicros),
  });
}

/** n prices 1..n dollars. */
const ladder = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * 1_000_000);

describe('price position sentences', () => {
  const criteria = { minMemoryMb: 4096, minVcpu: 2 };
  const at = (dollars: number, prices: readonly number[]) =>
    sentences(candidate({ id: 1, monthlyMicros: dollars * 1_000_000 }), criteria, prices);

  it.each([
    // [price, n, pro, con]
    [1, 143, 'Cheapest of 143 matching options', undefined],
    [2, 20, 'Priced in the lowest 10% of 20 matching options', undefined],
    [3, 20, 'Priced in the lowest 25% of 20 matching options', undefined],
    [5, 20, 'Priced in the lowest 25% of 20 matching options', undefined],
    [6, 20, undefined, undefined],
    [15, 20, undefined, undefined],
    [16, 20, undefined, 'Priced in the highest 25% of 20 matching options'],
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
    expect(pricePosition([1, 2, 2, 2, 3], 2)).toEqual({
      total: 5,
      cheaper: 1,
      dearer: 1,
    });
    // Everything at one price: lowest (tied), never also highest.
    const { pros, cons } = at(5, [5_000_000, 5_000_000, 5_000_000]);
    expect(pros).toContain('Cheapest of 3 matching options');
    expect(cons).toEqual([]);
  });

  it('counts only the options within the budget when one is given, and says so', () => {
    const c = candidate({ id: 1, monthlyMicros: 2_000_000 });
    // Ten prices within a $10 budget: $2 is second of ten, within the lowest 25%.
    const { pros } = sentences(c, { ...criteria, budgetMaxMicros: 10_000_000 }, ladder(10));
    expect(pros).toContain('Priced in the lowest 25% of 10 matching options within the budget');
  });

  it('says nothing about the place of an over-budget record', () => {
    const c = candidate({ id: 1, monthlyMicros: 30_000_000 });
    const { pros, cons } = sentences(c, { ...criteria, budgetMaxMicros: 10_000_000 }, ladder(10));
    expect([...pros, ...cons].some((s) => s.includes('matching options'))).toBe(false);
  });
});

describe('sentences that compare with the list (D58)', () => {
  const criteria = { minMemoryMb: 4096, minVcpu: 2 };
  const first = candidate({ id: 1, monthlyMicros: 20_000_000 });

  it('says how much dearer than rank 1, in amount and percent of its price', () => {
    const c = candidate({ id: 2, monthlyMicros: 24_000_000 });
    expect(sentences(c, criteria, [], first).cons).toEqual(['$4.00/month more than rank 1 (+20%)']);
    const odd = candidate({ id: 3, monthlyMicros: 20_010_000 });
    expect(sentences(odd, criteria, [], first).cons).toEqual([
      '$0.01/month more than rank 1 (+0.1%)',
    ]);
    const tiny = candidate({ id: 4, monthlyMicros: 20_010_000 });
    const dear = candidate({ id: 5, monthlyMicros: 1_000_000_000 });
    expect(sentences(tiny, criteria, [], dear).cons).toEqual([]);
    const big = candidate({ id: 6, monthlyMicros: 1_000_010_000 });
    expect(sentences(big, criteria, [], dear).cons).toEqual([
      '$0.01/month more than rank 1 (+<0.1%)',
    ]);
  });

  it('compares the displayed prices: equal when shown, never dearer', () => {
    // $20.004 is shown as 20.00, like rank 1.
    const c = candidate({ id: 2, monthlyMicros: 20_004_000 });
    expect(sentences(c, criteria, [], first).cons).toEqual([]);
  });

  it('names missing local storage and a stale price with its observation date', () => {
    const c = candidate({ id: 2, storageGb: 0, observedAt: Date.UTC(2024, 6, 11, 13) });
    expect(sentences(c, criteria, [], c, Date.UTC(2024, 6, 11, 13)).cons).toEqual([
      'No local storage (block storage is billed separately)',
      'Price observed on 2024-07-11; it may have changed since',
    ]);
    expect(sentences(c, criteria, [], c, Date.UTC(2024, 6, 11, 12)).cons).toEqual([
      'No local storage (block storage is billed separately)',
    ]);
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
    expect(sentences(c, criteria, [])).toEqual({
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

  it.each([
    ['0', '0'],
    ['999', '999'],
    ['1000', '1,000'],
    ['12345', '12,345'],
    ['123456', '123,456'],
    ['1234567', '1,234,567'],
  ])('groupThousands(%s) is %s', (digits, text) => {
    expect(groupThousands(digits)).toBe(text);
  });

  it('keeps tiny positive decimals visible', () => {
    expect(formatDecimal(1.024, 3)).toBe('1.024');
    expect(formatDecimal(0.0001, 3)).toBe('0.0001');
    expect(formatDecimal(4, 3)).toBe('4');
  });
});

describe('the purchase option as a con (D61)', () => {
  const criteria = { minMemoryMb: 4096, minVcpu: 2 };
  const consOf = (fields: Partial<Candidate>) =>
    sentences(candidate({ id: 1, ...fields }), criteria, ladder(3)).cons;

  it('says nothing for on-demand', () => {
    expect(consOf({}).join(' ')).not.toMatch(/commitment|interrupt/i);
  });

  it('names the commitment of a reserved or convertible price', () => {
    expect(consOf({ purchaseOption: 'reserved_1y' })).toContain(
      'Requires a 1-year commitment, billed every hour of the term whether used or not',
    );
    expect(consOf({ purchaseOption: 'convertible_3y' })).toContain(
      'Requires a 3-year commitment, billed every hour of the term whether used or not',
    );
  });

  it("says a spot price can be interrupted, with AWS's band where recorded", () => {
    expect(consOf({ purchaseOption: 'spot' })).toContain(
      'Spot price: the instance can be interrupted when the provider needs the capacity back',
    );
    const advice = {
      interruptionBand: '5-10%' as const,
      savingsPct: 61,
      observedAt: new Date('2025-06-28T08:37:00Z'),
      source: 'AWS Spot Instance Advisor',
    };
    expect(consOf({ purchaseOption: 'spot', spotAdvice: advice })).toContain(
      'Spot price: can be interrupted; AWS rates interruptions for this type here at 5-10%',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { matchScore, memoryPoints, scoreParts } from './score.js';

describe('memoryPoints band boundaries (D28)', () => {
  it.each([
    // min 1000: 1.2x = 1200, 1.5x = 1500 exactly.
    [1000, 1000, 100],
    [1200, 1000, 100],
    [1201, 1000, 90],
    [1500, 1000, 90],
    [1501, 1000, 70],
    // min 1152: 1.2x = 1382.4, 1.5x = 1728.
    [1382, 1152, 100],
    [1383, 1152, 90],
    [1728, 1152, 90],
    [1729, 1152, 70],
    [65536, 896, 70],
  ])('%i MB against %i MB required gives %i', (memory, min, points) => {
    expect(memoryPoints(memory, min)).toBe(points);
  });
});

describe('matchScore', () => {
  const criteria = { minMemoryMb: 1000, minVcpu: 2, budgetMaxMicros: 50_000_000 };

  it.each([
    [{ memoryMb: 1000, vcpu: 2, monthlyMicros: 50_000_000 }, 100],
    [{ memoryMb: 1000, vcpu: 1, monthlyMicros: 50_000_000 }, 90],
    [{ memoryMb: 1000, vcpu: 2, monthlyMicros: 50_000_001 }, 80],
    [{ memoryMb: 1300, vcpu: 1, monthlyMicros: 50_000_001 }, 60],
    [{ memoryMb: 4000, vcpu: 1, monthlyMicros: 90_000_000 }, 40],
    [{ memoryMb: 4000, vcpu: 8, monthlyMicros: 0 }, 70],
  ])('%j scores %i', (input, score) => {
    expect(matchScore(input, criteria)).toBe(score);
  });

  it('applies no budget penalty without a budget', () => {
    const parts = scoreParts(
      { memoryMb: 1000, vcpu: 2, monthlyMicros: 10_000_000_000 },
      { minMemoryMb: 1000, minVcpu: 2 },
    );
    expect(parts).toEqual({ memoryPoints: 100, vcpuShort: false, overBudget: false, score: 100 });
  });
});

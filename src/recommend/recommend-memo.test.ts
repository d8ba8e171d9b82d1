import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moneyView } from '../catalog/money-view.js';
import { answerAround, RecommendMemo, recommendKey } from './recommend-memo.js';
import type { RecommendRequest } from './validate-request.js';

const USD = moneyView(undefined, 'USD');
const base: RecommendRequest = {
  stack: ['nginx', 'redis'],
  scale: 'medium',
  limit: 10,
  currency: 'USD',
  rankBy: 'fit',
  purchaseOption: 'on_demand',
};

describe('recommendKey', () => {
  it('ignores the order and duplicates of providers and regions, not the order of the stack', () => {
    const a = recommendKey({ ...base, providers: ['provider_b', 'provider_a'] }, USD);
    const b = recommendKey({ ...base, providers: ['provider_a', 'provider_b', 'provider_a'] }, USD);
    expect(a).toBe(b);
    expect(recommendKey({ ...base, regions: ['nrt', 'icn'] }, USD)).toBe(
      recommendKey({ ...base, regions: ['icn', 'nrt'] }, USD),
    );
    // The breakdown lists the stack in the order given (D27): another order is another answer.
    expect(recommendKey({ ...base, stack: ['redis', 'nginx'] }, USD)).not.toBe(
      recommendKey(base, USD),
    );
  });

  it('tells apart every field an answer depends on', () => {
    const keys = new Set(
      [
        base,
        { ...base, scale: 'large' as const },
        { ...base, limit: 11 },
        { ...base, budgetMaxMicros: 80_000_000 },
        { ...base, budgetMaxMicros: 80_000_001 },
        { ...base, providers: [] },
        { ...base, providers: ['provider_a' as const] },
        { ...base, regions: ['nrt'] },
      ].map((request) => recommendKey(request, USD)),
    );
    expect(keys.size).toBe(8);
  });
});

describe('answerAround', () => {
  it('is the response around its query time, with the exchange-rate note when there is one', () => {
    const data = {
      requirements: { min_memory_mb: 1, min_vcpu: 1, breakdown: {} },
      recommendations: [],
      summary: { candidates: 0, within_budget: 0, cheapest_meeting_requirements: null },
    };
    const usd = answerAround(data, undefined);
    expect(JSON.parse(`${usd.head}17${usd.tail}`)).toEqual({
      success: true,
      data,
      meta: { query_time_ms: 17 },
    });
    const note = {
      base: 'USD' as const,
      currency: 'JPY',
      rate: 150.5,
      as_of: '2026-11-20',
      source: 'ECB',
    };
    const jpy = answerAround(data, note);
    expect(`${jpy.head}3${jpy.tail}`).toBe(
      `{"success":true,"data":${JSON.stringify(data)},"meta":{"query_time_ms":3,"exchange_rate":${JSON.stringify(note)}}}`,
    );
  });
});

describe('RecommendMemo', () => {
  it('stays within its bytes however many distinct requests clients send', () => {
    const memo = new RecommendMemo(64 * 1024);
    const index = {};
    const answer = { head: 'x'.repeat(1000), tail: '}}' };
    for (let i = 0; i < 10_000; i++) {
      memo.offer(index, `key-${i}`, answer);
      memo.offer(index, `key-${i}`, answer);
    }
    expect(memo.bytesHeld).toBeLessThanOrEqual(64 * 1024);
    expect(memo.size).toBeGreaterThan(0);
    expect(memo.get(index, 'key-9999')).toBe(answer);
    expect(memo.get(index, 'key-0')).toBeUndefined();
  });

  it('keeps an answer from the second asking of its key, not the first', () => {
    const memo = new RecommendMemo();
    const index = {};
    const answer = { head: 'x'.repeat(5000), tail: '}}' };
    memo.offer(index, 'once', answer);
    expect(memo.get(index, 'once')).toBeUndefined();
    // The key's characters (one byte each) and the entry's bookkeeping.
    expect(memo.bytesHeld).toBe('once'.length + 144);
    memo.offer(index, 'once', answer);
    expect(memo.get(index, 'once')).toBe(answer);
    // Then the answer's characters and its object and string headers too.
    expect(memo.bytesHeld).toBe(4 + 144 + 5000 + 2 + 160);
  });

  it('answers only for the index it was filled from', () => {
    const memo = new RecommendMemo();
    const first = {};
    const second = {};
    const answer = { head: '{"a":', tail: '}' };
    memo.offer(first, 'k', answer);
    memo.offer(first, 'k', answer);
    expect(memo.get(first, 'k')).toBe(answer);
    expect(memo.get(second, 'k')).toBeUndefined();
    memo.offer(second, 'other', answer);
    expect(memo.get(first, 'k')).toBeUndefined();
    expect(memo.size).toBe(1);
  });
});

describe('RecommendMemo bytes', () => {
  /** Heap growth and the memo's count after filling one in a fresh process (gc() around it). */
  function measure(mode: 'one-byte' | 'two-byte' | 'seen'): { grown: number; counted: number } {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/support/memo-heap-child.ts', mode, '2000'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    return JSON.parse(run.stdout) as { grown: number; counted: number };
  }

  // The count bounds what the memo holds, so it must not be below the heap it takes (the
  // suspicion was 7x below); and it must not be far above, or the bound keeps far fewer answers
  // than it could (it was 2x above for answers in one-byte strings, which most are).
  it.each(['one-byte', 'two-byte', 'seen'] as const)(
    'counts what it holds, %s entries, within a tenth of the measured heap',
    (mode) => {
      const { grown, counted } = measure(mode);
      expect(grown).toBeGreaterThan(0);
      expect(grown / counted).toBeLessThanOrEqual(1.1);
      expect(grown / counted).toBeGreaterThanOrEqual(0.8);
    },
    60_000,
  );
});

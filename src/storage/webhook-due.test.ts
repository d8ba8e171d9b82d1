// planClaims (issue 35): how a claim shares the free slots between targets.
import { describe, expect, it } from 'vitest';
import { planClaims, type TargetState } from './webhook-due.js';

const target = (webhookId: string, state: Partial<TargetState> = {}): TargetState => ({
  webhookId,
  failing: false,
  inFlight: 0,
  due: 5,
  oldestDue: 0,
  ...state,
});
const plan = (states: TargetState[], limit: number, failing = limit) =>
  planClaims(states, limit, { perTarget: 2, failing }).map((p) => [p.webhookId, p.count]);

describe('planClaims', () => {
  it('gives every target one before any gets a second, oldest due first', () => {
    const states = [target('b', { oldestDue: 2 }), target('a', { oldestDue: 1 }), target('c')];
    expect(plan(states, 4)).toEqual([
      ['c', 2],
      ['a', 1],
      ['b', 1],
    ]);
  });

  it('serves targets holding no claim before busy ones, and keeps each within perTarget', () => {
    const states = [
      target('busy', { inFlight: 1 }),
      target('full', { inFlight: 2 }),
      target('idle'),
    ];
    expect(plan(states, 8)).toEqual([
      ['idle', 2],
      ['busy', 1],
    ]);
  });

  it('gives failing targets together at most their share, after the others', () => {
    const states = [
      target('f1', { failing: true }),
      target('f2', { failing: true }),
      target('f3', { failing: true }),
      target('ok', { oldestDue: 9, due: 1 }),
    ];
    expect(plan(states, 8, 2)).toEqual([
      ['ok', 1],
      ['f1', 1],
      ['f2', 1],
    ]);
    expect(plan(states, 8, 0)).toEqual([['ok', 1]]);
  });

  it('takes no more than a target has due nor more than the limit', () => {
    expect(plan([target('a', { due: 1 }), target('b')], 2)).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(plan([target('a'), target('b'), target('c')], 2)).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
});

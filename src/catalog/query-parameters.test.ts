import { describe, expect, it } from 'vitest';
import {
  attempt,
  boolean,
  int,
  listOf,
  oneOf,
  readParameters,
  refused,
  text,
} from './query-parameters.js';

const LETTERS = listOf({
  allowed: ['a', 'b', 'c'] as const,
  items: 'letters',
  hint: 'letters',
  maxChars: 9,
  order: 'allowed',
});

describe('the query-parameter reader', () => {
  const read = (raw: Record<string, unknown>) =>
    attempt(() =>
      readParameters(raw, {
        gone: refused('is gone'),
        n: int(1, 5),
        on: boolean,
        pick: oneOf(['x', 'y'] as const),
        letters: LETTERS,
        word: text((t) => (t.startsWith('w') ? t.toUpperCase() : undefined), 'must start with w'),
      }),
    );

  it('reads every kind into its typed value; absent parameters are undefined', () => {
    expect(read({ n: '3', on: 'false', pick: 'y', letters: 'c,a,c', word: 'wow' })).toEqual({
      ok: true,
      value: { gone: undefined, n: 3, on: false, pick: 'y', letters: ['a', 'c'], word: 'WOW' },
    });
  });

  it('refuses a repeated parameter, whatever its values (D17)', () => {
    expect(read({ n: ['3', '3'] })).toEqual({
      ok: false,
      problem: { parameter: 'n', value: ['3', '3'], reason: 'must be given at most once' },
    });
  });

  it('reads an empty value as a value, never as absent', () => {
    for (const name of ['n', 'on', 'pick', 'letters', 'word']) {
      const result = read({ [name]: '' });
      expect(result.ok, name).toBe(false);
      if (!result.ok) expect(result.problem.value).toBe('');
    }
  });

  it('reports the first problem in the order of the specs; a refused one in any form', () => {
    const result = read({ pick: 'z', n: '9', gone: ['1', '2'] });
    expect(result).toEqual({
      ok: false,
      problem: { parameter: 'gone', value: ['1', '2'], reason: 'is gone' },
    });
    expect(read({ pick: 'z', n: '9' })).toMatchObject({ problem: { parameter: 'n' } });
  });

  it('names the allowed values of enums, booleans and lists', () => {
    expect(read({ on: 'yes' })).toMatchObject({ problem: { allowed: ['true', 'false'] } });
    expect(read({ letters: 'a,,b' })).toMatchObject({
      problem: {
        reason: 'must be letters separated by single commas (letters)',
        allowed: ['a', 'b', 'c'],
      },
    });
    expect(read({ letters: 'a,b,c,a,b,c' })).toMatchObject({
      problem: { reason: 'must be at most 9 characters (letters)' },
    });
  });
});

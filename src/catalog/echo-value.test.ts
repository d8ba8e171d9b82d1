import { describe, expect, it } from 'vitest';
import { echoValue } from './echo-value.js';

describe('echoValue (D17a)', () => {
  it.each([
    ['short text', 'short text'],
    [12.5, 12.5],
    [false, false],
    [null, null],
    [undefined, null],
    [[1, 2], 'array'],
    [{ deep: { deeper: 1 } }, 'object'],
    [Number.NaN, 'NaN'],
  ])('echoes %j as %j', (input, expected) => {
    expect(echoValue(input)).toEqual(expected);
  });

  it('cuts strings to 100 characters without splitting a surrogate pair', () => {
    expect(echoValue('a'.repeat(5000))).toBe('a'.repeat(100));
    const emoji = '😀'.repeat(150); // 300 UTF-16 units
    const echoed = echoValue(emoji) as string;
    expect([...echoed]).toHaveLength(100);
    expect(echoed).toBe('😀'.repeat(100));
  });
});

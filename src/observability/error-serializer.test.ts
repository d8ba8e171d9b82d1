import { describe, expect, it } from 'vitest';
import { serializeError } from './error-serializer.js';

describe('serializeError', () => {
  it('keeps message, code and stack of an error with a code', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    const out = serializeError(error);
    expect(out).toMatchObject({
      type: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:1',
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    expect(out.stack).toContain('connect ECONNREFUSED');
  });

  it('gives an error without a code its class name as code', () => {
    expect(serializeError(new TypeError('x is not a function'))).toMatchObject({
      type: 'TypeError',
      code: 'TypeError',
      message: 'x is not a function',
    });
  });

  it('survives JSON: its fields are own enumerable values (the {"err":{}} regression)', () => {
    const json = JSON.parse(JSON.stringify(serializeError(new Error('apply failed')))) as Record<
      string,
      unknown
    >;
    expect(json['message']).toBe('apply failed');
    expect(json['stack']).toEqual(expect.stringContaining('apply failed'));
  });

  it('follows causes and aggregate errors, and stops at a cycle', () => {
    const root = new RangeError('root');
    const outer = new Error('outer', { cause: root });
    expect(serializeError(outer).cause).toMatchObject({ message: 'root', code: 'RangeError' });
    const aggregate = new AggregateError([new Error('a'), 'b'], 'both failed');
    expect(serializeError(aggregate).errors?.map((e) => e.message)).toEqual(['a', 'b']);
    const cyclic = new Error('cyclic');
    (cyclic as { cause?: unknown }).cause = cyclic;
    expect(JSON.stringify(serializeError(cyclic)).length).toBeLessThan(20_000);
  });

  it('turns a thrown non-Error into a readable error', () => {
    expect(serializeError('plain text')).toMatchObject({
      message: 'plain text',
      code: 'NON_ERROR_THROWN',
    });
    expect(serializeError({ reason: 42 }).message).toBe('{"reason":42}');
    expect(serializeError(null).type).toBe('null');
  });
});

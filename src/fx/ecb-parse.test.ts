import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../sync/upstream/upstream-error.js';
import { parseEcbRatesDocument, parseEcbRatesXml } from './ecb-parse.js';
import { formatScaled } from '../catalog/exact-decimal.js';

const BUNDLED = readFileSync(
  new URL('../../data/snapshots/fx/eurofxref-daily.xml', import.meta.url),
);

function daily(cubes: string, time = '2026-10-06'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube><Cube time='${time}'>${cubes}</Cube></Cube>
</gesmes:Envelope>`;
}

function rejected(text: string): UpstreamError {
  try {
    parseEcbRatesXml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).code).toBe('UPSTREAM_INVALID_DATA');
    return error as UpstreamError;
  }
  throw new Error('the document was accepted');
}

describe('ECB daily reference rates parse', () => {
  it('reads the bundled 2026-10-06 file: its date, EUR = 1 and all 29 quoted currencies', () => {
    const table = parseEcbRatesDocument(BUNDLED);
    expect(table.asOf).toBe('2026-10-06');
    expect(table.perEur.size).toBe(30);
    const text = (code: string) => {
      const rate = table.perEur.get(code);
      return rate === undefined ? undefined : formatScaled(rate.units, rate.scale);
    };
    expect(text('EUR')).toBe('1');
    expect(text('USD')).toBe('1.1269');
    expect(text('JPY')).toBe('178.15');
    expect(text('KRW')).toBe('1508.67');
    expect(text('GBP')).toBe('0.8488');
    expect(text('IDR')).toBe('20104.8');
  });

  it('accepts double-quoted attributes and a byte order mark', () => {
    const xml = daily(`<Cube currency="USD" rate="1.1"/><Cube currency="SGD" rate="1.4"/>`);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]);
    expect([...parseEcbRatesDocument(bytes).perEur.keys()]).toEqual(['EUR', 'USD', 'SGD']);
  });

  it.each([
    ['no USD rate', daily(`<Cube currency='JPY' rate='178.15'/>`)],
    [
      'a duplicate currency',
      daily(`<Cube currency='USD' rate='1.1'/><Cube currency='USD' rate='1.2'/>`),
    ],
    ['a zero rate', daily(`<Cube currency='USD' rate='0'/>`)],
    ['a negative rate', daily(`<Cube currency='USD' rate='-1.1'/>`)],
    ['an exponent', daily(`<Cube currency='USD' rate='1e3'/>`)],
    ['a lower-case code', daily(`<Cube currency='usd' rate='1.1'/>`)],
    ['an impossible date', daily(`<Cube currency='USD' rate='1.1'/>`, '2026-02-30')],
    ['swapped attributes', daily(`<Cube rate='1.1' currency='USD'/>`)],
    ['two dated cubes', daily(`<Cube currency='USD' rate='1.1'/></Cube><Cube time='2026-10-05'>`)],
    ['a JSON body', '{"USD": 1.1}'],
    ['an HTML error page', '<!doctype html><title>Gateway</title>'],
    [
      'an entity declaration',
      `<!DOCTYPE x [<!ENTITY a "aaaa">]>${daily(`<Cube currency='USD' rate='1.1'/>`)}`,
    ],
    ['another vocabulary', daily(`<Cube currency='USD' rate='1.1'/>`).replace('eurofxref', 'x')],
  ])('refuses %s', (_why, text) => {
    rejected(text);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => parseEcbRatesDocument(Uint8Array.from([0x3c, 0xff, 0xfe]))).toThrow(
      /not valid UTF-8/,
    );
  });

  it('names the offending currency without echoing unbounded input', () => {
    const error = rejected(daily(`<Cube currency='USD' rate='${'9'.repeat(5000)}'/>`));
    expect(error.message.length).toBeLessThan(300);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import {
  REGION,
  entry,
  offerFileText,
  referenceScan,
  sampleLayout,
  smallLayout,
  sortBySku,
  typeSpec,
} from './fixtures/offer-file.js';
import {
  OfferFileScanner,
  type OfferFileScanResult,
  type OfferFileScannerOptions,
} from './offer-file-scanner.js';

const encoder = new TextEncoder();

function scan(
  bytes: Uint8Array,
  cuts: readonly number[] = [],
  options: OfferFileScannerOptions = { upstreamRegionCode: REGION },
): OfferFileScanResult {
  const scanner = new OfferFileScanner(options);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    scanner.push(bytes.subarray(from, cut));
    from = cut;
  }
  return scanner.end();
}

function scanError(
  bytes: Uint8Array,
  options: OfferFileScannerOptions = { upstreamRegionCode: REGION },
): UpstreamError {
  try {
    scan(bytes, [], options);
  } catch (err) {
    if (err instanceof UpstreamError) return err;
    throw err;
  }
  throw new Error('expected the scan to fail');
}

const sampleText = offerFileText(sampleLayout());
const sample = encoder.encode(sampleText);

describe('OfferFileScanner on a real-shape offer file', () => {
  it('keeps exactly the plain on-demand Linux products, with their hourly prices', () => {
    const result = scan(sample);
    expect(sortBySku(result.products).map((p) => [p.sku, p.hourlyUsd])).toEqual([
      ['KEEPESCAPED00004', ['0.1070000000']],
      ['KEEPG4DNXL000003', ['0.7100000000']],
      ['KEEPM5LARGE00002', ['0.1240000000']],
      ['KEEPNOPRICE00005', []],
      ['KEEPT3MICRO00001', ['0.0136000000']],
    ]);
    expect(result.productCount).toBe(14);
    expect(result.invalidProducts).toBe(1);
    expect(result.sawProducts).toBe(true);
    expect(result.sawOnDemand).toBe(true);
    expect(result.bytes).toBe(sample.length);
    expect(result.metadata).toEqual({
      formatVersion: 'v1.0',
      offerCode: 'AmazonEC2',
      version: '20261101000000',
      publicationDate: '2026-11-01T00:00:00Z',
    });
  });

  it('decodes multi-byte UTF-8 and escapes in the attributes it keeps', () => {
    const byName = new Map(scan(sample).products.map((p) => [p.sku, p]));
    expect(byName.get('KEEPM5LARGE00002')?.attributes.instanceType).toBe('m5.large');
    expect(byName.get('KEEPG4DNXL000003')?.attributes).toMatchObject({
      instanceType: 'g4dn.xlarge',
      gpu: '1',
      regionCode: REGION,
    });
  });

  it('finds what JSON.parse of the whole file finds', () => {
    const reference = referenceScan(sampleText);
    const result = scan(sample);
    expect(sortBySku(result.products)).toEqual(reference.kept);
    expect(result.productCount).toBe(reference.productCount);
  });

  it('gives the same result whatever byte offset the file is split at', () => {
    const small = encoder.encode(offerFileText({ ...smallLayout(), pretty: false }));
    const summary = (r: OfferFileScanResult) =>
      JSON.stringify([sortBySku(r.products), r.productCount, r.invalidProducts, r.metadata]);
    const whole = summary(scan(small));
    expect(whole).toContain('KEEPG4DNXL000003');
    for (let cut = 0; cut <= small.length; cut++) {
      if (summary(scan(small, [cut])) !== whole)
        expect.fail(`a split at byte ${cut} changed the result`);
    }
    // The pretty layout too, at a stride (it is three times larger).
    const pretty = encoder.encode(offerFileText(smallLayout()));
    for (let cut = 0; cut <= pretty.length; cut += 5) {
      if (summary(scan(pretty, [cut])) !== whole)
        expect.fail(`a split at byte ${cut} changed the result`);
    }
  });

  it('gives the same result fed one byte at a time', () => {
    const cuts = Array.from({ length: sample.length - 1 }, (_, i) => i + 1);
    expect(scan(sample, cuts)).toEqual(scan(sample));
  });

  it('keeps no view of a chunk after push(): the caller may reuse its buffer', () => {
    // As the worker does with its pool buffers: every chunk lands in the same memory, which is
    // overwritten right after each push.
    for (const size of [1, 7, 64, 1000]) {
      const scanner = new OfferFileScanner({ upstreamRegionCode: REGION });
      const reused = new Uint8Array(size);
      for (let at = 0; at < sample.length; at += size) {
        const piece = sample.subarray(at, at + size);
        reused.set(piece);
        scanner.push(reused.subarray(0, piece.length));
        reused.fill(0x5d);
      }
      expect(scanner.end(), `chunks of ${size}`).toEqual(scan(sample));
    }
  });

  it('reads compact JSON as well as the pretty-printed layout', () => {
    const compact = offerFileText({ ...sampleLayout(), pretty: false });
    const result = scan(encoder.encode(compact));
    expect(sortBySku(result.products)).toEqual(sortBySku(scan(sample).products));
    expect(sortBySku(result.products)).toEqual(referenceScan(compact).kept);
  });

  it('joins prices to products when terms come before products', () => {
    const termsFirst = encoder.encode(offerFileText({ ...sampleLayout(), termsFirst: true }));
    expect(sortBySku(scan(termsFirst).products)).toEqual(sortBySku(scan(sample).products));
    for (const cut of [1000, 5000, 9000, termsFirst.length - 3]) {
      expect(sortBySku(scan(termsFirst, [cut]).products)).toEqual(sortBySku(scan(sample).products));
    }
  });

  it('drops Local Zone products, and products of another region code when told the region', () => {
    expect(scan(sample).products.map((p) => p.sku)).not.toContain('DROPLOCALZONE010');
    expect(scan(sample, [], {}).products).toHaveLength(5);
    expect(scan(sample, [], { upstreamRegionCode: 'ap-northeast-2' }).products).toEqual([]);
  });

  it('retains the raw records of kept products when asked', () => {
    const result = scan(sample, [], { upstreamRegionCode: REGION, retainRaw: true });
    const t3 = result.products.find((p) => p.sku === 'KEEPT3MICRO00001');
    expect(t3?.raw?.product).toMatchObject({
      sku: 'KEEPT3MICRO00001',
      productFamily: 'Compute Instance',
    });
    expect(t3?.raw?.onDemand).toHaveProperty(
      ['KEEPT3MICRO00001.JRTCKXETXF', 'offerTermCode'],
      'JRTCKXETXF',
    );
    expect(scan(sample).products[0]?.raw).toBeUndefined();
  });
});

describe('OfferFileScanner on malformed data', () => {
  it('rejects a file cut short at any point', () => {
    const end = sampleText.trimEnd().length;
    for (let cut = 0; cut < end; cut += cut < 400 || cut > end - 400 ? 1 : 7) {
      const error = scanError(sample.subarray(0, cut));
      expect(error.code).toBe('UPSTREAM_INVALID_DATA');
    }
  });

  const broken: readonly (readonly [string, string])[] = [
    ['an empty body', ''],
    ['a root that is an array', '[{"products":{}}]'],
    ['a root that is a string', '"products"'],
    ['a missing colon', '{"products" {}}'],
    ['a missing comma', '{"a":1 "b":2}'],
    ['a trailing comma', '{"a":1,}'],
    ['products that is not an object', '{"products":[],"terms":{"OnDemand":{}}}'],
    ['OnDemand that is not an object', '{"products":{},"terms":{"OnDemand":"x"}}'],
    ['a duplicate products key', '{"products":{},"products":{},"terms":{"OnDemand":{}}}'],
    ['mismatched brackets in a skipped value', '{"terms":{"Reserved":{"a":[1,2}}}}'],
    ['a close bracket too many', '{"terms":{"Reserved":{"a":1}}}}'],
    ['data after the document', '{"products":{}} {}'],
    ['an invalid literal', '{"aFlag":tru}'],
    ['an invalid number', '{"aNumber":01}'],
    ['a bare word', '{"a":NaN}'],
    ['an unterminated string', '{"disclaimer":"abc}'],
    ['a control character in a key', '{"a\u0001b":1}'],
    ['a bad escape in a key', '{"a\\qb":1}'],
    [
      'invalid JSON inside a product that may be kept',
      '{"products":{"S":{"sku":"S","productFamily":"Compute Instance","attributes":{"operation":"RunInstances","usagetype":"BoxUsage:x",}}},"terms":{"OnDemand":{}}}',
    ],
    [
      'invalid JSON inside an on-demand record',
      '{"terms":{"OnDemand":{"S":{"S.JRTCKXETXF":{"priceDimensions":{,}}}}}}',
    ],
  ];
  it.each(broken)('rejects %s as UPSTREAM_INVALID_DATA', (_name, text) => {
    expect(scanError(encoder.encode(text)).code).toBe('UPSTREAM_INVALID_DATA');
  });

  it('rejects invalid UTF-8 in a record it parses', () => {
    const head = encoder.encode(
      '{"products":{"S":{"sku":"S","productFamily":"Compute Instance","attributes":{"operation":"RunInstances","usagetype":"BoxUsage:x","name":"',
    );
    const tail = encoder.encode('"}}},"terms":{"OnDemand":{}}}');
    const bytes = new Uint8Array([...head, 0xff, 0xfe, ...tail]);
    expect(scanError(bytes).code).toBe('UPSTREAM_INVALID_DATA');
  });

  it('rejects a record larger than maxRecordBytes, and accepts it under a larger cap', () => {
    const error = scanError(sample, { upstreamRegionCode: REGION, maxRecordBytes: 1000 });
    expect(error.code).toBe('UPSTREAM_INVALID_DATA');
    expect(error.message).toMatch(/larger than 1000 bytes/);
    expect(
      scan(sample, [], { upstreamRegionCode: REGION, maxRecordBytes: 100_000 }).products,
    ).toHaveLength(5);
  });

  it('rejects nesting deeper than it tracks', () => {
    const deep = `{"terms":{"Reserved":${'['.repeat(300)}${']'.repeat(300)}}}`;
    expect(scanError(encoder.encode(deep)).message).toMatch(/nesting too deep/);
  });
});

describe('OfferFileScanner property', () => {
  // Random strings (any code point, quotes, backslashes, brackets) in the places the scanner
  // skips or keys it reads, random chunking: the result must equal JSON.parse's.
  const awkward = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('"', '\\', '}', ']', '{', '[', '\\"', '\\\\', '\u2028', '🚀', 'é'),
  );
  const noise = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      awkward,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(awkward, tie('value'), { maxKeys: 3 }),
    ),
  })).value;

  it('matches JSON.parse for random awkward content and random chunk boundaries', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(awkward, noise), { maxLength: 3 }),
        noise,
        awkward,
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (rootNoise, reservedNoise, name, pretty, termsFirst, rawCuts) => {
          const spec = typeSpec('m5.large', { physicalProcessor: name });
          const layout = {
            rootBefore: rootNoise
              .filter(
                ([key]) =>
                  ![
                    'products',
                    'terms',
                    'formatVersion',
                    'offerCode',
                    'version',
                    'publicationDate',
                  ].includes(key),
              )
              .map(
                ([key, value]) =>
                  [key, JSON.parse(JSON.stringify(value ?? null)) as never] as const,
              ),
            entries: [
              {
                ...entry('PROPKEEP00000001', spec, 'linux', 124_000),
                reserved: { note: JSON.parse(JSON.stringify(reservedNoise ?? null)) as never },
              },
              entry('PROPDROP00000002', spec, 'windows', 200_000),
            ],
            pretty,
            termsFirst,
          };
          const text = offerFileText(layout);
          const bytes = encoder.encode(text);
          const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          const result = scan(bytes, cuts);
          const reference = referenceScan(text);
          expect(sortBySku(result.products)).toEqual(reference.kept);
          expect(result.productCount).toBe(reference.productCount);
        },
      ),
      { numRuns: 300 },
    );
  });
});

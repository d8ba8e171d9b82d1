// Reserved terms as purchase options (D61): what the offer-file scanner keeps of
// terms.Reserved, how parse.ts turns it into option prices, and that the on-demand results do
// not move whatever the Reserved terms hold.
import { describe, expect, it } from 'vitest';
import {
  REGION,
  entry,
  offerFileText,
  sampleLayout,
  typeSpec,
  type FixtureEntry,
  type OfferFileLayout,
} from './fixtures/offer-file.js';
import { OfferFileScanner, type OfferFileScanResult } from './offer-file-scanner.js';
import { extractReservedHourlyUsd } from './offer-records.js';
import { mapProviderCOffers } from './parse.js';
import type { Json } from './snapshot/aws-offer-json.js';
import { RESERVED_TERMS, reservedRecord } from './snapshot/records.js';

const encoder = new TextEncoder();
const EFFECTIVE = '2025-04-01T00:00:00Z';

function scanText(text: string, cuts: readonly number[] = []): OfferFileScanResult {
  const bytes = encoder.encode(text);
  const scanner = new OfferFileScanner({ upstreamRegionCode: REGION });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    scanner.push(bytes.subarray(from, cut));
    from = cut;
  }
  return scanner.end();
}

interface TermSpec {
  readonly code: string;
  readonly lease?: string;
  readonly offering?: string;
  readonly purchase?: string;
  readonly hourly: string;
  readonly upfront?: string;
  readonly sku?: string;
}

/** One SKU's terms.Reserved value, with the hourly (and upfront) text exactly as given. */
function reservedTerms(sku: string, specs: readonly TermSpec[]): Json {
  const out: Record<string, Json> = {};
  for (const t of specs) {
    const key = `${sku}.${t.code}`;
    const dimensions: Record<string, Json> = {
      [`${key}.6YS6EN2CT7`]: {
        rateCode: `${key}.6YS6EN2CT7`,
        description: 'Linux/UNIX (Amazon VPC), reserved instance applied',
        beginRange: '0',
        endRange: 'Inf',
        unit: 'Hrs',
        pricePerUnit: { USD: t.hourly },
        appliesTo: [],
      },
    };
    if (t.upfront !== undefined) {
      dimensions[`${key}.2TG2D8R56U`] = {
        rateCode: `${key}.2TG2D8R56U`,
        description: 'Upfront Fee',
        unit: 'Quantity',
        pricePerUnit: { USD: t.upfront },
        appliesTo: [],
      };
    }
    out[key] = {
      offerTermCode: t.code,
      sku: t.sku ?? sku,
      effectiveDate: EFFECTIVE,
      priceDimensions: dimensions,
      termAttributes: {
        LeaseContractLength: t.lease ?? '1yr',
        OfferingClass: t.offering ?? 'standard',
        PurchaseOption: t.purchase ?? 'No Upfront',
      },
    };
  }
  return out;
}

/** Tokyo c7i.xlarge as recorded on 2025-04-04 (README-aws.md): on-demand and the four RIs. */
const C7I_TERMS: readonly TermSpec[] = [
  { code: '4NA7Y494T4', hourly: '0.1481800000' },
  { code: 'BPH4J8HBKS', lease: '3yr', hourly: '0.1024000000' },
  { code: '7NE97W5U4E', offering: 'convertible', hourly: '0.1705800000' },
  { code: 'Z2E3P23VKM', lease: '3yr', offering: 'convertible', hourly: '0.1169800000' },
  // Terms we never read, priced so that reading one would show.
  { code: 'HU7G6KETJZ', purchase: 'Partial Upfront', hourly: '0.0700000000', upfront: '613' },
  { code: '6QCMYABX3D', purchase: 'All Upfront', hourly: '0.0000000000', upfront: '1270' },
  { code: '38NPMPTW36', lease: '3yr', purchase: 'Partial Upfront', hourly: '0.05', upfront: '9' },
  { code: 'NQ3QZPMQV9', lease: '3yr', purchase: 'All Upfront', hourly: '0', upfront: '2600' },
  {
    code: 'MZU6U2429S',
    lease: '3yr',
    offering: 'convertible',
    purchase: 'All Upfront',
    hourly: '0',
    upfront: '3100',
  },
  { code: 'XXPREMIUM1', offering: 'premium', hourly: '0.0100000000' },
  { code: 'XXTWOYEARS', lease: '2yr', hourly: '0.0200000000' },
];

const c7i = typeSpec('c7i.xlarge', {
  instanceFamily: 'Compute optimized',
  vcpu: 4,
  memory: '8 GiB',
  networkPerformance: 'Up to 12500 Megabit',
});

function c7iEntry(
  sku: string,
  reserved: Json | undefined,
  variant: 'linux' | 'dedicated' | 'windows' = 'linux',
): FixtureEntry {
  return entry(sku, c7i, variant, 224_700, reserved === undefined ? {} : { reserved });
}

function layoutWith(entries: FixtureEntry[]): OfferFileLayout {
  return { ...sampleLayout(), entries: [...sampleLayout().entries, ...entries] };
}

describe('extractReservedHourlyUsd', () => {
  it('reads the four No Upfront terms by their attributes and ignores every other term', () => {
    expect(extractReservedHourlyUsd('S', reservedTerms('S', C7I_TERMS))).toEqual({
      reserved_1y: '0.1481800000',
      reserved_3y: '0.1024000000',
      convertible_1y: '0.1705800000',
      convertible_3y: '0.1169800000',
    });
  });

  it('reads attributes, not codes: a known code with other attributes is not the option', () => {
    const terms = reservedTerms('S', [
      { code: '4NA7Y494T4', purchase: 'Partial Upfront', hourly: '0.1', upfront: '5' },
      { code: 'UNKNOWNCDE', lease: '3yr', offering: 'convertible', hourly: '0.2' },
    ]);
    expect(extractReservedHourlyUsd('S', terms)).toEqual({ convertible_3y: '0.2' });
  });

  it('accepts a zero upfront fee, refuses a term that asks for one', () => {
    expect(
      extractReservedHourlyUsd(
        'S',
        reservedTerms('S', [{ code: 'A', hourly: '0.1', upfront: '0' }]),
      ),
    ).toEqual({ reserved_1y: '0.1' });
    expect(
      extractReservedHourlyUsd(
        'S',
        reservedTerms('S', [{ code: 'A', hourly: '0.1', upfront: '10' }]),
      ),
    ).toEqual({});
  });

  it('leaves out an option two terms claim, and terms of another SKU', () => {
    const twice = reservedTerms('S', [
      { code: 'A', hourly: '0.1' },
      { code: 'B', hourly: '0.2' },
      { code: 'C', lease: '3yr', hourly: '0.05' },
    ]);
    expect(extractReservedHourlyUsd('S', twice)).toEqual({ reserved_3y: '0.05' });
    const other = reservedTerms('S', [{ code: 'A', hourly: '0.1', sku: 'OTHER' }]);
    expect(extractReservedHourlyUsd('S', other)).toEqual({});
  });

  it.each<[string, unknown]>([
    ['not an object', 'x'],
    ['null', null],
    ['an array', [1, 2]],
    ['a term that is a string', { 'S.A': 'term' }],
    ['no termAttributes', { 'S.A': { priceDimensions: {} } }],
    [
      'a price that is a number',
      {
        'S.A': {
          termAttributes: {
            LeaseContractLength: '1yr',
            OfferingClass: 'standard',
            PurchaseOption: 'No Upfront',
          },
          priceDimensions: { d: { unit: 'Hrs', pricePerUnit: { USD: 0.1 } } },
        },
      },
    ],
    [
      'two hourly dimensions',
      {
        'S.A': {
          termAttributes: {
            LeaseContractLength: '1yr',
            OfferingClass: 'standard',
            PurchaseOption: 'No Upfront',
          },
          priceDimensions: {
            d: { unit: 'Hrs', pricePerUnit: { USD: '0.1' } },
            e: { unit: 'Hrs', pricePerUnit: { USD: '0.2' } },
          },
        },
      },
    ],
    [
      'a dimension of another unit',
      {
        'S.A': {
          termAttributes: {
            LeaseContractLength: '1yr',
            OfferingClass: 'standard',
            PurchaseOption: 'No Upfront',
          },
          priceDimensions: {
            d: { unit: 'Hrs', pricePerUnit: { USD: '0.1' } },
            e: { unit: 'GB-Mo', pricePerUnit: { USD: '0' } },
          },
        },
      },
    ],
    [
      'attributes that name Object.prototype members',
      {
        'S.A': {
          termAttributes: {
            LeaseContractLength: 'constructor',
            OfferingClass: 'toString',
            PurchaseOption: 'No Upfront',
          },
          priceDimensions: { d: { unit: 'Hrs', pricePerUnit: { USD: '0.1' } } },
        },
      },
    ],
  ])('finds nothing usable in %s', (_name, value) => {
    const found = extractReservedHourlyUsd('S', value);
    expect(found.reserved_1y).toBeUndefined();
    expect(Object.keys(found).filter((k) => k !== 'reserved_1y')).toEqual([]);
  });
});

describe('the scanner and the Reserved terms', () => {
  const withC7i = layoutWith([
    c7iEntry('C7IXLARGE0000001', reservedTerms('C7IXLARGE0000001', C7I_TERMS)),
    // The same type under dedicated tenancy and Windows, with cheaper Reserved terms: the
    // product filter leaves them out, and their terms with them.
    c7iEntry(
      'C7IDEDICATED0002',
      reservedTerms('C7IDEDICATED0002', [{ code: 'A', hourly: '0.01' }]),
      'dedicated',
    ),
    c7iEntry(
      'C7IWINDOWS000003',
      reservedTerms('C7IWINDOWS000003', [{ code: 'A', hourly: '0.02' }]),
      'windows',
    ),
  ]);
  const text = offerFileText(withC7i);

  it('keeps the No Upfront prices of kept products only', () => {
    const result = scanText(text);
    const c7iProduct = result.products.find((p) => p.sku === 'C7IXLARGE0000001');
    expect(c7iProduct?.reservedUsd).toEqual({
      reserved_1y: '0.1481800000',
      reserved_3y: '0.1024000000',
      convertible_1y: '0.1705800000',
      convertible_3y: '0.1169800000',
    });
    expect(result.products.map((p) => p.sku)).not.toContain('C7IDEDICATED0002');
    expect(result.products.map((p) => p.sku)).not.toContain('C7IWINDOWS000003');
    expect(result.sawReserved).toBe(true);
    expect(result.invalidReserved).toBe(0);
    // The sample's t3.micro has the synthetic terms of records.ts: only its std 1yr No Upfront.
    expect(result.products.find((p) => p.sku === 'KEEPT3MICRO00001')?.reservedUsd).toEqual({
      reserved_1y: '0.0085680000',
    });
  });

  it('finds the same whatever byte the file is split at, and with terms first', () => {
    const whole = JSON.stringify(scanText(text).products);
    const bytes = encoder.encode(text).length;
    for (let cut = 0; cut <= bytes; cut += 211) {
      if (JSON.stringify(scanText(text, [cut]).products) !== whole) {
        expect.fail(`a split at byte ${cut} changed the result`);
      }
    }
    const termsFirst = offerFileText({ ...withC7i, termsFirst: true });
    const sorted = (r: OfferFileScanResult) =>
      [...r.products].sort((a, b) => (a.sku < b.sku ? -1 : 1));
    expect(sorted(scanText(termsFirst))).toEqual(sorted(scanText(text)));
  });

  it('never changes the on-demand results: the same offers with or without Reserved terms', () => {
    const without = offerFileText({
      ...withC7i,
      entries: withC7i.entries.map((e) => ({ ...e, reserved: undefined })),
    });
    const strip = (r: OfferFileScanResult) =>
      mapProviderCOffers(r.products, 'ap-northeast-1').offers.map(
        ({ optionPrices: _o, ...rest }) => rest,
      );
    const plain = mapProviderCOffers(scanText(without).products, 'ap-northeast-1');
    expect(plain.offers.every((o) => o.optionPrices === undefined)).toBe(true);
    expect(strip(scanText(text))).toEqual(plain.offers);
  });

  it('drops the reserved prices of a SKU whose record is not JSON, and keeps the file', () => {
    const broken = offerFileText(
      layoutWith([c7iEntry('C7IXLARGE0000001', { placeholder: 'BROKEN' })]),
    ).replace('"placeholder" : "BROKEN"', '"a" : [1, 2, ], "b" : { }');
    const result = scanText(broken);
    const c7iProduct = result.products.find((p) => p.sku === 'C7IXLARGE0000001');
    expect(c7iProduct?.hourlyUsd).toEqual(['0.2247000000']);
    expect(c7iProduct?.reservedUsd).toBeUndefined();
    expect(result.invalidReserved).toBe(1);
    expect(result.products).toHaveLength(6);
  });

  it('ignores a Reserved that is not an object, or a second Reserved, and keeps on-demand', () => {
    const notObject = '{"products":{},"terms":{"OnDemand":{},"Reserved":"nothing here"}}';
    expect(scanText(notObject).invalidReserved).toBe(1);
    const base = offerFileText({
      ...layoutWith([c7iEntry('C7IXLARGE0000001', reservedTerms('C7IXLARGE0000001', C7I_TERMS))]),
      rootAfter: [],
    });
    const doubled = base.replace(/\n {2}}\n}\n$/, ',\n    "Reserved" : { }\n  }\n}\n');
    expect(doubled).not.toBe(base);
    const result = scanText(doubled);
    expect(result.invalidReserved).toBe(1);
    expect(result.products.every((p) => p.reservedUsd === undefined)).toBe(true);
    expect(result.products.find((p) => p.sku === 'C7IXLARGE0000001')?.hourlyUsd).toEqual([
      '0.2247000000',
    ]);
  });

  it('still rejects a file whose Reserved terms are cut short or unbalanced (a corrupt file)', () => {
    expect(() => scanText('{"terms":{"Reserved":{"S":{"a":[1}}}}')).toThrow(/mismatched bracket/);
    expect(() => scanText(text.slice(0, text.indexOf('"Reserved"') + 40))).toThrow(/truncated/);
  });
});

describe('reserved prices as purchase options', () => {
  const kept = (reservedUsd: Record<string, string>) => {
    const result = scanText(offerFileText(layoutWith([c7iEntry('C7IXLARGE0000001', undefined)])));
    const product = result.products.find((p) => p.sku === 'C7IXLARGE0000001');
    if (product === undefined) throw new Error('fixture lost c7i.xlarge');
    return { ...product, reservedUsd };
  };

  it('gives hourly micros and monthly = hourly x 730 in whole cents (Tokyo c7i.xlarge)', () => {
    const mapped = mapProviderCOffers(
      [
        kept({
          reserved_1y: '0.14818',
          reserved_3y: '0.1024',
          convertible_1y: '0.17058',
          convertible_3y: '0.11698',
        }),
      ],
      'ap-northeast-1',
    );
    expect(mapped.offers[0]).toMatchObject({
      instanceId: 'c7i.xlarge',
      hourlyMicros: 224_700,
      monthlyMicros: 164_030_000,
      optionPrices: {
        reserved_1y: { hourlyMicros: 148_180, monthlyMicros: 108_170_000 },
        reserved_3y: { hourlyMicros: 102_400, monthlyMicros: 74_750_000 },
        convertible_1y: { hourlyMicros: 170_580, monthlyMicros: 124_520_000 },
        convertible_3y: { hourlyMicros: 116_980, monthlyMicros: 85_400_000 },
      },
    });
    expect(mapped.invalidOptionPrices).toBeUndefined();
  });

  it.each([
    ['negative', '-0.1'],
    ['NaN text', 'NaN'],
    ['an exponent', '1e-1'],
    ['zero', '0.0000000000'],
    ['huge', '99999999999.5'],
    ['over the ceiling', '100000.0000000000'],
    ['empty', ''],
    ['Infinity', 'Infinity'],
  ])('drops a %s option price, keeps the others and the on-demand price', (_name, usd) => {
    const mapped = mapProviderCOffers(
      [kept({ reserved_1y: usd, reserved_3y: '0.1024' })],
      'ap-northeast-1',
    );
    expect(mapped.offers).toHaveLength(1);
    expect(mapped.offers[0]?.hourlyMicros).toBe(224_700);
    expect(mapped.offers[0]?.optionPrices).toEqual({
      reserved_3y: { hourlyMicros: 102_400, monthlyMicros: 74_750_000 },
    });
    expect(mapped.invalidOptionPrices).toBe(1);
    expect(mapped.invalid).toBe(0);
  });

  it('lists an offer without options when none is usable', () => {
    const mapped = mapProviderCOffers([kept({ reserved_1y: 'free' })], 'ap-northeast-1');
    expect(mapped.offers[0]?.optionPrices).toBeUndefined();
  });

  it('gives the synthetic bench terms of records.ts as the right options', () => {
    const terms = reservedRecord('S', 100_000, RESERVED_TERMS, EFFECTIVE);
    expect(extractReservedHourlyUsd('S', terms)).toEqual({
      reserved_1y: '0.0630000000',
      reserved_3y: '0.0450000000',
      convertible_1y: '0.0720000000',
      convertible_3y: '0.0520000000',
    });
  });
});

// The bundled purchase-option data: the spot advice file generated from the recording (read by
// the same parser as the live feed), and the Reserved terms the offer-file generator adds from
// recorded prices (read back by the same scanner as a live offer file).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hourlyFromMicros, monthlyFromMicros } from '../../catalog/money.js';
import { resolveRegionMap } from '../region-map.js';
import { RecordedDataError, parseRecordedCsv, readRecordedCsv } from '../snapshot/recorded-csv.js';
import { OfferFileScanner } from './offer-file-scanner.js';
import { mapProviderCOffers } from './parse.js';
import { PROVIDER_C_REGION_TABLE } from './regions.js';
import { formatAwsJson, type Json } from './snapshot/aws-offer-json.js';
import { onDemandFor, productRecord } from './snapshot/records.js';
import {
  addReservedTerms,
  reservedPricesOfRows,
  RESERVED_COLUMNS,
} from './snapshot/reserved-terms.js';
import {
  SPOT_ADVICE_RECORDING_FILE,
  spotAdvisorRows,
  writeSpotAdvisorSnapshot,
} from './snapshot/spot-advisor.js';
import { parseSpotAdviceFeed } from './spot-advice-feed.js';
import { BUNDLED_SPOT_ADVICE } from './spot-advice-provenance.js';
import { typeSpec } from './fixtures/offer-file.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLED = path.join(ROOT, 'data/snapshots/provider_c');
const REGIONS = resolveRegionMap(PROVIDER_C_REGION_TABLE);
const ADVICE_COLUMNS = ['region', 'instance_type', 'interruption_band', 'savings_pct_vs_ondemand'];

describe('the bundled spot advice', () => {
  it('holds every recorded row, as recorded, read by the live feed parser', async () => {
    const doc: unknown = JSON.parse(
      await readFile(path.join(BUNDLED, BUNDLED_SPOT_ADVICE.file), 'utf8'),
    );
    const outcomes = parseSpotAdviceFeed(doc, REGIONS);
    const rows = spotAdvisorRows(await readRecordedCsv(SPOT_ADVICE_RECORDING_FILE, ADVICE_COLUMNS));
    expect(rows).toHaveLength(2_542);
    const sizes = Object.fromEntries(
      outcomes.map((o) => [o.regionCode, o.ok ? o.byType.size : o.message]),
    );
    expect(sizes).toEqual({
      'ap-east-1': 262,
      'ap-northeast-1': 825,
      'ap-northeast-2': 500,
      'ap-northeast-3': 298,
      'ap-southeast-1': 657,
    });
    for (const row of rows) {
      const outcome = outcomes.find((o) => o.regionCode === row.region);
      const figures = outcome?.ok === true ? outcome.byType.get(row.instanceType) : undefined;
      if (figures?.interruptionBand !== row.band || figures.savingsPct !== row.savingsPct) {
        expect.fail(`line ${row.line}: ${row.region} ${row.instanceType} is not as recorded`);
      }
    }
    expect(outcomes.every((o) => o.ok && o.skipped === 0)).toBe(true);
  });

  it('is what the generator writes, byte for byte, every time', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-spot-advice-'));
    try {
      const written = await writeSpotAdvisorSnapshot(dir);
      for (const name of written) {
        const fresh = await readFile(path.join(dir, name), 'utf8');
        expect(fresh, name).toBe(await readFile(path.join(BUNDLED, name), 'utf8'));
      }
      const metadata = JSON.parse(
        await readFile(path.join(dir, 'spot-advisor-metadata.json'), 'utf8'),
      ) as { data_source: unknown; licence: { name: string } };
      expect(metadata.data_source).toEqual({
        observed_at: '2025-06-28T08:37:00Z',
        source: BUNDLED_SPOT_ADVICE.source,
      });
      expect(metadata.licence.name).toBe('Apache-2.0');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['an unknown band', 'ap-east-1,c5.large,rare,50', /interruption_band/],
    ['savings over 100', 'ap-east-1,c5.large,<5%,101', /over 100/],
    ['negative savings', 'ap-east-1,c5.large,<5%,-1', /savings_pct/],
    ['a region of no snapshot', 'us-east-1,c5.large,<5%,50', /region/],
    ['a bad type', 'ap-east-1,C5 large,<5%,50', /not a type/],
  ])('stops on %s, naming the line', (_name, line, message) => {
    const rows = parseRecordedCsv(
      `${ADVICE_COLUMNS.join(',')}\n${line}\n`,
      'advice.csv',
      ADVICE_COLUMNS,
    );
    expect(() => spotAdvisorRows(rows)).toThrow(RecordedDataError);
    expect(() => spotAdvisorRows(rows)).toThrow(message);
  });

  it('stops on a second row for one region and type', () => {
    const text = `${ADVICE_COLUMNS.join(',')}\nap-east-1,c5.large,<5%,50\nap-east-1,c5.large,>20%,40\n`;
    const rows = parseRecordedCsv(text, 'advice.csv', ADVICE_COLUMNS);
    expect(() => spotAdvisorRows(rows)).toThrow(/again \(line 2\)/);
  });
});

// Rows of aws-ap-linux-2025-04-04.csv as recorded: all four prices, none for convertible
// (i3.metal), and no standard 1-year price (p5.48xlarge), plus one row without any.
const RECORDING = `region,instance_type,generation,vcpu,memory_gib,storage,network_performance,ondemand_usd_hour,ri_std_1y_no_upfront_usd_hour,ri_std_3y_no_upfront_usd_hour,ri_conv_1y_no_upfront_usd_hour,ri_conv_3y_no_upfront_usd_hour,ondemand_rate_code
ap-northeast-1,c7i.xlarge,current,4,8,EBS only,Up to 12500 Megabit,0.2247,0.14818,0.1024,0.17058,0.11698,RS9XKR7F5UAVJD9H.JRTCKXETXF.6YS6EN2CT7
ap-northeast-1,i3.metal,current,72,512,8 x 1900 NVMe SSD,25 Gigabit,5.856,3.965,2.834,,,47UYAYQZ76QHKKFW.JRTCKXETXF.6YS6EN2CT7
ap-northeast-1,p5.48xlarge,current,192,2048,8 x 3840 GB SSD,3200 Gigabit,123.19496,,54.07574,97.01603,67.59367,Q3VTGZX4R836SBCB.JRTCKXETXF.6YS6EN2CT7
ap-northeast-1,m1.small,previous,1,1.7,1 x 160 SSD,Low,0.061,,,,,AAAAAAAAAAAAAAAA.JRTCKXETXF.6YS6EN2CT7
`;

const SPECS = {
  'c7i.xlarge': typeSpec('c7i.xlarge', {
    instanceFamily: 'Compute optimized',
    vcpu: 4,
    networkPerformance: 'Up to 12500 Megabit',
  }),
  'i3.metal': typeSpec('i3.metal', {
    instanceFamily: 'Storage optimized',
    vcpu: 72,
    memory: '512 GiB',
    storage: '8 x 1900 NVMe SSD',
    networkPerformance: '25 Gigabit',
  }),
  'p5.48xlarge': typeSpec('p5.48xlarge', {
    instanceFamily: 'GPU instance',
    vcpu: 192,
    memory: '2,048 GiB',
    storage: '8 x 3840 GB SSD',
    networkPerformance: '3200 Gigabit',
    gpu: 8,
    gpuMemory: '640 GB',
  }),
};
const ON_DEMAND = { 'c7i.xlarge': 224_700, 'i3.metal': 5_856_000, 'p5.48xlarge': 123_194_960 };

/** A Tokyo offer file as a generator would build it: products and on-demand terms only. */
function tokyoDocument(): Json {
  const products: Record<string, Json> = {};
  const onDemand: Record<string, Json> = {};
  for (const [type, spec] of Object.entries(SPECS)) {
    const sku = `SKU${type.replace(/[^a-z0-9]/g, '').toUpperCase()}`.padEnd(16, 'X');
    products[sku] = productRecord(sku, spec, 'ap-northeast-1', 'linux');
    onDemand[sku] = onDemandFor(
      sku,
      ON_DEMAND[type as keyof typeof ON_DEMAND],
      'linux',
      type,
      '2025-04-04T22:41:22Z',
    );
  }
  // A Windows neighbour of c7i.xlarge: never the product a reserved price goes to.
  products['WINDOWSC7IXLARGE'] = productRecord(
    'WINDOWSC7IXLARGE',
    SPECS['c7i.xlarge'],
    'ap-northeast-1',
    'windows',
  );
  return {
    formatVersion: 'v1.0',
    offerCode: 'AmazonEC2',
    products,
    terms: { OnDemand: onDemand },
    attributesList: {},
  };
}

function scanOffers(doc: Json) {
  const scanner = new OfferFileScanner({ upstreamRegionCode: 'ap-northeast-1' });
  scanner.push(new TextEncoder().encode(`${formatAwsJson(doc)}\n`));
  return mapProviderCOffers(scanner.end().products, 'ap-northeast-1').offers;
}

describe('addReservedTerms (the offer-file generator step)', () => {
  const recorded = reservedPricesOfRows(
    parseRecordedCsv(RECORDING, 'aws.csv', [
      'region',
      'instance_type',
      ...Object.values(RESERVED_COLUMNS),
    ]),
  );

  it('reads the recording: empty cells are options not offered, rows without any are left out', () => {
    expect(Object.fromEntries(recorded.get('ap-northeast-1') ?? [])).toEqual({
      'c7i.xlarge': {
        reserved_1y: '0.14818',
        reserved_3y: '0.1024',
        convertible_1y: '0.17058',
        convertible_3y: '0.11698',
      },
      'i3.metal': { reserved_1y: '3.965', reserved_3y: '2.834' },
      'p5.48xlarge': {
        reserved_3y: '54.07574',
        convertible_1y: '97.01603',
        convertible_3y: '67.59367',
      },
    });
  });

  it('writes terms the scanner reads back as the recorded prices (Tokyo c7i.xlarge)', () => {
    const doc = addReservedTerms(
      tokyoDocument(),
      'ap-northeast-1',
      recorded.get('ap-northeast-1') ?? new Map(),
      '2025-04-04T22:41:22Z',
    );
    const offers = scanOffers(doc);
    const c7i = offers.find((o) => o.instanceId === 'c7i.xlarge');
    const shown = Object.fromEntries(
      Object.entries(c7i?.optionPrices ?? {}).map(([name, p]) => [
        name,
        [hourlyFromMicros(p.hourlyMicros), monthlyFromMicros(p.monthlyMicros)],
      ]),
    );
    expect(shown).toEqual({
      reserved_1y: [0.1482, 108.17],
      reserved_3y: [0.1024, 74.75],
      convertible_1y: [0.1706, 124.52],
      convertible_3y: [0.117, 85.4],
    });
    expect(
      Object.keys(offers.find((o) => o.instanceId === 'i3.metal')?.optionPrices ?? {}),
    ).toEqual(['reserved_1y', 'reserved_3y']);
    expect(
      offers.find((o) => o.instanceId === 'p5.48xlarge')?.optionPrices?.reserved_1y,
    ).toBeUndefined();
    // On-demand as before, and the terms follow OnDemand in the document.
    expect(offers.map((o) => [o.instanceId, o.hourlyMicros])).toEqual(
      scanOffers(tokyoDocument()).map((o) => [o.instanceId, o.hourlyMicros]),
    );
    expect(Object.keys((doc as { terms: Record<string, unknown> }).terms)).toEqual([
      'OnDemand',
      'Reserved',
    ]);
    expect(JSON.stringify(doc)).not.toContain('WINDOWSC7IXLARGE.4NA7Y494T4');
  });

  it('is deterministic', () => {
    const run = () =>
      formatAwsJson(
        addReservedTerms(
          tokyoDocument(),
          'ap-northeast-1',
          recorded.get('ap-northeast-1') ?? new Map(),
          '2025-04-04T22:41:22Z',
        ),
      );
    expect(run()).toBe(run());
  });

  it('stops on a recorded price with no listed product, or one that is not a positive decimal', () => {
    const stray = new Map([['m7i.xlarge', { reserved_1y: '0.1' }]]);
    expect(() => addReservedTerms(tokyoDocument(), 'ap-northeast-1', stray, 'x')).toThrow(
      /no listed product/,
    );
    for (const usd of ['0', '-0.1', 'NaN', '1e-3', '0.12345678901']) {
      const bad = new Map([['c7i.xlarge', { reserved_1y: usd }]]);
      expect(() => addReservedTerms(tokyoDocument(), 'ap-northeast-1', bad, 'x'), usd).toThrow(
        RecordedDataError,
      );
    }
    expect(() => addReservedTerms('not a file', 'ap-northeast-1', new Map(), 'x')).toThrow(
      /not an offer file/,
    );
  });
});

// Pins truth (issue 8, D37): every price the bundled snapshots carry is a figure the provider
// published, as recorded in data/sources/, and no bundled record lacks one. The snapshots are
// read the way the app reads them by default (file:// through the real adapters, worker threads
// for provider_c), and the recorded files are read here with a plain CSV split, independently
// of the generators that wrote the snapshots.
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decimalToMicros,
  hourlyFromMicros,
  monthlyFromMicros,
  monthlyMicrosFromHourly,
} from '../../src/catalog/money.js';
import type { ProviderCatalog } from '../../src/catalog/offers.js';
import { createProviderCAdapter } from '../../src/providers/provider-c/adapter.js';
import { createProviderDAdapter } from '../../src/providers/provider-d/adapter.js';
import { createUpstreamClient } from '../../src/sync/upstream/http-upstream-client.js';
import type { UpstreamClient } from '../../src/sync/upstream/upstream-client.js';

const ROOT = new URL('../../', import.meta.url);
const SOURCES = new URL('data/sources/', ROOT);
const SNAPSHOTS = new URL('data/snapshots/', ROOT);

/** Rows of a recorded CSV without quoted cells, as objects keyed by the header. */
async function plainCsv(name: string): Promise<Record<string, string>[]> {
  const text = await readFile(new URL(name, SOURCES), 'utf8');
  const [header = '', ...lines] = text.trimEnd().split('\n');
  const columns = header.split(',');
  return lines.map((line) => {
    expect(line, `${name}: no quoted cells expected`).not.toContain('"');
    const cells = line.split(',');
    expect(cells, `${name}: ${line}`).toHaveLength(columns.length);
    return Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
  });
}

function micros(text: string | undefined, what: string): number {
  const value = text === undefined ? null : decimalToMicros(text);
  if (value === null) throw new Error(`${what}: "${String(text)}" is not a price`);
  return value;
}

async function syncSnapshot(
  provider: string,
  adapter: (client: UpstreamClient) => { fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> },
): Promise<ProviderCatalog> {
  const client = createUpstreamClient({
    baseUrl: pathToFileURL(fileURLToPath(new URL(`${provider}/`, SNAPSHOTS))).href,
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 30_000,
    maxRetries: 0,
    maxResponseBytes: 64 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
  try {
    return await adapter(client).fetchCatalog(AbortSignal.timeout(30_000));
  } finally {
    await client.close();
  }
}

/** An offer file's parts these checks read, as AWS writes them. */
interface OfferTerm {
  readonly priceDimensions: Record<string, { unit: string; pricePerUnit: { USD: string } }>;
  readonly termAttributes: Record<string, string>;
}
interface OfferFile {
  readonly products: Record<string, { attributes: { instanceType: string } }>;
  readonly terms: Record<'OnDemand' | 'Reserved', Record<string, Record<string, OfferTerm>>>;
}

const REGIONS = ['ap-east-1', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3', 'ap-southeast-1'];

async function offerFile(region: string): Promise<OfferFile> {
  const file = new URL(
    `provider_c/offers/v1.0/aws/AmazonEC2/current/${region}/index.json`,
    SNAPSHOTS,
  );
  return JSON.parse(await readFile(file, 'utf8')) as OfferFile;
}

/** The recording's No Upfront columns, with AWS's public term codes (upstream-formats.md). */
const RESERVED = [
  { option: 'reserved_1y', column: 'ri_std_1y_no_upfront_usd_hour', code: '4NA7Y494T4', lease: '1yr', offering: 'standard' },
  { option: 'reserved_3y', column: 'ri_std_3y_no_upfront_usd_hour', code: 'BPH4J8HBKS', lease: '3yr', offering: 'standard' },
  { option: 'convertible_1y', column: 'ri_conv_1y_no_upfront_usd_hour', code: '7NE97W5U4E', lease: '1yr', offering: 'convertible' },
  { option: 'convertible_3y', column: 'ri_conv_3y_no_upfront_usd_hour', code: 'Z2E3P23VKM', lease: '3yr', offering: 'convertible' },
] as const;

describe('provider_c (AWS) bundled prices are the recorded ones', () => {
  const recordFile = 'aws-ap-linux-2025-04-04.csv';
  let recorded: Map<string, Record<string, string>>;
  let catalog: ProviderCatalog;

  beforeAll(async () => {
    const rows = await plainCsv(recordFile);
    recorded = new Map(rows.map((r) => [`${r['region']} ${r['instance_type']}`, r]));
    expect(recorded.size).toBe(rows.length);
    catalog = await syncSnapshot('provider_c', (client) => createProviderCAdapter({ client }));
  });

  it('lists only recorded types, each at its recorded hourly price (monthly = x 730 in cents, D36)', () => {
    expect(catalog.offers.length).toBeGreaterThan(0);
    for (const offer of catalog.offers) {
      const key = `${offer.regionCode} ${offer.instanceId}`;
      const row = recorded.get(key);
      expect(row, `${key} has no recorded figure`).toBeDefined();
      const hourly = micros(row?.['ondemand_usd_hour'], key);
      expect(offer.hourlyMicros, key).toBe(hourly);
      expect(offer.monthlyMicros, key).toBe(monthlyMicrosFromHourly(hourly));
      expect(offer.vcpu, key).toBe(Number(row?.['vcpu']));
      // GiB as recorded, in whole MB (attribute-units.ts).
      expect(offer.memoryMb, key).toBe(Math.round(Number(row?.['memory_gib']) * 1024));
      expect(offer.storageGb === 0, key).toBe(row?.['storage'] === 'EBS only');
      // No network figure recorded (previous generation): 0, noted "not_recorded".
      expect(offer.networkSpeedGbps === 0, key).toBe(row?.['network_performance'] === '');
    }
  });

  it('carries the figures of the issue exactly (Tokyo c7i.xlarge 0.2247, c8g.2xlarge 0.4002)', () => {
    const tokyo = (id: string) =>
      catalog.offers.find((o) => o.regionCode === 'ap-northeast-1' && o.instanceId === id);
    expect(tokyo('c7i.xlarge')?.hourlyMicros).toBe(224_700);
    expect(tokyo('c8g.2xlarge')?.hourlyMicros).toBe(400_240);
    expect(tokyo('t3.micro')?.hourlyMicros).toBe(13_600);
  });

  it('leaves out only the accelerator types it cannot classify (D35) and g2 (no GPU count)', () => {
    const listed = new Set(catalog.offers.map((o) => `${o.regionCode} ${o.instanceId}`));
    const unlisted = [...recorded.keys()].filter((key) => !listed.has(key));
    expect(unlisted.every((key) => /^\S+ (inf|trn|vt\d|g2\.)/.test(key)), unlisted.join(', ')).toBe(
      true,
    );
    expect(unlisted).toHaveLength(33);
  });

  it('holds no price in its offer files but the recorded ones, one product per recorded row', async () => {
    let products = 0;
    for (const region of REGIONS) {
      const doc = await offerFile(region);
      expect(Object.keys(doc.terms)).toEqual(['OnDemand', 'Reserved']);
      for (const [sku, product] of Object.entries(doc.products)) {
        products += 1;
        const key = `${region} ${product.attributes.instanceType}`;
        const row = recorded.get(key);
        expect(row, `${key} has no recorded figure`).toBeDefined();
        // AWS's own SKU, from the recorded rate code.
        expect(row?.['ondemand_rate_code'], key).toBe(`${sku}.JRTCKXETXF.6YS6EN2CT7`);
        const terms = Object.values(doc.terms.OnDemand[sku] ?? {});
        expect(terms, key).toHaveLength(1);
        const dimensions = Object.values(terms[0]?.priceDimensions ?? {});
        expect(dimensions, key).toHaveLength(1);
        expect(micros(dimensions[0]?.pricePerUnit.USD, key), key).toBe(
          micros(row?.['ondemand_usd_hour'], key),
        );
      }
    }
    // Every recorded row but the six of g2.2xlarge and g2.8xlarge.
    expect(products).toBe(recorded.size - 6);
  });

  it('holds in its offer files every recorded No Upfront Reserved price and no other', async () => {
    const written = new Map<string, number>(RESERVED.map((r) => [r.column, 0]));
    for (const region of REGIONS) {
      const doc = await offerFile(region);
      for (const [sku, product] of Object.entries(doc.products)) {
        const key = `${region} ${product.attributes.instanceType}`;
        const row = recorded.get(key);
        const terms = Object.entries(doc.terms.Reserved[sku] ?? {});
        const recordedColumns = RESERVED.filter((r) => row?.[r.column] !== '');
        // One term per recorded price, none for an empty cell (not offered in the source).
        expect(terms.map(([code]) => code).sort(), key).toEqual(
          recordedColumns.map((r) => `${sku}.${r.code}`).sort(),
        );
        for (const [code, term] of terms) {
          const r = RESERVED.find((t) => `${sku}.${t.code}` === code);
          expect(term.termAttributes, `${key} ${code}`).toEqual({
            LeaseContractLength: r?.lease,
            OfferingClass: r?.offering,
            PurchaseOption: 'No Upfront',
          });
          const dimensions = Object.values(term.priceDimensions);
          expect(dimensions, `${key} ${code}`).toHaveLength(1);
          expect(dimensions[0]?.unit, `${key} ${code}`).toBe('Hrs');
          // The recorded text, padded to AWS's ten decimals and otherwise unchanged.
          const usd = row?.[r?.column ?? ''] ?? '';
          const [whole, fraction = ''] = usd.split('.');
          expect(dimensions[0]?.pricePerUnit.USD, `${key} ${code}`).toBe(
            `${whole}.${fraction.padEnd(10, '0')}`,
          );
          written.set(r?.column ?? '', (written.get(r?.column ?? '') ?? 0) + 1);
        }
      }
      // No Reserved entry without its product.
      for (const sku of Object.keys(doc.terms.Reserved)) {
        expect(doc.products[sku], `${region} Reserved ${sku}`).toBeDefined();
      }
    }
    // Every recorded reserved price is written: the two types left out (g2) have none.
    for (const r of RESERVED) {
      const inRecording = [...recorded.values()].filter((row) => row[r.column] !== '').length;
      expect(written.get(r.column), r.column).toBe(inRecording);
    }
    expect(Object.fromEntries(written)).toEqual({
      ri_std_1y_no_upfront_usd_hour: 2_356,
      ri_std_3y_no_upfront_usd_hour: 2_357,
      ri_conv_1y_no_upfront_usd_hour: 2_352,
      ri_conv_3y_no_upfront_usd_hour: 2_352,
    });
  });

  it('lists each recorded Reserved price as its purchase option (monthly = hourly x 730 in cents)', () => {
    let listed = 0;
    for (const offer of catalog.offers) {
      const key = `${offer.regionCode} ${offer.instanceId}`;
      const row = recorded.get(key);
      const want: Record<string, { hourlyMicros: number; monthlyMicros: number }> = {};
      for (const r of RESERVED) {
        const usd = row?.[r.column] ?? '';
        if (usd === '') continue;
        const hourly = micros(usd, `${key} ${r.column}`);
        want[r.option] = { hourlyMicros: hourly, monthlyMicros: monthlyMicrosFromHourly(hourly) };
        listed += 1;
      }
      expect(offer.optionPrices ?? {}, key).toEqual(want);
    }
    // 9,417 recorded, less the accelerator types' 108: written, but not listed (D35).
    expect(listed).toBe(9_309);
    expect(catalog.offers.filter((o) => o.optionPrices !== undefined)).toHaveLength(2_330);
  });

  it('carries the Reserved figures of the issue exactly (Tokyo c7i.xlarge)', () => {
    const c7i = catalog.offers.find(
      (o) => o.regionCode === 'ap-northeast-1' && o.instanceId === 'c7i.xlarge',
    );
    const shown = Object.fromEntries(
      Object.entries(c7i?.optionPrices ?? {}).map(([option, p]) => [
        option,
        [hourlyFromMicros(p.hourlyMicros), monthlyFromMicros(p.monthlyMicros)],
      ]),
    );
    expect(shown).toEqual({
      reserved_1y: [0.1482, 108.17],
      reserved_3y: [0.1024, 74.75],
      convertible_1y: [0.1706, 124.52],
      convertible_3y: [0.117, 85.4],
    });
    // Recorded 0.14818 USD/h: 108.1714 a month, shown 108.17.
    expect(c7i?.optionPrices?.reserved_1y).toEqual({
      hourlyMicros: 148_180,
      monthlyMicros: 108_170_000,
    });
  });

  it('holds in recordings.json exactly the recorded states: 2024-02-21, then the change log', async () => {
    const file = JSON.parse(
      await readFile(new URL('provider_c/recordings.json', SNAPSHOTS), 'utf8'),
    ) as { recordings: { observed_at: string; listed: string[][]; delisted: string[][] }[] };
    // The state each recording describes, rebuilt from its change log.
    const states: [string, Map<string, number>][] = [];
    let state = new Map<string, number>();
    for (const r of file.recordings) {
      state = new Map(state);
      for (const [region, type] of r.delisted) state.delete(`${region} ${type}`);
      for (const [region, type, usd] of r.listed) state.set(`${region} ${type}`, micros(usd, type!));
      states.push([r.observed_at, state]);
    }
    const first = await plainCsv('aws-ap-ondemand-linux-2024-02-21.csv');
    expect(states[0]?.[0]).toBe('2024-02-21T08:20:21Z');
    expect(states[0]?.[1]).toEqual(
      new Map(
        first.map((r) => [`${r['region']} ${r['instance_type']}`, micros(r['price_usd_per_hour'], 'x')]),
      ),
    );
    const log = await plainCsv('aws-ap-ondemand-history-2024-07-05_2025-04-04.csv');
    const times = [...new Set(log.map((e) => e['observed']!))].filter((t) => t < '2025-04-04T22:41:22Z');
    expect(states.slice(1).map(([t]) => t)).toEqual(times);
    const replayed = new Map<string, number>();
    for (const [time, recordedState] of states.slice(1)) {
      for (const e of log.filter((event) => event['observed'] === time)) {
        const key = `${e['region']} ${e['instance_type']}`;
        if (e['event'] === 'delisted') replayed.delete(key);
        else replayed.set(key, micros(e['ondemand_usd_hour'], key));
      }
      expect(recordedState, time).toEqual(replayed);
    }
  });
});

/** The recording's option columns (README-gcp.md): Spot VMs, committed use 1y/3y (D61). */
const GCE_OPTIONS = [
  ['spot', 'spot_usd_hour'],
  ['reserved_1y', 'cud_1y_usd_hour'],
  ['reserved_3y', 'cud_3y_usd_hour'],
] as const;

describe('provider_d (Google Cloud) bundled prices are the recorded ones', () => {
  const recordFile = 'gcp-asia-compute-2026-07-30.csv';
  let recorded: Map<string, Record<string, string>>;
  let apiVcpus: Map<string, string>;
  let catalog: ProviderCatalog;

  beforeAll(async () => {
    const rows = await plainCsv(recordFile);
    recorded = new Map(rows.map((r) => [`${r['region']} ${r['machine_type']}`, r]));
    expect(recorded.size).toBe(rows.length);
    // Quoted cells (CPU platform lists) in this file: only its first two columns are read.
    const types = (await readFile(new URL('gcp-machine-types-2026-03-22.csv', SOURCES), 'utf8'))
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
    apiVcpus = new Map(
      types.map((cells) => {
        const fromEnd = cells.length - 19; // a quoted platform list adds cells before the rest
        return [cells[0] ?? '', cells[6 + fromEnd] ?? ''];
      }),
    );
    catalog = await syncSnapshot('provider_d', (client) => createProviderDAdapter({ client }));
  });

  it('lists each offered recorded row once, at its hourly price; monthly = exact hourly x 730 in cents', () => {
    const listed = new Set<string>();
    for (const offer of catalog.offers) {
      const key = `${offer.regionCode} ${offer.instanceId}`;
      const row = recorded.get(key);
      expect(row, `${key} has no recorded figure`).toBeDefined();
      expect(row?.['in_gce_api_region'], `${key} is not offered there`).toBe('true');
      expect(listed.has(key), key).toBe(false);
      listed.add(key);
      const hourlyText = row?.['ondemand_usd_hour'] ?? '';
      expect(offer.hourlyMicros, key).toBe(micros(hourlyText, key));
      // Independently of the adapter: the recorded text x 730 as a scaled integer, cents half-up.
      const [whole = '0', fraction = ''] = hourlyText.split('.');
      const scaled = BigInt(whole + fraction) * 730n * 100n;
      const scale = 10n ** BigInt(fraction.length);
      const cents = (scaled + scale / 2n) / scale;
      expect(offer.monthlyMicros, key).toBe(Number(cents) * 10_000);
      expect(String(offer.vcpu), key).toBe(apiVcpus.get(offer.instanceId));
      expect(offer.memoryMb, key).toBe(Math.round(Number(row?.['memory_gib']) * 1024));
      expect(String(offer.gpuCount), key).toBe(row?.['gpu_count']);
    }
    const offered = [...recorded.entries()].filter(([, r]) => r['in_gce_api_region'] === 'true');
    expect(listed.size).toBe(offered.length);
    expect(listed.size).toBe(1513);
  });

  it('carries the figures of the recording README exactly', () => {
    const at = (region: string, id: string) =>
      catalog.offers.find((o) => o.regionCode === region && o.instanceId === id);
    expect(at('asia-northeast1', 'e2-standard-2')?.hourlyMicros).toBe(85_966);
    expect(at('asia-east2', 'n2-standard-2')?.hourlyMicros).toBe(135_886);
    expect(at('asia-northeast1', 'e2-medium')).toMatchObject({ vcpu: 2, monthlyMicros: 31_380_000 });
  });

  it('lists each recorded spot and committed-use price as its option (monthly = hourly x 730 in cents)', () => {
    const counts: Record<string, number> = {};
    for (const offer of catalog.offers) {
      const key = `${offer.regionCode} ${offer.instanceId}`;
      const row = recorded.get(key);
      const want: Record<string, { hourlyMicros: number; monthlyMicros: number }> = {};
      for (const [option, column] of GCE_OPTIONS) {
        const usd = row?.[column] ?? '';
        if (usd === '') continue;
        const hourly = micros(usd, `${key} ${column}`);
        want[option] = { hourlyMicros: hourly, monthlyMicros: monthlyMicrosFromHourly(hourly) };
        counts[option] = (counts[option] ?? 0) + 1;
      }
      expect(offer.optionPrices ?? {}, key).toEqual(want);
    }
    expect(counts).toEqual({ spot: 1497, reserved_1y: 1476, reserved_3y: 1476 });
  });

  it('carries the option figures of the issue exactly (Tokyo e2-standard-2)', () => {
    const e2 = catalog.offers.find(
      (o) => o.regionCode === 'asia-northeast1' && o.instanceId === 'e2-standard-2',
    );
    const shown = Object.fromEntries(
      Object.entries(e2?.optionPrices ?? {}).map(([option, p]) => [
        option,
        [hourlyFromMicros(p.hourlyMicros), monthlyFromMicros(p.monthlyMicros)],
      ]),
    );
    expect(shown).toEqual({
      spot: [0.0516, 37.66],
      reserved_1y: [0.0542, 39.54],
      reserved_3y: [0.0387, 28.24],
    });
  });

  it('holds in recordings.json exactly the recorded weekly states of the listed records, per option', async () => {
    const file = JSON.parse(
      await readFile(new URL('provider_d/recordings.json', SNAPSHOTS), 'utf8'),
    ) as {
      recordings: {
        observed_at: string;
        listed: string[][];
        delisted: string[][];
        options?: Record<string, { listed: string[][]; delisted: string[][] }>;
      }[];
    };
    const listed = new Set(
      [...recorded.entries()].filter(([, r]) => r['in_gce_api_region'] === 'true').map(([k]) => k),
    );
    expect(catalog.offers.map((o) => `${o.regionCode} ${o.instanceId}`).sort()).toEqual(
      [...listed].sort(),
    );
    // The state each recording describes, rebuilt from its change logs: `region type option`.
    const state = new Map<string, string>();
    const states: [string, Map<string, string>][] = [];
    for (const r of file.recordings) {
      const logs: [string, { listed: string[][]; delisted: string[][] }][] = [
        ['on_demand', { listed: r.listed, delisted: r.delisted }],
        ...Object.entries(r.options ?? {}),
      ];
      for (const [option, log] of logs) {
        for (const [region, type] of log.delisted) state.delete(`${region} ${type} ${option}`);
        for (const [region, type, usd] of log.listed) state.set(`${region} ${type} ${option}`, usd!);
      }
      states.push([r.observed_at, new Map(state)]);
    }
    // The recorded log, replayed version by version, kept to the listed records.
    const log = await plainCsv('gcp-asia-history-2025-07-31_2026-07-30.csv');
    const names: Record<string, string> = {
      ondemand: 'on_demand',
      spot: 'spot',
      cud_1y: 'reserved_1y',
      cud_3y: 'reserved_3y',
    };
    const byTime = new Map<string, Record<string, string>[]>();
    for (const e of log) {
      const group = byTime.get(e['observed']!) ?? [];
      group.push(e);
      byTime.set(e['observed']!, group);
    }
    const times = [...byTime.keys()];
    expect(states.map(([t]) => t)).toEqual(times.map((t) => t.replace(' ', 'T')));
    const replayed = new Map<string, string>();
    for (const [index, time] of times.entries()) {
      for (const e of byTime.get(time) ?? []) {
        const record = `${e['region']} ${e['machine_type']}`;
        if (!listed.has(record)) continue;
        const key = `${record} ${names[e['option']!]}`;
        if (e['event'] === 'delisted') replayed.delete(key);
        else replayed.set(key, e['usd_hour']!);
      }
      const [, got] = states[index]!;
      // Same figures (recorded text, trailing zeros aside) for the same records and options.
      expect(
        new Map([...got].map(([k, v]) => [k, micros(v, k)])),
        time,
      ).toEqual(new Map([...replayed].map(([k, v]) => [k, micros(v, k)])));
    }
    // Replayed to its end, the log is the current recording's figures of the listed records.
    const current = new Map<string, number>();
    for (const key of listed) {
      const row = recorded.get(key)!;
      current.set(`${key} on_demand`, micros(row['ondemand_usd_hour'], key));
      for (const [option, column] of GCE_OPTIONS) {
        if (row[column] !== '') current.set(`${key} ${option}`, micros(row[column], key));
      }
    }
    expect(new Map([...replayed].map(([k, v]) => [k, micros(v, k)]))).toEqual(current);
  });
});

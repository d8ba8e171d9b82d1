// The README's Data table states what a sync of the bundled snapshots lists (issue 24: it said
// "100 plans" for 43 Vultr prices and "2,311" AWS prices for the 2,284 a sync lists). This syncs
// data/snapshots/ through the real adapters and checks every number the table states.
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderName } from '../../src/catalog/model.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

const ROOT = new URL('../../', import.meta.url);
const SNAPSHOTS = new URL('data/snapshots/', ROOT);

/** "2,284" -> 2284 */
const number = (text: string) => Number(text.replaceAll(',', ''));

describe('README Data table', () => {
  let t: TestApp;
  let readme: string;
  const listed = new Map<ProviderName, { prices: number; types: number }>();

  beforeAll(async () => {
    readme = await readFile(new URL('README.md', ROOT), 'utf8');
    const url = (p: string) => pathToFileURL(fileURLToPath(new URL(`${p}/`, SNAPSHOTS))).href;
    t = await createTestApp({
      PROVIDER_A_URL: url('provider_a'),
      PROVIDER_B_URL: url('provider_b'),
      PROVIDER_C_URL: url('provider_c'),
      PROVIDER_D_URL: url('provider_d'),
      PROVIDERS: 'all',
    });
    const sync = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a', 'provider_b', 'provider_c', 'provider_d'] },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    await t.services.catalog.refresh();
    const types = new Map<ProviderName, Set<string>>();
    for (const row of t.services.catalog.current!.records) {
      const entry = listed.get(row.providerName) ?? { prices: 0, types: 0 };
      entry.prices += 1;
      listed.set(row.providerName, entry);
      const set = types.get(row.providerName) ?? new Set();
      set.add(row.instanceId);
      types.set(row.providerName, set);
    }
    for (const [provider, set] of types) listed.get(provider)!.types = set.size;
  }, 120_000);
  afterAll(() => t?.close());

  const row = (provider: ProviderName) =>
    readme.split('\n').find((line) => line.startsWith(`| ${provider} `)) ?? '';

  it('states the AWS prices and types a sync lists, and what the snapshot holds', async () => {
    const match = /([\d,]+) on-demand Linux prices \(([\d,]+) instance types\)/.exec(
      row('provider_c'),
    );
    expect(match, row('provider_c')).not.toBeNull();
    expect(number(match![1]!)).toBe(listed.get('provider_c')!.prices);
    expect(number(match![2]!)).toBe(listed.get('provider_c')!.types);
    const metadata = JSON.parse(
      await readFile(new URL('provider_c/metadata.json', SNAPSHOTS), 'utf8'),
    ) as { records: number };
    const holds = /holds ([\d,]+); the adapter leaves out its ([\d,]+) /.exec(row('provider_c'));
    expect(number(holds![1]!)).toBe(metadata.records);
    expect(number(holds![2]!)).toBe(metadata.records - listed.get('provider_c')!.prices);
  });

  it('states the Vultr prices and plans a sync lists, and the plans recorded', async () => {
    const match = /([\d,]+) prices of ([\d,]+) plans/.exec(row('provider_b'));
    expect(match, row('provider_b')).not.toBeNull();
    expect(number(match![1]!)).toBe(listed.get('provider_b')!.prices);
    expect(number(match![2]!)).toBe(listed.get('provider_b')!.types);
    const plans = JSON.parse(
      await readFile(new URL('provider_b/plans.json', SNAPSHOTS), 'utf8'),
    ) as { plans: unknown[] };
    const recorded = /plan list holds ([\d,]+) plans/.exec(row('provider_b'));
    expect(number(recorded![1]!)).toBe(plans.plans.length);
  });

  it('states the Linode prices and types a sync lists', () => {
    const match = /([\d,]+) prices of ([\d,]+) types/.exec(row('provider_a'));
    expect(match, row('provider_a')).not.toBeNull();
    expect(number(match![1]!)).toBe(listed.get('provider_a')!.prices);
    expect(number(match![2]!)).toBe(listed.get('provider_a')!.types);
  });

  it('states the Google Cloud prices and machine types a sync lists (PROVIDERS=all)', () => {
    const match = /([\d,]+) on-demand prices of ([\d,]+) machine types/.exec(row('provider_d'));
    expect(match, row('provider_d')).not.toBeNull();
    expect(number(match![1]!)).toBe(listed.get('provider_d')!.prices);
    expect(number(match![2]!)).toBe(listed.get('provider_d')!.types);
  });

  it('states the total of listed records, by default and with PROVIDERS=all', () => {
    const of = (names: string[]) => names.reduce((n, p) => n + listed.get(p)!.prices, 0);
    const match = /That is ([\d,]+) listed records by default \(([\d,]+) with `PROVIDERS=all`[;)]/.exec(
      readme,
    );
    expect(match).not.toBeNull();
    expect(number(match![1]!)).toBe(of(['provider_a', 'provider_b', 'provider_c']));
    expect(number(match![2]!)).toBe(of([...listed.keys()]));
  });

  it('names the display-name settings', () => {
    for (const letter of ['A', 'B', 'C', 'D']) expect(readme).toContain(`PROVIDER_${letter}_DISPLAY_NAME`);
  });
});

// The bundled snapshot (data/snapshots/provider_b) read the way the app reads it by default:
// through the real upstream client with a file:// base URL.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../catalog/offers.js';
import { createUpstreamClient } from '../../sync/upstream/http-upstream-client.js';
import { createProviderBAdapter } from './adapter.js';

const SNAPSHOT = new URL('../../../data/snapshots/provider_b/', import.meta.url);

async function readSnapshot(): Promise<ProviderCatalog> {
  const client = createUpstreamClient({
    baseUrl: SNAPSHOT.href,
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRetries: 0,
    maxResponseBytes: 5 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
  try {
    return await createProviderBAdapter({ client }).fetchCatalog(new AbortController().signal);
  } finally {
    await client.close();
  }
}

describe('provider_b bundled snapshot', () => {
  it('lists each plan only where a recording places it, or the Osaka rule infers it', async () => {
    const catalog = await readSnapshot();
    expect(catalog.skippedRecords).toBe(0);
    expect(catalog.regionCodes).toEqual(['icn', 'nrt', 'itm']);
    const ids = (region: string) =>
      catalog.offers.filter((o) => o.regionCode === region).map((o) => o.instanceId);
    // 2021 recording: 8 vc2 and 9 vhf plans in Seoul, the vc2 plans and 5 vhf plans in Tokyo.
    expect(ids('icn')).toHaveLength(17);
    expect(ids('nrt')).toHaveLength(13);
    expect(ids('nrt')).not.toContain('vhf-4c-16gb');
    // Osaka: inferred for the plans recorded in both Tokyo and Seoul.
    expect(ids('itm')).toEqual(ids('nrt').filter((id) => ids('icn').includes(id)));
    // Plans the 2021 recording lacks have no known Asian location: not listed.
    expect(catalog.offers.some((o) => o.instanceId.startsWith('vhp-'))).toBe(false);
  });

  it('holds the recorded December 2025 list prices', async () => {
    const catalog = await readSnapshot();
    const price = (id: string) => {
      const found = catalog.offers.find((o) => o.instanceId === id && o.regionCode === 'nrt');
      return found && [found.hourlyMicros, found.monthlyMicros];
    };
    expect(price('vc2-1c-1gb')).toEqual([7_000, 5_000_000]);
    expect(price('vc2-6c-16gb')).toEqual([110_000, 80_000_000]);
    expect(price('vc2-24c-96gb')).toEqual([877_000, 640_000_000]);
    expect(price('vhf-1c-1gb')).toEqual([8_000, 6_000_000]);
    expect(price('vhf-3c-8gb')).toEqual([66_000, 48_000_000]);
  });

  it('names its recordings and licence, and which records are inferred and by what rule', () => {
    const metadata = JSON.parse(readFileSync(new URL('metadata.json', SNAPSHOT), 'utf8')) as {
      availability: { inferred: { itm: string[] }; osaka_rule: string };
    };
    expect(metadata).toMatchObject({
      provider: 'provider_b',
      data_source: {
        observed_at: '2025-12-18T00:00:00Z',
        source: expect.stringMatching(/Osaka \(itm\) availability inferred/) as unknown,
      },
      observed_at: '2025-12-18T00:00:00Z',
      statement: expect.stringContaining('live sync') as unknown,
    });
    expect(metadata.availability.inferred.itm).toHaveLength(13);
    expect(metadata.availability.osaka_rule).toMatch(/both Tokyo \(nrt\) and Seoul \(icn\)/);
  });
});

// GET /regions names every provider as records do (D55 display names, configuration included)
// and the block storage it sells apart: the web UI names providers from this answer alone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROVIDER_NAMES } from '../../src/catalog/model.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PROVIDER_B_DISPLAY_NAME: 'Vultr Cloud Compute' });
});
afterAll(async () => {
  await t.close();
});

it('lists every provider with its configured display name and block storage', async () => {
  const response = await t.app.inject({ url: '/regions', headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  const { providers } = response.json<{
    data: { providers: { name: string; display_name: string; block_storage: string | null }[] };
  }>().data;
  expect(providers.map((p) => p.name)).toEqual(PROVIDER_NAMES);
  expect(providers).toEqual([
    { name: 'provider_a', display_name: 'Linode', block_storage: null },
    { name: 'provider_b', display_name: 'Vultr Cloud Compute', block_storage: null },
    { name: 'provider_c', display_name: 'AWS', block_storage: 'EBS' },
  ]);
});

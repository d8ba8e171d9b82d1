// Extension for the web UI (issue 12): each recommendation names its record (`id`, `instance_id`,
// `region_code`), so a client can open that record; the id is the one /instances lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Recommendation {
  id: number;
  instance_id: string;
  region_code: string;
  provider: string;
  instance: string;
  price: { monthly: number };
}
interface Listed {
  id: number;
  instance_id: string;
  instance_name: string;
  region: { region_code: string };
  pricing: { monthly_price: number };
}

describe('POST /recommend names the record of each recommendation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(300, 7));
  });
  afterAll(() => t.close());

  it('with the id, instance type and region code /instances lists for it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: { stack: ['nginx', 'mysql'], scale: 'medium' },
    });
    expect(response.statusCode).toBe(200);
    const recommendations = response.json<{ data: { recommendations: Recommendation[] } }>().data
      .recommendations;
    expect(recommendations.length).toBeGreaterThan(0);
    for (const r of recommendations) {
      const listed: Listed[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await t.app.inject({
          method: 'GET',
          url: `/instances?provider=${r.provider}&region=${r.region_code}&limit=100&offset=${offset}`,
          headers: auth,
        });
        const body = page.json<{
          data: { instances: Listed[]; pagination: { has_more: boolean } };
        }>();
        listed.push(...body.data.instances);
        if (!body.data.pagination.has_more) break;
      }
      const record = listed.find((l) => l.id === r.id);
      expect(record, `record ${r.id}`).toBeDefined();
      expect(record!.instance_id).toBe(r.instance_id);
      expect(record!.instance_name).toBe(r.instance);
      expect(record!.region.region_code).toBe(r.region_code);
      expect(record!.pricing.monthly_price).toBe(r.price.monthly);
    }
  });
});

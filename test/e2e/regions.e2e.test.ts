// Regions side by side (GET /instance-types, D46) in a real browser against a real server: the
// regions, "available in all" and the page are in the URL (D50), the cells equal the API's
// answer, the cheapest region of each row is marked, Back restores, and axe passes at every width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../web/src/features.js';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface TypesAnswer {
  data: {
    instance_types: {
      provider: string;
      instance_id: string;
      prices: Record<string, { id: number; monthly_price: number }>;
      cheapest_region: string;
    }[];
    pagination: { total: number };
  };
}

const skip = chromiumMissing();

// Runs once the page is built with the view on (web/src/features.ts), i.e. when the server has
// /instance-types.
describe.skipIf(skip !== undefined || !FEATURES.instanceTypes)(
  'regions side by side',
  { timeout: 120_000 },
  () => {
    const session = keyedSession('10.80.0.');
    const keyedPage = session.keyedPage;
    async function types(query: string, id: string): Promise<TypesAnswer> {
      const response = await session.server().api(`/instance-types?${query}`, id);
      expect(response.status).toBe(200);
      return (await response.json()) as TypesAnswer;
    }
    const search = (page: Page) => new URL(page.url()).searchParams;
    const status = (page: Page) => page.locator('main p.status').first();
    const rowTypes = async (page: Page) =>
      (await page.locator('table.data tbody th[scope=row]').allTextContents()).map((t) =>
        t.replace(/^.*\((.*)\)$/, '$1'),
      );

    it('one price column per selected region, the cheapest marked, all in the URL; Back restores', async () => {
      const { page, problems, id } = await keyedPage('/ui/?view=regions&provider=provider_c');
      const first = await types('provider=provider_c&limit=50&offset=0', id);
      await expect
        .poll(() => rowTypes(page))
        .toEqual(first.data.instance_types.map((t) => t.instance_id));
      expect(await status(page).textContent()).toBe(
        `Showing 1–50 of ${first.data.pagination.total} instance types`,
      );
      expect(await page.locator('table.data').getAttribute('aria-rowcount')).toBe(
        String(first.data.pagination.total + 1),
      );
      expect(
        await checkAtEveryWidth(page, 'regions', () =>
          page.locator('table.data tbody tr').first().waitFor(),
        ),
      ).toEqual([]);

      // Keep Tokyo and Seoul of provider_c only, then only types offered in both.
      for (const code of ['ap-northeast-3', 'ap-southeast-1', 'ap-east-1']) {
        await page.getByRole('checkbox', { name: new RegExp(`\\(${code}\\)`) }).uncheck();
      }
      await expect
        .poll(() => search(page).get('regions'))
        .toBe('ap-northeast,ap-south,ap-southeast,icn,nrt,itm,ap-northeast-1,ap-northeast-2');
      await page.getByRole('checkbox', { name: /^Only types available in all/ }).check();
      await expect.poll(() => search(page).get('available_in')).toBe('all');
      const both = await types(
        'provider=provider_c&regions=ap-northeast,ap-south,ap-southeast,icn,nrt,itm,ap-northeast-1,ap-northeast-2&available_in=all&limit=50&offset=0',
        id,
      );
      await expect
        .poll(() => rowTypes(page))
        .toEqual(both.data.instance_types.map((t) => t.instance_id));
      // Cells: the Tokyo and Seoul columns of provider_c equal the API's prices; the cheapest is bold.
      const firstType = both.data.instance_types[0]!;
      const firstRow = page.locator('table.data tbody tr').first();
      const strong = await firstRow.locator('td.cheapest-cell strong').textContent();
      expect(strong).toBe(
        `$${firstType.prices[firstType.cheapest_region]!.monthly_price.toFixed(2)}`,
      );
      for (const code of ['ap-northeast-1', 'ap-northeast-2']) {
        expect(await firstRow.textContent()).toContain(
          `$${firstType.prices[code]!.monthly_price.toFixed(2)}`,
        );
      }

      await page.goBack();
      await expect.poll(() => search(page).get('available_in')).toBeNull();
      await page.goBack();
      await page.goBack();
      await page.goBack();
      await expect.poll(() => search(page).get('regions')).toBeNull();
      await expect
        .poll(() => rowTypes(page))
        .toEqual(first.data.instance_types.map((t) => t.instance_id));
      expect(problems).toEqual([]);
    });
  },
);

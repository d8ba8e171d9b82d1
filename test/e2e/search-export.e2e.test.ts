// Instances with the API features that arrived later: name search (`q`, D54), several regions at
// once (by city: `city=a,b`, D56) and "download CSV" through the API's own CSV (D47).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface InstancesAnswer {
  data: { instances: { instance_id: string }[]; pagination: { total: number } };
}

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)(
  'instances: search, several regions, CSV download',
  { timeout: 120_000 },
  () => {
    const session = keyedSession('10.81.0.');
    const keyedPage = session.keyedPage;
    const search = (page: Page) => new URL(page.url()).searchParams;
    async function loaded(page: Page): Promise<void> {
      await page.locator('table.data[aria-busy="false"]').waitFor();
      await expect
        .poll(() => page.locator('main p.status').first().textContent())
        .toMatch(/^(Showing|No instances)/);
    }
    const rowNames = (page: Page) =>
      page.locator('table.data tbody th[scope=row]').allTextContents();

    it('name search and several regions go into the URL, rows equal the API answer, Back restores', async () => {
      const { page, problems, id } = await keyedPage('/ui/');
      await loaded(page);
      const unfiltered = await rowNames(page);
      await page.getByRole('searchbox', { name: 'Name contains' }).fill('micro');
      await expect.poll(() => search(page).get('q')).toBe('micro');
      await page.locator('.region-menu summary').click();
      await page.getByRole('checkbox', { name: /^Seoul, KR Vultr, AWS/ }).check();
      await page.getByRole('checkbox', { name: /^Tokyo, JP Linode, Vultr, AWS/ }).check();
      await page.keyboard.press('Escape');
      await expect.poll(() => search(page).get('city')).toBe('tokyo,seoul');
      expect(page.url()).toContain('city=tokyo,seoul');
      await loaded(page);
      const response = await session
        .server()
        .api('/instances?q=micro&city=tokyo,seoul&limit=50&offset=0', id);
      const api = (await response.json()) as InstancesAnswer;
      expect(api.data.instances.length).toBeGreaterThan(0);
      await expect
        .poll(() => rowNames(page))
        .toEqual(
          api.data.instances.map(
            (r) => expect.stringContaining(r.instance_id) as unknown as string,
          ),
        );
      expect(
        await page.getByRole('button', { name: 'Remove filter City: Tokyo, Seoul' }).count(),
      ).toBe(1);
      expect(await checkAtEveryWidth(page, 'instances-search', () => loaded(page))).toEqual([]);

      await page.goBack();
      await expect.poll(() => search(page).get('city')).toBe('seoul');
      await page.goBack();
      await page.goBack();
      await expect.poll(() => search(page).get('q')).toBeNull();
      await expect.poll(() => rowNames(page)).toEqual(unfiltered);
      expect(problems).toEqual([]);
    });

    it('download CSV saves every matching row in the words and figures of the screen (issue 36)', async () => {
      const { page, id } = await keyedPage('/ui/?provider=provider_a&sort=vcpu&order=desc');
      await loaded(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /^Download CSV/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^instances-\d{4}-\d{2}-\d{2}\.csv$/);
      const saved = readFileSync(await download.path(), 'utf8').split('\r\n');
      const api = await session
        .server()
        .api('/instances?provider=provider_a&sort_by=vcpu&order=desc&limit=10000&format=csv', id);
      const apiLines = (await api.text()).split('\r\n');
      // Every matching row, in the same order, with the screen's column names.
      expect(saved.length).toBe(apiLines.length);
      expect(saved[0]).toMatch(/^Instance,Provider,Region,vCPU,Memory \(GiB\),/);
      expect(saved[0]).toContain('Observed');
      expect(saved[1]).toContain(',Linode,');
      expect(saved[1]).toMatch(/\d{4}-\d{2}-\d{2} · Linode/);
    });
  },
);

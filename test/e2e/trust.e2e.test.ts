// Issue 24 in a real browser against a real server on the bundled snapshots: vendor names from
// the API (D55), the stale-price notice naming each provider and its observation date (D57),
// and honest cells ("EBS only", "not published", "not recorded", "—") that Compare never turns into percentages.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { checkAtEveryWidth, chromiumMissing, SCREENSHOT_DIR } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface Health {
  components: {
    providers: { name: string; data_source: { observed_at: string; stale: boolean } | null }[];
  };
}
interface Instances {
  data: {
    instances: {
      id: number;
      storage_gb: number;
      field_notes: Record<string, string>;
      provider: { name: string; display_name: string };
    }[];
  };
}

const VENDOR: Record<string, string> = {
  provider_a: 'Linode',
  provider_b: 'Vultr',
  provider_c: 'AWS',
};

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)(
  'trust: names, data age, honest cells',
  { timeout: 180_000 },
  () => {
    const session = keyedSession('10.24.0.');
    const { keyedPage } = session;

    it('names every stale provider and its observation date above the views', async () => {
      const { page, problems, id } = await keyedPage('/ui/');
      const health = (await (await session.server().api('/health', id)).json()) as Health;
      const stale = health.components.providers.filter((p) => p.data_source?.stale === true);
      // The bundled figures are from 2024 and 2025: all three are stale by the 90-day default.
      expect(stale.map((p) => p.name)).toEqual(['provider_a', 'provider_b', 'provider_c']);
      const notice = page.locator('aside.stale-notice');
      await notice.waitFor();
      for (const view of [
        '/ui/',
        '/ui/?view=regions',
        '/ui/?view=compare',
        '/ui/?view=recommend',
      ]) {
        await page.goto(`${session.server().url}${view}`);
        await notice.waitFor();
        const text = (await notice.textContent()) ?? '';
        for (const p of stale) {
          expect(text, view).toContain(
            `${VENDOR[p.name]} prices were observed on ${p.data_source!.observed_at.slice(0, 10)}`,
          );
        }
      }
      await page.goto(`${session.server().url}/ui/`);
      expect(
        await checkAtEveryWidth(page, 'trust-stale-notice', () =>
          page.locator('table.data tbody tr').first().waitFor(),
        ),
      ).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('picks places by city from GET /regions: one Tokyo, and the menu closes on focus out', async () => {
      const { page, problems, id } = await keyedPage('/ui/');
      await page.locator('table.data tbody tr').first().waitFor();
      await page.locator('.region-menu summary').click();
      const boxes = page.locator('.region-menu input[type=checkbox]');
      await expect.poll(() => boxes.count()).toBe(5);
      const labels = await page.locator('.region-menu label').allTextContents();
      expect(labels.filter((l) => l.startsWith('Tokyo'))).toEqual(['Tokyo, JP Linode, Vultr, AWS']);
      expect(labels.map((l) => l.split(',')[0])).toEqual([
        'Tokyo',
        'Seoul',
        'Osaka',
        'Singapore',
        'Hong Kong',
      ]);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'trust-city-picker-1440.png') });
      // With a provider chosen, only its cities.
      await page.keyboard.press('Escape');
      await page.getByLabel('Provider', { exact: true }).selectOption('provider_a');
      await page.locator('.region-menu summary').click();
      await expect
        .poll(() => page.locator('.region-menu label').allTextContents())
        .toEqual([
          'Tokyo, JP Linode, Vultr, AWS',
          'Osaka, JP Linode, Vultr, AWS',
          'Singapore, SG Linode, AWS',
        ]);
      await page.getByRole('checkbox', { name: /^Osaka/ }).check();
      await expect.poll(() => new URL(page.url()).searchParams.get('city')).toBe('osaka');
      const api = (await (
        await session.server().api('/instances?provider=provider_a&city=osaka&limit=50', id)
      ).json()) as Instances;
      await expect
        .poll(() => page.locator('table.data tbody tr').count())
        .toBe(api.data.instances.length);
      // Tab out of the open menu: it closes rather than covering the next field.
      await page.getByRole('checkbox', { name: /^Singapore/ }).focus();
      await page.keyboard.press('Tab');
      await expect.poll(() => page.locator('.region-menu[open]').count()).toBe(0);
      expect(problems).toEqual([]);
    });

    it('recommends in the cities chosen in Instances (city carried to Recommend, sent as cities)', async () => {
      const { page, problems, id } = await keyedPage('/ui/?city=osaka');
      await page.locator('table.data tbody tr').first().waitFor();
      await page.getByRole('link', { name: 'Recommend', exact: true }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('city')).toBe('osaka');
      expect(await page.getByRole('checkbox', { name: 'Osaka', exact: true }).isChecked()).toBe(
        true,
      );
      await page.getByRole('checkbox', { name: 'Seoul', exact: true }).check();
      await page.getByRole('button', { name: 'nginx' }).click();
      await page.getByRole('button', { name: 'Recommend', exact: true }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('city')).toBe('seoul,osaka');
      const response = await session.server().api('/recommend', id, {
        method: 'POST',
        body: JSON.stringify({ stack: ['nginx'], scale: 'small', cities: ['seoul', 'osaka'] }),
      });
      const api = (await response.json()) as {
        data: { recommendations: { instance: string; region: string }[] };
      };
      expect(api.data.recommendations.length).toBeGreaterThan(0);
      for (const r of api.data.recommendations) expect(['Seoul', 'Osaka']).toContain(r.region);
      const titles = page.locator('ol.cards h3');
      await expect
        .poll(() => titles.allTextContents())
        .toEqual(api.data.recommendations.map((r) => r.instance));
      expect(problems).toEqual([]);
    });

    it('labels providers with the names the API gives them', async () => {
      const { page, problems } = await keyedPage('/ui/');
      await page.locator('table.data tbody tr').first().waitFor();
      const options = await page
        .getByLabel('Provider', { exact: true })
        .locator('option')
        .allTextContents();
      expect(options).toEqual(['Any', 'Linode', 'Vultr', 'AWS']);
      expect(problems).toEqual([]);
    });

    it('shows EBS only, — and not published instead of zeros, with the reason', async () => {
      const { page, problems } = await keyedPage(
        '/ui/?provider=provider_c&cols=provider,storage,transfer,network&limit=25',
      );
      const rows = page.locator('table.data tbody tr');
      await rows.first().waitFor();
      const ebs = page.locator('table.data td .noted', { hasText: 'EBS only' }).first();
      await ebs.waitFor();
      expect(await ebs.getAttribute('title')).toBe(
        'No local disk: network block storage is billed separately.',
      );
      const transfer = page.locator('table.data td .noted', { hasText: '—' }).first();
      expect(await transfer.getAttribute('title')).toContain('billed per GB');
      // No storage cell of AWS reads as a bare 0.
      const cells = await page.locator('table.data tbody tr td:nth-of-type(3)').allTextContents();
      expect(cells.length).toBeGreaterThan(0);
      for (const cell of cells) expect(cell.trim()).not.toBe('0');

      await page.goto(`${session.server().url}/ui/?provider=provider_b&cols=provider,network`);
      await rows.first().waitFor();
      const network = await page.locator('table.data tbody tr td:nth-of-type(3)').allTextContents();
      expect(network.length).toBeGreaterThan(0);
      for (const cell of network) expect(cell).toMatch(/^not published/);
      expect(
        await checkAtEveryWidth(page, 'trust-honest-cells', () => rows.first().waitFor()),
      ).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('compares against an unknown without a percentage', async () => {
      const client = session.newClient();
      const get = async (query: string) =>
        ((await (await session.server().api(`/instances?${query}`, client)).json()) as Instances)
          .data.instances;
      const aws = (await get('provider=provider_c&limit=100')).find((r) => r.storage_gb === 0)!;
      const linode = (await get('provider=provider_a&limit=1'))[0]!;
      const { page, problems } = await keyedPage(
        `/ui/?view=compare&ids=${linode.id},${aws.id}&base=${linode.id}`,
      );
      const storage = page.locator('table.compare tbody tr', { hasText: 'Storage (GB)' });
      await storage.waitFor();
      expect(await storage.locator('td').nth(1).textContent()).toContain('EBS only');
      expect(await storage.locator('.delta').count()).toBe(0);
      const network = page.locator('table.compare tbody tr', { hasText: 'Network (Gbps)' });
      // Linode's recording has no network figure: not recorded (Vultr's plans do not publish one).
      expect(await network.locator('td').nth(0).textContent()).toContain('not recorded');
      expect(await network.locator('.delta').count()).toBe(0);
      // A real figure on both sides still compares.
      const monthly = page.locator('table.compare tbody tr', { hasText: 'Monthly price' });
      expect(await monthly.locator('.delta').count()).toBe(1);
      expect(await checkAtEveryWidth(page, 'trust-compare', () => storage.waitFor())).toEqual([]);
      expect(problems).toEqual([]);
    });
  },
);

describe.skipIf(skip !== undefined)(
  'trust: a provider that never synced',
  { timeout: 180_000 },
  () => {
    // provider_c's upstream is missing: its first sync fails and /health has no data_source.
    const session = keyedSession('10.24.1.', {
      PROVIDER_C_URL: 'file:///nonexistent-cloudprice-upstream/',
    });

    it('Status shows the others with their age and marks none for it (data_source null)', async () => {
      const { page, problems, id } = await session.keyedPage('/ui/?view=status');
      const health = (await (await session.server().api('/health', id)).json()) as Health;
      expect(health.components.providers.find((p) => p.name === 'provider_c')!.data_source).toBe(
        null,
      );
      const rows = page.locator('table.data tbody tr');
      await expect.poll(() => rows.count()).toBe(3);
      const aws = (await rows.nth(2).locator('td').nth(1).textContent()) ?? '';
      expect(aws.trim()).toBe('—');
      const linode = (await rows.nth(0).locator('td').nth(1).textContent()) ?? '';
      expect(linode).toMatch(/^2024-07-11 00:00 UTC[\d,]+ days ago stale$/);
      // The notice names the stale providers, and not the one without figures.
      const notice = (await page.locator('aside.stale-notice').textContent()) ?? '';
      expect(notice).toContain('Linode prices were observed on 2024-07-11');
      expect(notice).not.toContain('AWS');
      expect(await checkAtEveryWidth(page, 'trust-status', () => rows.first().waitFor())).toEqual(
        [],
      );
      expect(problems).toEqual([]);
    });
  },
);

// Currency and price units in Instances, and the views built on records: Compare, the instance
// page and Changes, in a real browser against a real server. Each view's state is in the URL
// (D50), Back restores it, the figures equal the API's answer, and axe passes at every width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface Row {
  id: number;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  memory_mb: number;
  provider: { name: string; display_name: string };
  region: { region_code: string; region_name: string };
  pricing: {
    hourly_price: number;
    monthly_price: number;
    currency: string;
    monthly_price_per_vcpu: number;
  };
}
interface InstancesAnswer {
  data: {
    instances: Row[];
    pagination: { total: number };
    metadata: { exchange_rate?: { rate: number; as_of: string } };
  };
}
interface ChangesAnswer {
  data: {
    changes: { id: number; kind: string; instance: { id: number; instance_id: string } }[];
    next_cursor: string | null;
  };
}

const nameText = (r: Row) =>
  r.instance_name === r.instance_id ? r.instance_id : `${r.instance_name} (${r.instance_id})`;

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)(
  'records: currency, compare, instance page, changes',
  { timeout: 120_000 },
  () => {
    const session = keyedSession('10.79.0.');
    const keyedPage = session.keyedPage;
    async function json<T>(path: string, id: string): Promise<T> {
      const response = await session.server().api(path, id);
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    }
    const search = (page: Page) => new URL(page.url()).searchParams;
    async function tableLoaded(page: Page): Promise<void> {
      await page.locator('table.data[aria-busy="false"]').first().waitFor();
      await expect
        .poll(() => page.locator('main p.status').first().textContent())
        .toMatch(/^(Showing|No instances)/);
    }
    const cells = (page: Page, column: number) =>
      page.locator(`table.data tbody tr td:nth-of-type(${column})`).allTextContents();

    it('currency and price per vCPU: the URL, the API sort, and the API figures', async () => {
      const { page, problems, id } = await keyedPage('/ui/?cols=vcpu,price');
      await tableLoaded(page);
      await page.getByRole('combobox', { name: 'Currency' }).selectOption('JPY');
      await expect.poll(() => search(page).get('currency')).toBe('JPY');
      await page.getByRole('combobox', { name: 'Price', exact: true }).selectOption('vcpu');
      await expect.poll(() => search(page).get('unit')).toBe('vcpu');
      await page.getByRole('button', { name: /^Price \(JPY \/ month, per vCPU\)/ }).click();
      await expect.poll(() => search(page).get('sort')).toBe('price');
      await tableLoaded(page);
      // The default order is the price's, ascending: a click on its header turns it.
      expect(search(page).get('order')).toBe('desc');
      const api = await json<InstancesAnswer>(
        '/instances?sort_by=price_per_vcpu&order=desc&currency=JPY&limit=50&offset=0',
        id,
      );
      expect(api.data.instances[0]!.pricing.currency).toBe('JPY');
      const yen = (n: number) => `¥${Math.round(n).toLocaleString('en')}`;
      // Cells: select, vCPU, price (the row name is a th).
      await expect
        .poll(() => cells(page, 3))
        .toEqual(api.data.instances.map((r) => yen(r.pricing.monthly_price_per_vcpu)));

      // A year is twelve months of the API's per-vCPU figure.
      await page.getByRole('combobox', { name: 'Period' }).selectOption('year');
      await expect.poll(() => search(page).get('period')).toBe('year');
      await expect
        .poll(() => cells(page, 3))
        .toEqual(api.data.instances.map((r) => yen(r.pricing.monthly_price_per_vcpu * 12)));

      // Back steps through period, sort, unit and currency.
      await page.goBack();
      await expect.poll(() => search(page).get('period')).toBeNull();
      await page.goBack();
      await page.goBack();
      await page.goBack();
      await expect.poll(() => search(page).get('currency')).toBeNull();
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Currency' }).inputValue())
        .toBe('USD');

      // Every currency the page offers is one the API accepts.
      const offered = await page
        .getByRole('combobox', { name: 'Currency' })
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
      const refused = await session.server().api('/instances?limit=1&currency=XXX', id);
      const allowed = ((await refused.json()) as { error: { details: { allowed: string[] } } })
        .error.details.allowed;
      expect(offered.length).toBeGreaterThan(10);
      expect(offered.filter((c) => !allowed.includes(c))).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('compare round trip: select rows, compare them, set a baseline, Back restores', async () => {
      const { page, problems, id } = await keyedPage('/ui/?provider=provider_b&sort=vcpu');
      await tableLoaded(page);
      const api = await json<InstancesAnswer>(
        '/instances?provider=provider_b&sort_by=vcpu&limit=50&offset=0',
        id,
      );
      const [a, b, c] = api.data.instances.slice(0, 3) as [Row, Row, Row];
      for (const r of [a, b, c]) {
        await page
          .getByRole('checkbox', {
            name: `Select ${r.instance_name} in ${r.region.region_name} (${r.provider.display_name})`,
          })
          .check();
      }
      await expect.poll(() => search(page).get('sel')).toBe(`${a.id},${b.id},${c.id}`);
      await page.getByRole('link', { name: 'Compare selected' }).click();
      await expect.poll(() => search(page).get('view')).toBe('compare');
      expect(search(page).get('ids')).toBe(`${a.id},${b.id},${c.id}`);
      const heads = page.locator('table.compare thead th');
      await expect.poll(() => heads.count()).toBe(4);
      const monthly = page.locator('table.compare tbody tr', { hasText: 'Monthly price' });
      await expect
        .poll(async () => (await monthly.locator('td').allTextContents()).map((t) => t.trim()))
        .toEqual([a, b, c].map((r) => `$${r.pricing.monthly_price.toFixed(2)}`));

      await page
        .getByRole('button', {
          name: `Set baseline for ${nameText(a)} in ${a.region.region_name}`,
        })
        .click();
      await expect.poll(() => search(page).get('base')).toBe(String(a.id));
      const pct = (v: number) => {
        const change = ((v - a.pricing.monthly_price) / a.pricing.monthly_price) * 100;
        return `${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}%`;
      };
      const secondCell = monthly.locator('td').nth(1);
      if (b.pricing.monthly_price !== a.pricing.monthly_price) {
        await expect.poll(() => secondCell.textContent()).toContain(pct(b.pricing.monthly_price));
      }
      expect(await checkAtEveryWidth(page, 'compare', () => heads.first().waitFor())).toEqual([]);

      // Only the rows that differ; Back brings every row back, and the baseline off.
      const allRows = await page.locator('table.compare tbody tr').count();
      await page.getByRole('checkbox', { name: 'Show only the rows that differ' }).check();
      await expect.poll(() => search(page).get('diff')).toBe('only');
      await expect
        .poll(() => page.locator('table.compare tbody tr').count())
        .toBe(await page.locator('table.compare tbody tr.diff').count());
      await page.goBack();
      await expect.poll(() => page.locator('table.compare tbody tr').count()).toBe(allRows);
      await page.goBack();
      await expect.poll(() => search(page).get('base')).toBeNull();

      // Remove one; then back to Instances with the selection kept.
      await page
        .getByRole('button', {
          name: `Remove ${nameText(c)} in ${c.region.region_name} from the comparison`,
        })
        .click();
      await expect.poll(() => search(page).get('ids')).toBe(`${a.id},${b.id}`);
      await expect.poll(() => heads.count()).toBe(3);
      await page.getByRole('link', { name: /Back to instances/ }).click();
      await expect.poll(() => search(page).get('sel')).toBe(`${a.id},${b.id}`);
      await tableLoaded(page);
      expect(problems).toEqual([]);
    });

    it('instance page: specs, every region of its provider, the history chart, similar types', async () => {
      const probe = session.newClient();
      const list = await json<InstancesAnswer>('/instances?provider=provider_c&limit=1', probe);
      const record = list.data.instances[0]!;
      const { page, problems, id } = await keyedPage(`/ui/?view=instance&id=${record.id}`);
      await expect.poll(() => page.locator('h1').textContent()).toContain(record.instance_id);
      const history = await json<{ data: { history: unknown[] } }>(
        `/instances/${record.id}/history`,
        id,
      );
      // The same type in every region: the API's records of this provider with this name.
      const all = await json<InstancesAnswer>(
        `/instances?provider=provider_c&min_vcpu=${record.vcpu}&max_vcpu=${record.vcpu}&limit=100`,
        id,
      );
      const same = all.data.instances.filter((r) => r.instance_id === record.instance_id);
      // The box labelled by its heading (the purchase options' table comes first, D61).
      const regionRows = page
        .getByRole('region', { name: /^Price in every region/ })
        .locator('tbody tr');
      await expect.poll(() => regionRows.count()).toBe(5);
      for (const r of same) {
        await expect
          .poll(() => regionRows.filter({ hasText: r.region.region_code }).textContent())
          .toContain(`$${r.pricing.monthly_price.toFixed(2)}`);
      }
      const cheapest = Math.min(...same.map((r) => r.pricing.monthly_price));
      expect(await page.locator('tr.cheapest').first().textContent()).toContain(
        `$${cheapest.toFixed(2)}`,
      );
      // The regions side by side are /instance-types' row for this type. Ties are ties: every
      // region at the lowest price is marked, only those, and the API's cheapest region is one.
      const types = await json<{
        data: { instance_types: { instance_id: string; cheapest_region: string }[] };
      }>(`/instance-types?provider=provider_c&q=${record.instance_id}&limit=100`, id);
      const type = types.data.instance_types.find((t) => t.instance_id === record.instance_id)!;
      const atCheapest = same.filter((r) => r.pricing.monthly_price === cheapest);
      expect(await page.locator('tr.cheapest').count()).toBe(atCheapest.length);
      for (const r of atCheapest) {
        expect(await page.locator('tr.cheapest', { hasText: r.region.region_code }).count()).toBe(
          1,
        );
      }
      expect(
        await page.locator('tr.cheapest', { hasText: `(${type.cheapest_region})` }).count(),
      ).toBe(1);
      // The chart: an image with a text summary, one dot per price period.
      const chart = page.getByRole('img', { name: /Price history/ });
      await chart.waitFor();
      expect(await page.locator('.chart circle').count()).toBe(history.data.history.length);
      await expect.poll(() => page.locator('h2', { hasText: 'Similar types' }).count()).toBe(1);
      await expect
        .poll(() => page.locator('main p.status').last().textContent())
        .toMatch(/other types|No other type/);
      expect(await checkAtEveryWidth(page, 'instance', () => chart.waitFor())).toEqual([]);

      // A region's link opens that record's page; Back returns to this one.
      const other = same.find((r) => r.id !== record.id);
      if (other !== undefined) {
        await regionRows.filter({ hasText: other.region.region_code }).getByRole('link').click();
        await expect.poll(() => search(page).get('id')).toBe(String(other.id));
        await page.goBack();
        await expect.poll(() => search(page).get('id')).toBe(String(record.id));
      }
      expect(problems).toEqual([]);
    });

    it('instance page and changes follow the chosen currency', async () => {
      const probe = session.newClient();
      const list = await json<InstancesAnswer>('/instances?provider=provider_a&limit=1', probe);
      const record = list.data.instances[0]!;
      const { page, id } = await keyedPage(`/ui/?view=instance&id=${record.id}&currency=JPY`);
      const inYen = await json<{ data: { instance: Row } }>(
        `/instances/${record.id}/history?currency=JPY`,
        id,
      );
      expect(inYen.data.instance.pricing.currency).toBe('JPY');
      const monthly = page.locator('.specs div', { hasText: /^Monthly/ }).locator('dd');
      await expect
        .poll(() => monthly.textContent())
        .toBe(`¥${Math.round(inYen.data.instance.pricing.monthly_price).toLocaleString('en')}`);
      // The currency goes with the menu to Changes (its prices: views-explained.e2e.test.ts).
      await page.getByRole('link', { name: 'Changes' }).click();
      await expect.poll(() => search(page).get('view')).toBe('changes');
      expect(search(page).get('currency')).toBe('JPY');
    });

    it('instance page: every region at the lowest price is marked cheapest (ties are ties)', async () => {
      const probe = session.newClient();
      // Vultr sells most plans at one price in every city: find a type with a tie at its lowest.
      const all = await json<InstancesAnswer>('/instances?provider=provider_b&limit=100', probe);
      const byType = new Map<string, Row[]>();
      for (const r of all.data.instances) {
        byType.set(r.instance_id, [...(byType.get(r.instance_id) ?? []), r]);
      }
      const [, tied] = [...byType].find(([, rows]) => {
        const lowest = Math.min(...rows.map((r) => r.pricing.monthly_price));
        return rows.filter((r) => r.pricing.monthly_price === lowest).length > 1;
      })!;
      const lowest = Math.min(...tied.map((r) => r.pricing.monthly_price));
      const atLowest = tied.filter((r) => r.pricing.monthly_price === lowest);
      const { page } = await keyedPage(`/ui/?view=instance&id=${tied[0]!.id}`);
      await expect.poll(() => page.locator('tr.cheapest').count()).toBe(atLowest.length);
      for (const r of atLowest) {
        expect(await page.locator('tr.cheapest', { hasText: r.region.region_code }).count()).toBe(
          1,
        );
      }
    });

    it('instance page, Compare, Changes and Recommend in another currency say at which rate, from where, of when', async () => {
      const { page, id } = await keyedPage('/ui/');
      const answer = await json<InstancesAnswer>('/instances?limit=2&currency=JPY', id);
      const rate = answer.data.metadata.exchange_rate!;
      const [a, b] = answer.data.instances as [Row, Row];
      await page.goto(`${session.server().url}/ui/?view=instance&id=${a.id}&currency=JPY`);
      const note = page.locator('p.rate-note');
      await note.waitFor();
      expect(await note.textContent()).toContain(`the rate of ${rate.as_of}`);
      expect(await note.textContent()).toMatch(/^Prices converted from USD at 1 USD = [\d.,]+ JPY/);
      await page.goto(`${session.server().url}/ui/?view=compare&ids=${a.id},${b.id}&currency=JPY`);
      await note.waitFor();
      expect(await note.textContent()).toContain(`the rate of ${rate.as_of}`);
      // Changes too (the fresh install's recorded AWS price change).
      await page.goto(`${session.server().url}/ui/?view=changes&currency=JPY`);
      await note.waitFor();
      expect(await note.textContent()).toContain(`the rate of ${rate.as_of}`);
      // Recommend too (the rate comes in the answer's meta).
      await page.goto(`${session.server().url}/ui/?view=recommend&stack=nodejs&go=1&currency=JPY`);
      await note.waitFor();
      expect(await note.textContent()).toContain(`the rate of ${rate.as_of}`);
      // In USD nothing is converted, and nothing is said.
      await page.goto(`${session.server().url}/ui/?view=compare&ids=${a.id},${b.id}`);
      await page.locator('table.compare tbody tr').first().waitFor();
      expect(await note.count()).toBe(0);
    });

    it('instance page: an unknown id says so', async () => {
      const { page } = await keyedPage('/ui/?view=instance&id=999999');
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('NOT_FOUND');
    });

    it('changes: opens on price changes; additions one line per date; filters in the URL, Back restores', async () => {
      const { page, problems, id } = await keyedPage('/ui/?view=changes');
      const status = page.locator('main p.status').first();
      // A fresh install holds the dated AWS recordings (D64): their one price change, not 2,400
      // "New" rows (Seoul u7in-16tb.224xlarge, 245.902 -> 217.7164 USD/h on 2025-03-27).
      const recorded = '1 price change in the whole history: 0 up, 1 down. Newest first.';
      await expect.poll(() => status.textContent()).toBe(recorded);
      const rows = page.locator('table.data tbody tr');
      expect(await rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain('u7in-16tb.224xlarge');
      expect(await rows.first().textContent()).toContain('2025-03-27');
      expect(await checkAtEveryWidth(page, 'changes', () => status.waitFor())).toEqual([]);

      const added = async (query: string) => {
        let total = 0;
        let cursor: string | null = null;
        do {
          const answer: ChangesAnswer = await json<ChangesAnswer>(
            `/changes?kind=added&limit=500&since=2000-01-01${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
            id,
          );
          total += answer.data.changes.length;
          cursor = answer.data.next_cursor;
        } while (cursor !== null);
        return total;
      };
      const lines = page.locator('ul.membership > li');
      /** The records the additions lines count ("New 2,284 records added on …"), summed. */
      const countedInLines = async () =>
        (await lines.allTextContents())
          .map((text) => /^New ([\d,]+) records? added on /.exec(text)?.[1] ?? 'NaN')
          .reduce((sum, n) => sum + Number(n.replaceAll(',', '')), 0);
      await page.getByRole('combobox', { name: 'Kind' }).selectOption('all');
      await expect.poll(() => search(page).get('show')).toBe('all');
      await expect.poll(() => lines.count()).toBeGreaterThan(0);
      // Each recording's additions are one line: the lines add up to every record added.
      await expect.poll(countedInLines).toBe(await added(''));

      await page.getByRole('combobox', { name: 'Provider' }).selectOption('provider_c');
      await expect.poll(() => search(page).get('provider')).toBe('provider_c');
      const onlyC = await added('&provider=provider_c');
      await expect.poll(countedInLines).toBe(onlyC);

      await page.goBack();
      await expect.poll(() => search(page).get('provider')).toBeNull();
      await page.goBack();
      await expect.poll(() => search(page).get('show')).toBeNull();
      await expect.poll(() => status.textContent()).toBe(recorded);

      await page.getByRole('combobox', { name: 'Kind' }).selectOption('price_increased');
      await expect.poll(() => search(page).get('kind')).toBe('price_increased');
      await expect.poll(() => status.textContent()).toBe('No price changes in the whole history.');
      expect(problems).toEqual([]);
    });
  },
);

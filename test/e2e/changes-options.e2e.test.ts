// Purchase options (D61) in the Changes view, in a real browser against a real server that fills
// every provider (PROVIDERS=all) from the bundled snapshots: Google Cloud's first fill replays its
// year of recorded spot prices, so the feed has price changes of an option besides on-demand.
// `purchase_option=all` lists every option's changes, each marked with its option; back to
// on-demand by keyboard, the view asks and shows what it did before it had a selector.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface Change {
  kind: string;
  purchase_option: string;
  instance: { id: number };
}
interface Feed {
  changes: Change[];
  summary: { total: number; kinds: Record<string, number> };
}

const LABEL: Record<string, string> = {
  on_demand: 'On-demand',
  spot: 'Spot',
  reserved_1y: '1-year reserved',
  reserved_3y: '3-year reserved',
  convertible_1y: '1-year convertible',
  convertible_3y: '3-year convertible',
};
const PRICES = 'kind=price_increased,price_decreased&order=newest&summary=true&limit=50';

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)('changes by purchase option', { timeout: 300_000 }, () => {
  const session = keyedSession('10.63.0.', { PROVIDERS: 'all' });
  async function feed(query: string, id: string): Promise<Feed> {
    const response = await session.server().api(`/changes?since=2000-01-01&${query}`, id);
    expect(response.status, query).toBe(200);
    return ((await response.json()) as { data: Feed }).data;
  }
  const search = (page: Page) => new URL(page.url()).searchParams;
  const status = (page: Page) => page.locator('main p.status').first();
  /** Each row's record id and the option its link opens it with. */
  const shown = async (page: Page) =>
    (
      await page
        .locator('table.data tbody th[scope=row] a')
        .evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href))
    ).map((href) => {
      const q = new URL(href).searchParams;
      return [Number(q.get('id')), q.get('purchase_option') ?? 'on_demand'];
    });
  const expected = (f: Feed) => f.changes.map((c) => [c.instance.id, c.purchase_option]);
  const totalText = (f: Feed, whose: string) => {
    const ups = f.summary.kinds['price_increased'] ?? 0;
    return `${f.summary.total.toLocaleString('en')} price changes${whose} in the whole history: ${ups.toLocaleString('en')} up, ${(f.summary.total - ups).toLocaleString('en')} down. Newest first.`;
  };

  it('`all` in the URL lists every option’s changes with their option; on-demand by keyboard removes them', async () => {
    const probe = session.newClient();
    const all = await feed(`purchase_option=all&${PRICES}`, probe);
    const onDemand = await feed(PRICES, probe);
    // The data this test needs: option items on the first page, and more changes than on-demand.
    expect(all.changes.some((c) => c.purchase_option !== 'on_demand')).toBe(true);
    expect(all.summary.total).toBeGreaterThan(onDemand.summary.total);
    expect(onDemand.changes.every((c) => c.purchase_option === 'on_demand')).toBe(true);

    const { page, problems } = await session.keyedPage('/ui/?view=changes&purchase_option=all');
    const asked: URLSearchParams[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/changes')) asked.push(url.searchParams);
    });
    // The page's first answer: every option's changes, which took over the default 1 s under a
    // full suite's load on two cores.
    await expect
      .poll(() => status(page).textContent(), { timeout: 15_000 })
      .toBe(totalText(all, ' (every option)'));
    await expect.poll(() => shown(page)).toEqual(expected(all));
    const select = page.getByLabel('Purchase option');
    expect(await select.inputValue()).toBe('all');
    expect((await select.locator('option').allTextContents()).at(-1)).toBe('All options');
    // Each item says whose price changed, as the API's item does.
    const table = page.locator('table.data');
    expect(await table.locator('thead th').allTextContents()).toContain('Purchase option');
    expect(await table.locator('tbody td[data-label="Purchase option"]').allTextContents()).toEqual(
      all.changes.map((c) => LABEL[c.purchase_option]),
    );
    expect(await page.locator('#c-purchase-option-meaning').textContent()).toContain(
      'All options:',
    );
    expect(
      await checkAtEveryWidth(page, 'changes-options', async () => {
        await table.waitFor();
      }),
    ).toEqual([]);

    // The keyboard alone: Tab from the Kind menu to the option menu, then up to On-demand.
    await page.getByLabel('Kind', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await select.and(page.locator(':focus')).count()).toBe(1);
    for (let i = 0; i < 6 && (await select.inputValue()) !== 'on_demand'; i++) {
      await page.keyboard.press('ArrowUp');
    }
    expect(await select.inputValue()).toBe('on_demand');
    await expect.poll(() => search(page).get('purchase_option')).toBeNull();
    await expect
      .poll(() => status(page).textContent(), { timeout: 15_000 })
      .toBe(totalText(onDemand, ''));
    await expect.poll(() => shown(page)).toEqual(expected(onDemand));
    // As before the selector: no option column, no option sent.
    expect(await table.locator('thead th').allTextContents()).not.toContain('Purchase option');
    expect(await table.locator('tbody td[data-label="Purchase option"]').count()).toBe(0);
    expect(asked.at(-1)?.get('purchase_option')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('counts prices, not records, in the additions of every option', async () => {
    const { page, problems } = await session.keyedPage(
      '/ui/?view=changes&purchase_option=all&show=all',
    );
    const lines = page.locator('ul.membership > li > strong');
    await lines.first().waitFor();
    const all = await lines.allTextContents();
    expect(all.length).toBeGreaterThan(0);
    for (const line of all) expect(line).toMatch(/^[\d,]+ prices? (added|removed|offered)/);
    const lists = await page.locator('ul.membership details > summary').allTextContents();
    expect(lists.some((text) => /^List the [\d,]+ prices$/.test(text))).toBe(true);
    expect(lists.filter((text) => text.includes('records'))).toEqual([]);
    // The lines count every option's items: they add up to the API's count under `all`, which
    // is more than on-demand's (the first fill added each AWS record's reserved prices).
    const membership = 'kind=added,removed,returned&summary=true&limit=1';
    const probe = session.newClient();
    const everyOption = await feed(`purchase_option=all&${membership}`, probe);
    const onDemandOnly = await feed(membership, probe);
    const counted = all.reduce(
      (sum, line) => sum + Number(line.split(' ')[0]!.replace(/,/g, '')),
      0,
    );
    expect(counted).toBe(everyOption.summary.total);
    expect(everyOption.summary.total).toBeGreaterThan(onDemandOnly.summary.total);
    await page.getByLabel('Purchase option').selectOption('on_demand');
    await expect.poll(() => search(page).get('purchase_option')).toBeNull();
    // Until the on-demand summary is shown (an empty list would pass `every` on its own).
    await expect
      .poll(async () => {
        const shown = await lines.allTextContents();
        return shown.length > 0 && shown.every((l) => / records? /.test(l));
      })
      .toBe(true);
    expect(problems).toEqual([]);
  });
});

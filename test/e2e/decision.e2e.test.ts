// Issue 36 in a real browser against a real server on the bundled snapshots: Status keeps
// "syncing works" apart from "prices are current", a replayed snapshot says so, inferred
// availability is marked, vendor region ids are shown, views recover by themselves, the menu
// keeps each view's state, per-unit prices sort by the figure shown, the phone shows results
// first, the page's CSV speaks the screen's words, converted prices name their rate, errors are
// in words, and the key is shared between tabs. axe and screenshots at 1440, 768 and 375 px.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  checkAtEveryWidth,
  chromiumMissing,
  launchChromium,
  newContext,
  SCREENSHOT_DIR,
} from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';
import { E2E_KEY } from './support/ui-server.js';

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)('a page to trust (issue 36)', { timeout: 240_000 }, () => {
  const session = keyedSession('10.36.0.');
  const { keyedPage } = session;
  const search = (page: Page) => new URL(page.url()).searchParams;
  const loaded = (page: Page) =>
    page.locator('table.data[aria-busy="false"] tbody tr').first().waitFor();
  const url = (p: string) => `${session.server().url}${p}`;

  it('Status: syncing and price age apart; a replayed snapshot says so and how to go live', async () => {
    const { page, problems } = await keyedPage('/ui/?view=status');
    const summary = page.locator('dl.status-summary');
    await summary.waitFor();
    const text = (await summary.textContent()) ?? '';
    expect(text).toMatch(/Syncing\s*works\s*3 of 3 providers synced successfully/);
    expect(text).toMatch(/Prices\s*all old\s*3 of 3 providers' prices are stale/);
    expect(await page.locator('text=Overall: healthy').count()).toBe(0);
    // Vultr's Osaka is inferred, and Status says so.
    await expect
      .poll(async () => page.locator('table.data').textContent())
      .toContain('Osaka (itm): which types are sold there is inferred, not recorded');
    expect(await checkAtEveryWidth(page, 'decision-status', () => summary.waitFor())).toEqual([]);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    const result = page.locator('.sync-result');
    await result.waitFor({ timeout: 60_000 });
    const said = (await result.textContent()) ?? '';
    expect(said).toContain('Vultr: replayed its recorded snapshot (prices observed 2025-12-18)');
    expect(said).toContain('No live price was fetched.');
    expect(said).toContain('PROVIDER_A_URL, PROVIDER_B_URL, PROVIDER_C_URL');
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, 'decision-status-sync-1440.png'),
      fullPage: true,
    });
    expect(problems).toEqual([]);
  });

  it("marks inferred availability and shows the vendor's own region id", async () => {
    const { page, problems } = await keyedPage('/ui/?provider=provider_b&city=osaka');
    await loaded(page);
    const rows = page.locator('table.data tbody tr');
    const marks = page.locator('table.data tbody tr .badge-inferred');
    await expect.poll(() => marks.count()).toBe(await rows.count());
    await page.goto(url('/ui/?provider=provider_a&city=osaka,singapore'));
    await loaded(page);
    const regions = await page
      .locator('table.data tbody td[data-label="Region"]')
      .allTextContents();
    expect(regions).toContain('Osaka (ap-south); Linode: jp-osa');
    expect(regions).toContain('Singapore (ap-southeast); Linode: ap-south');
    // Regions: a Vultr Osaka price is never a bare "cheapest".
    await page.goto(url('/ui/?view=regions&provider=provider_b'));
    await loaded(page);
    const osaka = page.locator('table.data tbody td[data-label="Osaka"]').first();
    expect(await osaka.textContent()).toContain('availability inferred');
    expect(await osaka.textContent()).not.toMatch(/\(cheapest\)/);
    expect(await checkAtEveryWidth(page, 'decision-regions-inferred', () => loaded(page))).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });

  it('views recover by themselves when the server answers again', async () => {
    const { page } = await keyedPage('/ui/');
    await loaded(page);
    // The server goes away: every request fails, the Regions chunk included.
    await page.route('**/*', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Regions', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.first().waitFor();
    expect(await alert.first().textContent()).toMatch(/tries again by itself/);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBeGreaterThan(0);
    // It comes back: no click, no reload by the person.
    await page.unroute('**/*');
    await page.locator('table.data tbody tr').first().waitFor({ timeout: 30_000 });
    // Recommend's data too.
    await page.goto(url('/ui/?view=recommend&stack=nodejs&go=1'));
    await page.locator('ol.cards li').first().waitFor();
    await page.route('**/recommend', (route) => route.abort('connectionrefused'));
    await page.getByRole('checkbox', { name: 'Tokyo' }).check();
    await page.getByRole('button', { name: 'Recommend', exact: true }).click();
    await page.getByRole('alert').first().waitFor();
    await page.unroute('**/recommend');
    await expect
      .poll(() => page.getByRole('alert').allTextContents(), { timeout: 30_000 })
      .toEqual([]);
    expect(await page.locator('ol.cards li').count()).toBeGreaterThan(0);
    expect(search(page).get('city')).toBe('tokyo');
  });

  it("the menu keeps each view's filters; one city is not carried into Regions", async () => {
    const { page, problems } = await keyedPage(
      '/ui/?min_vcpu=2&min_memory_gb=4&max_price=50&currency=EUR',
    );
    await loaded(page);
    await page.getByRole('link', { name: 'Recommend', exact: true }).click();
    await page.getByRole('heading', { name: 'Recommend' }).waitFor();
    await page.getByRole('link', { name: 'Status', exact: true }).click();
    await page.getByRole('heading', { name: 'Status' }).waitFor();
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    await loaded(page);
    expect(Object.fromEntries(search(page))).toMatchObject({
      min_vcpu: '2',
      min_memory_gb: '4',
      max_price: '50',
      currency: 'EUR',
    });
    await page.goto(url('/ui/?city=tokyo'));
    await loaded(page);
    await page.getByRole('link', { name: 'Regions', exact: true }).click();
    await loaded(page);
    expect(search(page).get('city')).toBeNull();
    const cityColumns = page.locator('table.data thead th').filter({ hasText: /^(Tokyo|Seoul)$/ });
    expect(await cityColumns.count()).toBe(2);
    // Chosen in Regions itself, one city says there is nothing to compare and marks no cheapest.
    await page.goto(url('/ui/?view=regions&city=tokyo'));
    await loaded(page);
    expect(await page.locator('p.note').textContent()).toContain('nothing to compare');
    expect(await page.locator('td.cheapest-cell').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('sorts per vCPU and per GiB by the figure shown, and the header says so', async () => {
    const { page, problems } = await keyedPage('/ui/?unit=vcpu&period=hour');
    await loaded(page);
    const figures = async () =>
      (await page.locator('table.data tbody td.card-price').allTextContents()).map((t) =>
        Number(t.replace(/[^0-9.]/g, '')),
      );
    const shown = await figures();
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    const header = page.locator('th[aria-sort]');
    expect(await header.count()).toBe(1);
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    expect(await header.textContent()).toMatch(/per vCPU/);
    await header.getByRole('button').click();
    await expect.poll(() => search(page).get('order')).toBe('desc');
    await loaded(page);
    const reversed = await figures();
    expect(reversed).toEqual([...reversed].sort((a, b) => b - a));
    expect(problems).toEqual([]);
  });

  it('a phone shows the first result on the first screen; Recommend scrolls to its results', async () => {
    const { page, problems } = await keyedPage('/ui/');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await loaded(page);
    const notice = await page.locator('aside.stale-notice').boundingBox();
    expect(notice!.height).toBeLessThan(120);
    const first = await page.locator('table.data tbody tr').first().boundingBox();
    expect(first!.y).toBeLessThan(812 - 60);
    await page.goto(url('/ui/?view=recommend'));
    await page.getByRole('button', { name: 'nodejs' }).click();
    await page.getByRole('button', { name: 'Recommend', exact: true }).click();
    await page.locator('ol.cards li').first().waitFor();
    await expect
      .poll(async () => (await page.locator('ol.cards li').first().boundingBox())!.y)
      .toBeLessThan(812);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'decision-recommend-375.png') });
    expect(problems).toEqual([]);
  });

  it("converted prices name their rate, its source and date, and that it is newer than the prices'", async () => {
    const { page, problems } = await keyedPage('/ui/?currency=JPY');
    await loaded(page);
    const note = page.locator('p.rate-note');
    const text = (await note.textContent()) ?? '';
    expect(text).toMatch(
      /1 USD = [\d.,]+ JPY, the rate of \d{4}-\d{2}-\d{2} \(European Central Bank/,
    );
    expect(text).toContain("converted at today's rate, not at the rate of their day");
    expect(await checkAtEveryWidth(page, 'decision-instances-jpy', () => loaded(page))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('says bad input in words: a negative memory, an unknown currency in the link', async () => {
    const { page } = await keyedPage('/ui/?min_memory_gb=-3');
    const message = page.locator('#f-min_memory_gb-error');
    await message.waitFor();
    expect(await message.textContent()).toBe(
      'Min memory cannot be negative (you entered “-3”). Enter 0 or more, or clear it.',
    );
    await page.goto(url('/ui/?currency=XYZ'));
    await loaded(page);
    expect(await page.locator('p.note[role=status]').textContent()).toContain('“XYZ”');
    expect(await page.locator('#currency').inputValue()).toBe('USD');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('a tab opened from the page gets the key from it; the prompt says where keys are kept', async () => {
    const browser = await launchChromium();
    try {
      const context = await newContext(browser, session.newClient());
      const first = await context.newPage();
      await first.goto(url('/ui/'));
      const storage = first.locator('#key-storage');
      await storage.waitFor();
      expect(await storage.textContent()).toContain("this tab's session storage");
      expect(await storage.textContent()).toContain('local storage');
      await first.locator('#api-key').fill(E2E_KEY);
      await first.getByRole('button', { name: 'Continue' }).click();
      await loaded(first);
      // A second tab (no sessionStorage of its own): no prompt, the view loads.
      const second = await context.newPage();
      await second.goto(url('/ui/?view=regions'));
      await loaded(second);
      expect(await second.locator('#key-storage').count()).toBe(0);
      // Once the first tab is closed, a new tab asks again: the key lived only in the tabs.
      await first.close();
      await second.close();
      const third = await context.newPage();
      await third.goto(url('/ui/'));
      await third.locator('#key-storage').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('instance pages have their own titles; Similar types in the same city with dates; JSON compressed', async () => {
    const { page, problems } = await keyedPage('/ui/?provider=provider_a&city=tokyo');
    await loaded(page);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/instances?')),
      page.reload(),
    ]);
    expect(await response.headerValue('content-encoding')).toMatch(/^(br|gzip)$/);
    await page.locator('table.data tbody th a').first().click();
    await page.locator('#similar-title').waitFor();
    await expect.poll(() => page.title()).toMatch(/, Linode Tokyo · cloudprice$/);
    const similar = page.locator('table.data').last();
    await similar.locator('tbody tr').first().waitFor();
    expect(await similar.locator('thead').textContent()).toContain('Observed');
    const where = await similar.locator('tbody td:nth-child(3)').allTextContents();
    expect(where.every((w) => w.startsWith('Tokyo'))).toBe(true);
    // No inner box scrolls down on a desktop: the page does.
    const box = await page.evaluate<number>(
      "Math.max(...[...document.querySelectorAll('.table-wrap')].map((b) => b.scrollHeight - b.clientHeight))",
    );
    expect(box).toBe(0);
    expect(problems).toEqual([]);
  });
});

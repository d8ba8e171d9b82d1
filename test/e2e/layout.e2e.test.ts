// Issue 24's layout and controls in a real browser against a real server, at 1440, 768 and 375
// px: each row's name and price on screen without sideways scrolling (tables become cards where
// they cannot fit), filters folded behind a counted button on a phone, an invalid filter said in
// words next to its control with no old rows left standing, the sort in force on its header
// from the first load, menus that close on focus out, Copy link, a refused #key= link, and each
// price's observation date and source; axe and screenshots at every width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing, newContext, WIDTHS } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface Row {
  id: number;
  instance_id: string;
  provider: { name: string };
  region: { region_name: string };
  pricing: { monthly_price: number; observed_at: string };
}
interface InstancesAnswer {
  data: { instances: Row[] };
}
interface Health {
  components: { providers: { name: string; data_source: { source: string } | null }[] };
}

const skip = chromiumMissing();

interface Labelled {
  getAttribute(name: string): string | null;
}

interface Box {
  getBoundingClientRect(): { left: number; right: number; width: number };
}

/** Whether each element lies within the viewport's width (nothing to scroll sideways for). */
async function withinWidth(page: Page, selector: string): Promise<boolean[]> {
  const width = await page.evaluate<number>('document.documentElement.clientWidth');
  return page.locator(selector).evaluateAll(
    (elements, w) =>
      elements.map((e) => {
        const box = (e as unknown as Box).getBoundingClientRect();
        return box.width > 0 && box.left >= 0 && box.right <= w;
      }),
    width,
  );
}

/** How far the table's box scrolls sideways (0: everything fits). */
async function tableOverflow(page: Page): Promise<number> {
  return page.evaluate<number>(
    `(() => { const box = document.querySelector('.table-wrap'); return box.scrollWidth - box.clientWidth; })()`,
  );
}

describe.skipIf(skip !== undefined)('layout and controls (issue 24)', { timeout: 180_000 }, () => {
  const session = keyedSession('10.82.0.');
  const { keyedPage } = session;
  const search = (page: Page) => new URL(page.url()).searchParams;
  const loaded = (page: Page) =>
    page.locator('table.data[aria-busy="false"] tbody tr').first().waitFor();
  async function api<T>(path: string, id: string): Promise<T> {
    const response = await session.server().api(path, id);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  }

  it('instances: name and price of each row on screen at every width, cards below the table width', async () => {
    const { page, problems } = await keyedPage('/ui/');
    await loaded(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const names = await withinWidth(page, 'table.data tbody tr:nth-child(-n+5) th[scope=row] a');
      const prices = await withinWidth(page, 'table.data tbody tr:nth-child(-n+5) td.card-price');
      expect(names, `${width}px names`).toEqual([true, true, true, true, true]);
      expect(prices, `${width}px prices`).toEqual([true, true, true, true, true]);
      const sideways = await tableOverflow(page);
      expect(sideways, `${width}px table scrolls sideways`).toBe(0);
      // Still a table for assistive technology: rows, and each cell under its column header.
      expect(await page.getByRole('row').count()).toBeGreaterThan(5);
      expect(await page.getByRole('columnheader', { name: /^Price/ }).count()).toBe(1);
    }
    expect(await checkAtEveryWidth(page, 'layout-instances', () => loaded(page))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('regions and status fit 768 and 375 px: no sideways scrolling, name and price on screen', async () => {
    const { page, problems } = await keyedPage('/ui/?view=regions');
    await loaded(page);
    for (const width of [768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await withinWidth(page, 'table.data tbody tr:nth-child(-n+3) th[scope=row]')).toEqual([
        true,
        true,
        true,
      ]);
      expect(await withinWidth(page, 'table.data tbody tr:nth-child(-n+3) td.card-price')).toEqual([
        true,
        true,
        true,
      ]);
    }
    expect(await checkAtEveryWidth(page, 'layout-regions', () => loaded(page))).toEqual([]);

    await page.goto(`${session.server().url}/ui/?view=status`);
    await page.locator('table.data tbody tr').first().waitFor();
    for (const width of [768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const sideways = await tableOverflow(page);
      expect(sideways, `status at ${width}px`).toBe(0);
    }
    expect(
      await checkAtEveryWidth(page, 'layout-status', () =>
        page.locator('table.data tbody tr').first().waitFor(),
      ),
    ).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('at 375 px the filters fold behind one button that counts the active ones; at 1440 they are open', async () => {
    const { page, problems } = await keyedPage('/ui/?provider=provider_b&min_vcpu=2');
    await loaded(page);
    const toggle = page.locator('button.filter-toggle');
    const form = page.getByRole('search', { name: 'Filter instances' });
    expect(await toggle.isVisible()).toBe(false);
    expect(await form.isVisible()).toBe(true);

    await page.setViewportSize({ width: 375, height: 800 });
    expect(await toggle.textContent()).toMatch(/^Filters \(2 active\)/);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await form.isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Max vCPU').fill('8');
    await expect.poll(() => search(page).get('max_vcpu')).toBe('8');
    await expect.poll(() => toggle.textContent()).toMatch(/^Filters \(3 active\)/);
    expect(await checkAtEveryWidth(page, 'layout-filters-open', () => loaded(page))).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await toggle.click();
    expect(await form.isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it('an invalid filter is said next to its control, and the previous rows are not left standing', async () => {
    const { page } = await keyedPage('/ui/?min_vcpu=8');
    await loaded(page);
    await page.getByLabel('Max vCPU').fill('2');
    const min = page.getByLabel('Min vCPU');
    await expect.poll(() => min.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await min.getAttribute('aria-describedby'))!;
    const message = page.locator(`[id="${describedBy}"]`);
    expect(await message.textContent()).toBe(
      'Min vCPU is more than Max vCPU, so nothing can match. Lower Min vCPU or raise Max vCPU.',
    );
    // The message sits next to the control it is about, not above the table.
    const [field, text] = await Promise.all([min.boundingBox(), message.boundingBox()]);
    expect(Math.abs(text!.x - field!.x)).toBeLessThan(5);
    expect(text!.y).toBeGreaterThan(field!.y);
    // No server sentence, no useless "Try again", and none of the rows of the query before.
    expect(await page.getByText('INVALID_PARAMETER').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(await page.locator('table.data tbody tr').isVisible()).toBe(false);
    expect(await page.locator('main p.status').first().textContent()).toMatch(/^No results/);
    expect(await checkAtEveryWidth(page, 'layout-invalid-filter', () => message.waitFor())).toEqual(
      [],
    );

    // Put right, the message goes and the rows come back.
    await page.getByLabel('Max vCPU').fill('16');
    await expect.poll(() => min.getAttribute('aria-invalid')).toBeNull();
    await loaded(page);
    expect(await page.locator('table.data tbody tr').first().isVisible()).toBe(true);
  });

  it('shows the sort in force from the first load: the first press on Price reverses it', async () => {
    const { page, id } = await keyedPage('/ui/');
    await loaded(page);
    const sorted = page.locator('th[aria-sort]');
    expect(await sorted.count()).toBe(1);
    expect(await sorted.textContent()).toMatch(/^Price/);
    expect(await sorted.getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: /^Price/ }).click();
    await expect.poll(() => search(page).get('order')).toBe('desc');
    await expect.poll(() => sorted.getAttribute('aria-sort')).toBe('descending');
    await loaded(page);
    const dearest = await api<InstancesAnswer>('/instances?sort_by=price&order=desc&limit=50', id);
    await expect
      .poll(() => page.locator('table.data tbody th[scope=row]').first().textContent())
      .toContain(dearest.data.instances[0]!.instance_id);
  });

  it('menus close when focus leaves them; Copy link copies the URL and says Copied', async () => {
    const { page } = await keyedPage('/ui/?provider=provider_a&min_vcpu=2');
    await loaded(page);
    // The cities menu, then the columns menu: Tab past the last control inside closes each.
    await page.locator('.region-menu summary').click();
    const cities = page.locator('.region-menu input[type=checkbox]');
    await expect.poll(() => cities.count()).toBeGreaterThan(0);
    await cities.last().focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('.region-menu[open]').count()).toBe(0);
    await page.locator('details.columns:not(.region-menu) summary').click();
    await page.getByRole('button', { name: 'All', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('details.columns[open]').count()).toBe(0);

    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).count()).toBe(1);
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(page.url());
    expect(new URL(copied).searchParams.get('provider')).toBe('provider_a');
    expect(new URL(copied).searchParams.get('min_vcpu')).toBe('2');
  });

  it('a wrong key in the #key= link says so and keeps the view', async () => {
    const context = await newContext(await pageBrowser(), session.newClient());
    const page = await context.newPage();
    await page.goto(`${session.server().url}/ui/?provider=provider_c#key=not-the-key-000000000000`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The key in the link you opened was refused');
    expect(await page.getByRole('textbox', { name: 'API key' }).isVisible()).toBe(true);
    expect(new URL(page.url()).hash).toBe('');
    expect(search(page).get('provider')).toBe('provider_c');
    expect(await checkAtEveryWidth(page, 'layout-refused-link', async () => {})).toEqual([]);
    await context.close();
  });

  it('each price shows when it was observed and where it came from, as a column and on a card', async () => {
    const { page, id } = await keyedPage('/ui/?provider=provider_b&limit=25');
    await loaded(page);
    const answer = await api<InstancesAnswer>('/instances?provider=provider_b&limit=25', id);
    const health = await api<Health>('/health', id);
    const source = health.components.providers.find((p) => p.name === 'provider_b')!.data_source!;
    const day = answer.data.instances[0]!.pricing.observed_at.slice(0, 10);
    expect(await page.getByRole('columnheader', { name: 'Observed' }).count()).toBe(1);
    const cells = page.locator('table.data tbody td[data-label=Observed]');
    await expect.poll(() => cells.count()).toBe(answer.data.instances.length);
    // The short name of the source in each row, the whole of it once under the table.
    expect(await cells.first().textContent()).toBe(`${day} · Vultr API v2`);
    expect(await page.locator('.sources').textContent()).toContain(source.source);
    for (const [i, r] of answer.data.instances.entries()) {
      expect(await cells.nth(i).locator('time').getAttribute('datetime')).toBe(
        r.pricing.observed_at,
      );
    }
    // On a phone the card has the same line, labelled.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await cells.first().isVisible()).toBe(true);
    expect(
      await page.evaluate<string>(
        `getComputedStyle(document.querySelector('td[data-label=Observed]'), '::before').content`,
      ),
    ).toMatch(/^"Observed/);
    expect(await checkAtEveryWidth(page, 'layout-observed', () => loaded(page))).toEqual([]);
  });

  it('compare passes axe at every width', async () => {
    const { page, id } = await keyedPage('/ui/');
    const answer = await api<InstancesAnswer>('/instances?limit=3', id);
    await page.goto(
      `${session.server().url}/ui/?view=compare&ids=${answer.data.instances.map((r) => r.id).join(',')}`,
    );
    const table = page.locator('table.data tbody tr').first();
    await table.waitFor();
    expect(await checkAtEveryWidth(page, 'layout-compare', () => table.waitFor())).toEqual([]);
  });

  it('compare on a tablet and a phone: no sideways scrolling, every value on screen and named by its record', async () => {
    const { page, id } = await keyedPage('/ui/');
    const answer = await api<InstancesAnswer>('/instances?limit=3', id);
    const ids = answer.data.instances.map((r) => r.id);
    await page.goto(`${session.server().url}/ui/?view=compare&ids=${ids.join(',')}`);
    await page.locator('table.data tbody tr').first().waitFor();
    for (const width of [768, 375]) {
      await page.setViewportSize({ width, height: 812 });
      expect(await tableOverflow(page), `${width}px`).toBe(0);
      expect(
        await page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        ),
        `${width}px`,
      ).toBe(0);
      expect(await withinWidth(page, 'table.compare tbody tr td'), `${width}px`).not.toContain(
        false,
      );
    }
    // The monthly price of each record: on screen, after its record's name.
    const monthly = page.locator('table.compare tbody tr', { hasText: 'Monthly price' });
    const labels = await monthly
      .locator('td')
      .evaluateAll((cells) =>
        cells.map((c) => (c as unknown as Labelled).getAttribute('data-label')),
      );
    expect(labels).toEqual(
      answer.data.instances.map((r) => `${r.instance_id} · ${r.region.region_name}`),
    );
  });

  /** The suite's browser, reached through a page of the session (for a context with no key). */
  async function pageBrowser() {
    const { page } = await keyedPage('/ui/?view=status');
    return page.context().browser()!;
  }
});

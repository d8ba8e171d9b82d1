// Regions side by side (GET /instance-types by city, D46 and D56) in a real browser against a
// real server: the cities, "available in all" and the page are in the URL (D50), the cells equal
// the API's answer, every cheapest city of a row is marked (ties too), Back restores, the five
// city columns fit at 1440 px, filters carry over from Instances, and axe passes at every width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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

describe.skipIf(skip !== undefined)('regions side by side', { timeout: 120_000 }, () => {
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

  it('one price column per selected city, the cheapest marked, all in the URL; Back restores', async () => {
    const { page, problems, id } = await keyedPage('/ui/?view=regions&provider=provider_c');
    const first = await types('provider=provider_c&columns=city&limit=50&offset=0', id);
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

    // Keep Tokyo and Seoul only, then only types offered in both.
    for (const city of ['Osaka', 'Singapore', 'Hong Kong']) {
      await page.getByRole('checkbox', { name: city, exact: true }).uncheck();
    }
    await expect.poll(() => search(page).get('city')).toBe('tokyo,seoul');
    await page.getByRole('checkbox', { name: /^Only types available in all/ }).check();
    await expect.poll(() => search(page).get('available_in')).toBe('all');
    const both = await types(
      'provider=provider_c&columns=city&city=tokyo,seoul&available_in=all&limit=50&offset=0',
      id,
    );
    await expect
      .poll(() => rowTypes(page))
      .toEqual(both.data.instance_types.map((t) => t.instance_id));
    // Cells: the Tokyo and Seoul columns equal the API's prices; the cheapest is bold.
    const firstType = both.data.instance_types[0]!;
    const firstRow = page.locator('table.data tbody tr').first();
    const strong = await firstRow.locator('td.cheapest-cell strong').first().textContent();
    expect(strong).toBe(
      `$${firstType.prices[firstType.cheapest_region]!.monthly_price.toFixed(2)}`,
    );
    for (const city of ['tokyo', 'seoul']) {
      expect(await firstRow.textContent()).toContain(
        `$${firstType.prices[city]!.monthly_price.toFixed(2)}`,
      );
    }

    await page.goBack();
    await expect.poll(() => search(page).get('available_in')).toBeNull();
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await expect.poll(() => search(page).get('city')).toBeNull();
    await expect
      .poll(() => rowTypes(page))
      .toEqual(first.data.instance_types.map((t) => t.instance_id));
    expect(problems).toEqual([]);
  });

  it('marks every city at the lowest price, fits five cities at 1440 px, keeps Instances filters', async () => {
    const { page, problems, id } = await keyedPage('/ui/?view=regions');
    await page.locator('table.data tbody tr').first().waitFor();
    const heads = await page.locator('table.data thead th').allTextContents();
    for (const city of ['Tokyo', 'Seoul', 'Osaka', 'Singapore', 'Hong Kong']) {
      expect(heads.filter((h) => h === city)).toHaveLength(1);
    }
    // Nothing off-screen sideways at 1440 px: the table fits its box.
    expect(
      await page.evaluate<number>(
        "(() => { const w = document.querySelector('.table-wrap'); return w.scrollWidth - w.clientWidth; })()",
      ),
    ).toBeLessThanOrEqual(0);

    const answer = await types('columns=city&limit=50&offset=0', id);
    const tie = answer.data.instance_types.findIndex(
      (t) =>
        Object.values(t.prices).filter(
          (p) => p.monthly_price === t.prices[t.cheapest_region]!.monthly_price,
        ).length > 1,
    );
    expect(tie).toBeGreaterThanOrEqual(0);
    const row = answer.data.instance_types[tie]!;
    const lowest = row.prices[row.cheapest_region]!.monthly_price;
    const equal = Object.values(row.prices).filter((p) => p.monthly_price === lowest).length;
    expect(
      await page.locator('table.data tbody tr').nth(tie).locator('td.cheapest-cell').count(),
    ).toBe(equal);

    // From Instances with filters, the Regions link keeps them; two cities are a comparison and
    // are kept too.
    const { page: instances } = await keyedPage('/ui/?provider=provider_b&city=seoul,osaka');
    await instances.locator('table.data tbody tr').first().waitFor();
    await instances.getByRole('link', { name: 'Regions', exact: true }).click();
    await expect.poll(() => search(instances).get('view')).toBe('regions');
    expect(search(instances).get('provider')).toBe('provider_b');
    expect(search(instances).get('city')).toBe('seoul,osaka');
    await expect
      .poll(() => instances.locator('table.data thead th').allTextContents())
      .toContain('Seoul');
    expect(await instances.locator('table.data thead th').allTextContents()).not.toContain('Tokyo');
    // One city is no comparison (every row its own cheapest, spread 0%): it is not carried.
    const { page: one } = await keyedPage('/ui/?provider=provider_b&city=tokyo');
    await one.locator('table.data tbody tr').first().waitFor();
    await one.getByRole('link', { name: 'Regions', exact: true }).click();
    await expect.poll(() => search(one).get('view')).toBe('regions');
    expect(search(one).get('provider')).toBe('provider_b');
    expect(search(one).get('city')).toBeNull();
    await expect
      .poll(() => one.locator('table.data thead th').allTextContents())
      .toEqual(expect.arrayContaining(['Seoul', 'Tokyo']));
    expect(problems).toEqual([]);
  });

  it('sorts by its column headers (aria-sort, the URL, the API order), by mouse and keyboard', async () => {
    const { page, problems, id } = await keyedPage('/ui/?view=regions&provider=provider_b');
    await page.locator('table.data tbody tr').first().waitFor();
    // The default order is the cheapest region's price, and its header says so.
    const sorted = page.locator('th[aria-sort]');
    await expect.poll(() => sorted.count()).toBe(1);
    expect(await sorted.textContent()).toContain('Cheapest');
    expect(await sorted.getAttribute('aria-sort')).toBe('ascending');

    await page.getByRole('button', { name: /^vCPU/ }).click();
    await expect.poll(() => search(page).get('sort')).toBe('vcpu');
    const byVcpu = await types('provider=provider_b&sort_by=vcpu&limit=50&offset=0', id);
    await expect
      .poll(() => rowTypes(page))
      .toEqual(byVcpu.data.instance_types.map((t) => t.instance_id));
    expect(await page.locator('th[aria-sort]').textContent()).toContain('vCPU');

    // The keyboard: focus the sorted header's button, Enter reverses the order.
    await page.getByRole('button', { name: /^vCPU/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => search(page).get('order')).toBe('desc');
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending');
    const desc = await types('provider=provider_b&sort_by=vcpu&order=desc&limit=50&offset=0', id);
    await expect
      .poll(() => rowTypes(page))
      .toEqual(desc.data.instance_types.map((t) => t.instance_id));
    // Space on another header sorts by it, ascending again.
    await page.getByRole('button', { name: /^Spread/ }).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => search(page).get('sort')).toBe('spread');
    expect(search(page).get('order')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('with one provider chosen, shows only the city columns (and checkboxes) it serves', async () => {
    const { page, problems } = await keyedPage('/ui/?view=regions&provider=provider_a');
    await page.locator('table.data tbody tr').first().waitFor();
    const heads = await page.locator('table.data thead th').allTextContents();
    for (const city of ['Tokyo', 'Osaka', 'Singapore']) expect(heads).toContain(city);
    for (const city of ['Seoul', 'Hong Kong']) {
      expect(heads).not.toContain(city);
      expect(await page.getByRole('checkbox', { name: city, exact: true }).count()).toBe(0);
    }
    // Every city cell of the first row holds a price or "not offered": none is a column of a
    // city the provider does not serve.
    expect(await page.locator('table.data tbody tr').first().locator('td.num').count()).toBe(
      2 + 3 + 3,
    );
    await page.getByRole('combobox', { name: 'Provider' }).selectOption('');
    await expect.poll(() => search(page).get('provider')).toBeNull();
    await expect
      .poll(async () => await page.locator('table.data thead th').allTextContents())
      .toContain('Hong Kong');
    expect(problems).toEqual([]);
  });
});

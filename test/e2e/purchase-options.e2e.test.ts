// Purchase options (D61, issue 33 item 5) in a real browser against a real server on the bundled
// catalogue: the option is chosen beside the currency, kept in the URL (reload, the menu), and
// every view prices by it: Instances and its CSV, Regions, the instance page (a table of every
// option and AWS's spot advice as AWS's figure, never a price), Compare and Recommend (which
// sends it). Axe at every width, light and dark, on each changed view.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface OptionPrice {
  hourly_price: number;
  monthly_price: number;
  observed_at: string;
}
interface SpotAdvice {
  interruption_band: string;
  savings_pct: number;
  observed_at: string;
  source: string;
}
interface Row {
  id: number;
  instance_id: string;
  provider: { name: string; display_name: string };
  vcpu: number;
  memory_mb: number;
  pricing: {
    hourly_price: number;
    monthly_price: number;
    monthly_price_per_vcpu: number | null;
    monthly_price_per_gb: number | null;
    purchase_option: string;
    options: Record<string, OptionPrice>;
    spot_advice: SpotAdvice | null;
  };
}
interface Recommendation {
  instance: string;
  price: { monthly: number; hourly: number; purchase_option: string };
}

const skip = chromiumMissing();
const usd = (n: number, decimals = 2) =>
  `$${n.toLocaleString('en', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;

describe.skipIf(skip !== undefined)('purchase options in the web UI', { timeout: 240_000 }, () => {
  const session = keyedSession('10.61.0.');
  const { keyedPage } = session;
  const search = (page: Page) => new URL(page.url()).searchParams;
  async function data<T>(pathAndQuery: string, id: string, body?: unknown): Promise<T> {
    const response = await session
      .server()
      .api(
        pathAndQuery,
        id,
        body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) },
      );
    expect(response.status, pathAndQuery).toBe(200);
    return ((await response.json()) as { data: T }).data;
  }
  async function loaded(page: Page): Promise<void> {
    await page.locator('table.data[aria-busy="false"]').first().waitFor();
    await expect
      .poll(() => page.locator('main p.status').first().textContent())
      .toMatch(/^(Showing|No instances)/);
  }
  /** The record as /history gives it priced by `option` (the API's per-vCPU/GiB figures). */
  async function optionRecord(id: number, option: string, client: string): Promise<Row> {
    return (
      await data<{ instance: Row }>(`/instances/${id}/history?purchase_option=${option}`, client)
    ).instance;
  }
  /** Compare's cells of the row labelled exactly `label` (the mark " differs" aside). */
  const compareCells = (page: Page) => (label: string) =>
    page
      .locator('table.compare tbody tr')
      .filter({ has: page.locator('th', { hasText: new RegExp(`^${label}( differs)?$`) }) })
      .locator('td');
  /** Tokyo c7i.xlarge: the record issue 33 names (reserved_1y 0.1482/h, 108.17/month). */
  async function tokyoC7i(id: string): Promise<Row> {
    const answer = await data<{ instances: Row[] }>(
      '/instances?provider=provider_c&q=c7i.xlarge&city=tokyo',
      id,
    );
    const row = answer.instances.find((r) => r.instance_id === 'c7i.xlarge');
    expect(row).toBeDefined();
    return row!;
  }

  it('Instances: choosing an option puts it in the URL, lists only records sold under it at its prices, survives a reload', async () => {
    const { page, problems, id } = await keyedPage('/ui/');
    await loaded(page);
    const select = page.getByLabel('Purchase option');
    expect(await select.inputValue()).toBe('on_demand');
    expect(await select.locator('option').allTextContents()).toEqual([
      'On-demand',
      'Spot',
      '1-year reserved',
      '3-year reserved',
      '1-year convertible',
      '3-year convertible',
    ]);
    await select.selectOption({ label: '1-year reserved' });
    await expect.poll(() => search(page).get('purchase_option')).toBe('reserved_1y');
    await loaded(page);
    const api = await data<{ instances: Row[]; pagination: { total: number } }>(
      '/instances?purchase_option=reserved_1y&limit=50&offset=0',
      id,
    );
    const onDemand = await data<{ pagination: { total: number } }>('/instances?limit=1', id);
    // Only records sold under it: fewer than all, the API's own count.
    expect(api.pagination.total).toBeLessThan(onDemand.pagination.total);
    await expect
      .poll(() => page.locator('main p.status').first().textContent())
      .toBe(`Showing 1–50 of ${api.pagination.total.toLocaleString('en')} instances`);
    // The price column says which option its figures are, and they are the option's.
    const header = page.locator('table.data thead th', { hasText: /^Price/ });
    expect(await header.textContent()).toContain('Price (USD / month, 1-year reserved)');
    const prices = await page.locator('table.data tbody td.card-price').allTextContents();
    expect(prices).toEqual(api.instances.map((r) => usd(r.pricing.monthly_price)));
    for (const r of api.instances) {
      expect(r.pricing.purchase_option).toBe('reserved_1y');
      expect(r.pricing.monthly_price).toBe(r.pricing.options['reserved_1y']!.monthly_price);
    }
    // Plainly said: only records sold under it; Linode and Vultr publish on-demand only.
    const note = page.locator('#purchase-option-meaning');
    expect(await note.textContent()).toContain('Only records sold as 1-year reserved are listed');
    expect(await note.textContent()).toContain('Linode and Vultr publish on-demand prices only');
    expect(await page.locator('table.data tbody', { hasText: 'Linode' }).count()).toBe(0);

    await page.reload();
    await loaded(page);
    expect(search(page).get('purchase_option')).toBe('reserved_1y');
    expect(await page.getByLabel('Purchase option').inputValue()).toBe('reserved_1y');
    expect(await page.locator('table.data tbody td.card-price').allTextContents()).toEqual(prices);
    expect(await checkAtEveryWidth(page, 'purchase-option-instances', () => loaded(page))).toEqual(
      [],
    );

    // Back to on-demand: the parameter leaves the URL (the default is left out).
    await page.getByLabel('Purchase option').selectOption({ label: 'On-demand' });
    await expect.poll(() => search(page).get('purchase_option')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('the keyboard alone reaches the selector from the currency and changes the option', async () => {
    const { page, problems } = await keyedPage('/ui/');
    await loaded(page);
    const currency = page.getByLabel('Currency', { exact: true });
    const select = page.getByLabel('Purchase option');
    const focused = async () => (await select.and(page.locator(':focus')).count()) === 1;
    await currency.focus();
    // Tab from the currency reaches the option selector (it sits beside it), in a few steps.
    for (let i = 0; i < 5 && !(await focused()); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focused()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => search(page).get('purchase_option')).toBe('spot');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => search(page).get('purchase_option')).toBe('reserved_1y');
    await loaded(page);
    expect(await select.inputValue()).toBe('reserved_1y');
    expect(problems).toEqual([]);
  });

  it('the menu carries the option to Regions and Recommend, not to Changes, and brings it back', async () => {
    const { page, problems, id } = await keyedPage(
      '/ui/?purchase_option=reserved_3y&provider=provider_c',
    );
    await loaded(page);
    const menu = page.getByRole('navigation', { name: 'Views' });
    await menu.getByRole('link', { name: 'Regions' }).click();
    await expect.poll(() => search(page).get('view')).toBe('regions');
    expect(search(page).get('purchase_option')).toBe('reserved_3y');
    expect(await page.getByLabel('Purchase option').inputValue()).toBe('reserved_3y');
    await page.locator('table.data[aria-busy="false"]').waitFor();
    const types = await data<{
      instance_types: { instance_id: string; min_monthly_price: number }[];
    }>(
      '/instance-types?provider=provider_c&columns=city&purchase_option=reserved_3y&limit=50&offset=0',
      id,
    );
    const first = page.locator('table.data tbody tr').first();
    expect(await first.locator('th').textContent()).toContain(types.instance_types[0]!.instance_id);
    expect(await first.textContent()).toContain(usd(types.instance_types[0]!.min_monthly_price));
    expect(
      await checkAtEveryWidth(page, 'purchase-option-regions', () =>
        page.locator('table.data[aria-busy="false"]').waitFor(),
      ),
    ).toEqual([]);

    await menu.getByRole('link', { name: 'Changes' }).click();
    await expect.poll(() => search(page).get('view')).toBe('changes');
    expect(search(page).get('purchase_option')).toBeNull();
    await menu.getByRole('link', { name: 'Instances' }).click();
    await expect.poll(() => search(page).get('view')).toBeNull();
    expect(search(page).get('purchase_option')).toBe('reserved_3y');
    await menu.getByRole('link', { name: 'Recommend' }).click();
    await expect.poll(() => search(page).get('view')).toBe('recommend');
    expect(search(page).get('purchase_option')).toBe('reserved_3y');
    expect(await page.getByLabel('Purchase option').inputValue()).toBe('reserved_3y');
    expect(problems).toEqual([]);
  });

  it('CSV download names the option of every row', async () => {
    const { page } = await keyedPage('/ui/?purchase_option=convertible_1y&q=c7i.xlarge');
    await loaded(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Download CSV/ }).click(),
    ]);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toContain('Price (USD / month, 1-year convertible)');
    expect(lines[0]).toContain(',Purchase option,');
    for (const line of lines.slice(1)) expect(line).toContain(',1-year convertible,');
  });

  it('the instance page: every option price with its date, the chosen one marked, spot advice as AWS’s figure', async () => {
    const probe = session.newClient();
    const record = await tokyoC7i(probe);
    const options = record.pricing.options;
    expect(options['reserved_1y']).toMatchObject({ hourly_price: 0.1482, monthly_price: 108.17 });
    const advice = record.pricing.spot_advice!;
    expect(advice).not.toBeNull();
    const { page, problems } = await keyedPage(
      `/ui/?view=instance&id=${record.id}&purchase_option=reserved_1y`,
    );
    const table = page.locator('table.option-prices');
    await table.waitFor();
    const rows: string[][] = [];
    for (const tr of await table.locator('tbody tr').all()) {
      rows.push((await tr.locator('th, td').allTextContents()).map((t) => t.trim()));
    }
    const labels: Record<string, string> = {
      on_demand: 'On-demand',
      reserved_1y: '1-year reserved',
      reserved_3y: '3-year reserved',
      convertible_1y: '1-year convertible',
      convertible_3y: '3-year convertible',
    };
    const sold = Object.keys(labels).filter((o) => options[o] !== undefined);
    expect(sold).toEqual(Object.keys(labels));
    expect(rows).toEqual(
      sold.map((o) => {
        const p = options[o]!;
        const od = options['on_demand']!.monthly_price;
        const change = ((p.monthly_price - od) / od) * 100;
        return [
          o === 'reserved_1y' ? `${labels[o]} · chosen` : labels[o],
          usd(p.hourly_price, 4),
          usd(p.monthly_price),
          o === 'on_demand' ? '—' : `${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}%`,
          p.observed_at.slice(0, 10),
        ];
      }),
    );
    expect(await table.locator('tr.is-chosen th').textContent()).toContain('1-year reserved');
    // AWS's figure, in AWS's words and dated, never a price.
    const adviceBox = page.locator('.spot-advice');
    const first = await adviceBox.locator('p').first().textContent();
    expect(first).toBe(
      `AWS Spot Instance Advisor: interruptions ${advice.interruption_band}, savings ${advice.savings_pct}% (observed ${advice.observed_at.slice(0, 10)})`,
    );
    expect(await adviceBox.textContent()).not.toMatch(/\$\d/);
    expect(await adviceBox.textContent()).toContain(advice.source);
    // The regions side by side are priced by the chosen option too.
    expect(await page.locator('#regions-title').textContent()).toContain('1-year reserved');
    const own = page.locator('table.data tbody tr', { hasText: 'this record' });
    expect(await own.textContent()).toContain('$108.17');
    // The record and its history are the option's (/history with purchase_option).
    const monthly = page.locator('.specs div', { hasText: /^Monthly, 1-year reserved/ });
    expect(await monthly.locator('dd').textContent()).toBe('$108.17');
    expect(await page.locator('h2', { hasText: 'Price history, 1-year reserved' }).count()).toBe(1);
    const periods = page.locator('.history-table tbody tr');
    expect(await periods.count()).toBeGreaterThan(0);
    for (const period of await periods.all()) {
      expect(await period.textContent()).toContain('$108.17');
    }
    // The chart draws each of the record's other options beside it, named in its legend.
    const legend = page.locator('ul[aria-label="Purchase options drawn"] li');
    await legend.first().waitFor();
    expect((await legend.allTextContents()).map((t) => t.trim())).toEqual([
      '1-year reserved',
      'On-demand',
      '3-year reserved',
      '1-year convertible',
      '3-year convertible',
    ]);
    expect(await page.locator('figure.chart > svg path.line-other').count()).toBe(4);
    expect(await page.locator('figure.chart desc').textContent()).toContain(
      'Also drawn: On-demand, now $164.03',
    );
    expect(
      await checkAtEveryWidth(page, 'purchase-option-instance', () => table.waitFor()),
    ).toEqual([]);

    // A Linode record is sold on-demand only: the page says so and prices on-demand.
    const linode = await data<{ instances: Row[] }>(
      '/instances?provider=provider_a&limit=1',
      probe,
    );
    await page.goto(
      `${session.server().url}/ui/?view=instance&id=${linode.instances[0]!.id}&purchase_option=reserved_1y`,
    );
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    expect(
      await page
        .locator('main .note', { hasText: 'does not sell this record as 1-year reserved' })
        .count(),
    ).toBe(1);
    expect(await page.locator('.spot-advice').count()).toBe(0);
    // Its history is the on-demand one (it has no periods of an option it is not sold under).
    expect(await page.locator('h2', { hasText: 'Price history, on-demand' }).count()).toBe(1);
    expect(await page.locator('.history-table tbody tr').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('Compare: the chosen option’s prices beside the on-demand ones, and spot advice where recorded', async () => {
    const probe = session.newClient();
    const record = await tokyoC7i(probe);
    const linode = (
      await data<{ instances: Row[] }>('/instances?provider=provider_a&limit=1', probe)
    ).instances[0]!;
    const { page, problems } = await keyedPage(
      `/ui/?view=compare&ids=${record.id},${linode.id}&purchase_option=reserved_3y`,
    );
    const table = page.locator('table.compare');
    await table.waitFor();
    const cells = compareCells(page);
    await expect
      .poll(() => cells('3-year reserved monthly').allTextContents())
      .toEqual([
        usd(record.pricing.options['reserved_3y']!.monthly_price),
        'not sold as 3-year reserved',
      ]);
    expect(await cells('3-year reserved hourly').allTextContents()).toEqual([
      usd(record.pricing.options['reserved_3y']!.hourly_price, 4),
      'not sold as 3-year reserved',
    ]);
    // Per unit too: the option's, and the Linode record says it is not sold so.
    const perVcpu = (await optionRecord(record.id, 'reserved_3y', probe)).pricing
      .monthly_price_per_vcpu;
    await expect
      .poll(() => cells('3-year reserved monthly per vCPU').allTextContents())
      .toEqual([usd(perVcpu!), 'not sold as 3-year reserved']);
    const a = record.pricing.spot_advice!;
    expect(await cells('AWS Spot Instance Advisor').allTextContents()).toEqual([
      `interruptions ${a.interruption_band}, savings ${a.savings_pct}% (observed ${a.observed_at.slice(0, 10)})`,
      'none recorded',
    ]);
    // The option is in the URL: changing it here changes the rows.
    await page.getByLabel('Purchase option').selectOption({ label: '1-year convertible' });
    await expect.poll(() => search(page).get('purchase_option')).toBe('convertible_1y');
    await expect
      .poll(() => cells('1-year convertible monthly').allTextContents())
      .toEqual([
        usd(record.pricing.options['convertible_1y']!.monthly_price),
        'not sold as 1-year convertible',
      ]);
    expect(await checkAtEveryWidth(page, 'purchase-option-compare', () => table.waitFor())).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });

  it('Compare: per vCPU and per GiB follow the chosen option, and so does the baseline percent', async () => {
    const probe = session.newClient();
    // Two AWS records of different sizes, both sold as 1-year reserved.
    const c7i = await tokyoC7i(probe);
    const other = (
      await data<{ instances: Row[] }>(
        '/instances?provider=provider_c&city=tokyo&q=m7i.2xlarge',
        probe,
      )
    ).instances.find((r) => r.instance_id === 'm7i.2xlarge')!;
    expect(other).toBeDefined();
    const { page, problems } = await keyedPage(
      `/ui/?view=compare&ids=${c7i.id},${other.id}&base=${c7i.id}`,
    );
    const table = page.locator('table.compare');
    await table.waitFor();
    const cells = compareCells(page);
    await expect.poll(() => cells('Monthly per vCPU, on-demand').count()).toBe(2);
    await page.getByLabel('Purchase option').selectOption({ label: '1-year reserved' });
    await expect.poll(() => search(page).get('purchase_option')).toBe('reserved_1y');
    // The on-demand per-unit rows give way to the option's.
    await expect.poll(() => cells('Monthly per vCPU, on-demand').count()).toBe(0);
    const expected = [];
    for (const r of [c7i, other]) {
      const priced = (await optionRecord(r.id, 'reserved_1y', probe)).pricing;
      const reserved = r.pricing.options['reserved_1y']!.monthly_price;
      // The API's figure is the reserved monthly price per vCPU (rounded once, from the exact
      // price: within half a cent of the rounded monthly price divided), not the on-demand one.
      expect(priced.purchase_option).toBe('reserved_1y');
      expect(Math.abs(priced.monthly_price_per_vcpu! - reserved / r.vcpu)).toBeLessThan(0.0051);
      expect(Math.abs(priced.monthly_price_per_gb! - reserved / (r.memory_mb / 1024))).toBeLessThan(
        0.0051,
      );
      expect(priced.monthly_price_per_vcpu).not.toBe(r.pricing.monthly_price_per_vcpu);
      expected.push(priced);
    }
    const figure = (texts: string[]) => texts.map((t) => t.replace(/ [+−].*$/s, ''));
    await expect
      .poll(async () => figure(await cells('1-year reserved monthly per vCPU').allTextContents()))
      .toEqual(expected.map((p) => usd(p.monthly_price_per_vcpu!)));
    expect(figure(await cells('1-year reserved monthly per GiB').allTextContents())).toEqual(
      expected.map((p) => usd(p.monthly_price_per_gb!)),
    );
    // The second record against the baseline (the first), in percent of the option's figures.
    const change =
      ((expected[1]!.monthly_price_per_vcpu! - expected[0]!.monthly_price_per_vcpu!) /
        expected[0]!.monthly_price_per_vcpu!) *
      100;
    const delta = cells('1-year reserved monthly per vCPU').nth(1).locator('.delta');
    // Its first word is the figure (then, for screen readers, "more/less than baseline").
    expect((await delta.textContent())!.trim().split(' ')[0]).toBe(
      `${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}%`,
    );
    expect(
      await checkAtEveryWidth(page, 'purchase-option-compare-units', () => table.waitFor()),
    ).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('Recommend sends the chosen option and every card says which option its price is', async () => {
    const probe = session.newClient();
    const body = { stack: ['nginx', 'mysql'], scale: 'small' };
    const answer = await data<{ recommendations: Recommendation[] }>('/recommend', probe, {
      ...body,
      purchase_option: 'reserved_1y',
    });
    const { page, problems } = await keyedPage('/ui/?view=recommend&stack=nginx,mysql');
    await page.getByLabel('Purchase option').selectOption({ label: '1-year reserved' });
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/recommend') && r.method() === 'POST'),
      page.getByRole('button', { name: 'Recommend', exact: true }).click(),
    ]);
    expect(JSON.parse(request.postData() ?? '{}')).toMatchObject({
      ...body,
      purchase_option: 'reserved_1y',
    });
    expect(search(page).get('purchase_option')).toBe('reserved_1y');
    const cards = page.locator('ol.cards > li');
    await expect.poll(() => cards.count()).toBe(answer.recommendations.length);
    expect(await page.locator('ol.cards h3').allTextContents()).toEqual(
      answer.recommendations.map((r) => r.instance),
    );
    for (const [i, r] of answer.recommendations.entries()) {
      expect(r.price.purchase_option).toBe('reserved_1y');
      const price = await cards.nth(i).locator('p.price').textContent();
      expect(price).toContain(`${usd(r.price.monthly)} / month`);
      expect(await cards.nth(i).locator('.option-tag').textContent()).toBe('1-year reserved');
    }
    // A card's record opens priced by the same option.
    expect(await cards.first().locator('h3 a').getAttribute('href')).toContain(
      'purchase_option=reserved_1y',
    );
    await page.reload();
    await expect.poll(() => cards.count()).toBe(answer.recommendations.length);
    expect(await page.getByLabel('Purchase option').inputValue()).toBe('reserved_1y');
    expect(
      await checkAtEveryWidth(page, 'purchase-option-recommend', () => cards.first().waitFor()),
    ).toEqual([]);
    expect(problems).toEqual([]);
  });
});

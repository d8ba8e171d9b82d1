// The instances view in a real browser against a real server: the URL drives the view (D50),
// filters change the URL and the rows, Back restores, export equals the API's answer, a wrong key
// returns to the prompt without losing the view (D49), and errors read as text.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAtEveryWidth,
  chromiumMissing,
  launchChromium,
  newContext,
  watchConsole,
} from './support/browser.js';
import { E2E_KEY, startUiServer, type UiServer } from './support/ui-server.js';

interface Row {
  id: number;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  provider: { name: string; display_name: string };
  pricing: { monthly_price: number };
}
interface InstancesAnswer {
  data: { instances: Row[]; pagination: { total: number } };
}

const skip = chromiumMissing();
let clients = 0;
const client = () => `10.77.0.${++clients}`;

describe.skipIf(skip !== undefined)('instances view', { timeout: 120_000 }, () => {
  let server: UiServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startUiServer(), launchChromium()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
  });

  /** A page with the key already stored (as after the prompt), on its own client address. */
  async function keyedPage(path = '/ui/'): Promise<{ page: Page; problems: string[]; id: string }> {
    const id = client();
    const context = await newContext(browser, id);
    contexts.push(context);
    await context.addInitScript((key) => sessionStorage.setItem('cloudprice.apiKey', key), E2E_KEY);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}${path}`);
    return { page, problems, id };
  }

  async function answer(query: string, id: string): Promise<InstancesAnswer> {
    const response = await server.api(`/instances?${query}`, id);
    expect(response.status).toBe(200);
    return (await response.json()) as InstancesAnswer;
  }

  const status = (page: Page) => page.locator('main p.status').first();
  async function loaded(page: Page): Promise<void> {
    await page.locator('table.data[aria-busy="false"]').waitFor();
    await expect.poll(() => status(page).textContent()).toMatch(/^(Showing|No instances)/);
  }
  const rowNames = (page: Page) => page.locator('table.data tbody th[scope=row]').allTextContents();
  const search = (page: Page) => new URL(page.url()).searchParams;

  it('shows the first page of the API answer, states the total, and passes axe at every width', async () => {
    const { page, problems, id } = await keyedPage();
    await loaded(page);
    const api = await answer('limit=50&offset=0', id);
    const names = await rowNames(page);
    expect(names).toHaveLength(api.data.instances.length);
    expect(names[0]).toContain(api.data.instances[0]!.instance_id);
    const total = api.data.pagination.total;
    expect(await page.locator('table.data').getAttribute('aria-rowcount')).toBe(String(total + 1));
    expect(await page.locator('table.data tbody tr').first().getAttribute('aria-rowindex')).toBe(
      '2',
    );
    expect(await status(page).textContent()).toBe(
      `Showing 1–50 of ${total.toLocaleString('en')} instances`,
    );
    expect(await checkAtEveryWidth(page, 'instances', () => loaded(page))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('filters change the URL and the rows; chips remove them; Back and Forward restore each state', async () => {
    const { page, id } = await keyedPage();
    await loaded(page);
    const unfiltered = await rowNames(page);

    await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption('provider_b');
    await expect.poll(() => search(page).get('provider')).toBe('provider_b');
    await loaded(page);
    const onlyB = await answer('provider=provider_b&limit=50&offset=0', id);
    await expect
      .poll(() => rowNames(page))
      .toEqual(
        onlyB.data.instances.map(
          (r) => expect.stringContaining(r.instance_id) as unknown as string,
        ),
      );
    expect(await status(page).textContent()).toContain(`of ${onlyB.data.pagination.total}`);

    await page.getByLabel('Min vCPU').fill('4');
    await expect.poll(() => search(page).get('min_vcpu')).toBe('4');
    await loaded(page);
    const bigB = await answer('provider=provider_b&min_vcpu=4&limit=50&offset=0', id);
    await expect
      .poll(() => page.locator('table.data tbody tr').count())
      .toBe(bigB.data.instances.length);
    expect(bigB.data.instances.every((r) => r.vcpu >= 4)).toBe(true);
    await expect
      .poll(() => page.getByRole('button', { name: 'Remove filter vCPU at least: 4' }).count())
      .toBe(1);

    await page.goBack();
    await expect.poll(() => search(page).get('min_vcpu')).toBeNull();
    await expect.poll(() => page.getByLabel('Min vCPU').inputValue()).toBe('');
    await expect
      .poll(() => page.locator('table.data tbody tr').count())
      .toBe(onlyB.data.instances.length);
    await page.goBack();
    await expect.poll(() => search(page).get('provider')).toBeNull();
    await expect.poll(() => rowNames(page)).toEqual(unfiltered);
    await page.goForward();
    await expect.poll(() => search(page).get('provider')).toBe('provider_b');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Provider', exact: true }).inputValue())
      .toBe('provider_b');

    await page.getByRole('button', { name: 'Remove filter Provider: Vultr' }).click();
    await expect.poll(() => search(page).get('provider')).toBeNull();
    await expect.poll(() => rowNames(page)).toEqual(unfiltered);
  });

  it('a copied URL reproduces the view: filters, sort, order, page, columns', async () => {
    const { page, id } = await keyedPage(
      '/ui/?instance_family=compute&sort=vcpu&order=desc&page=2&limit=25&cols=provider,vcpu,storage,monthly',
    );
    await loaded(page);
    const api = await answer(
      'instance_family=compute&sort_by=vcpu&order=desc&limit=25&offset=25',
      id,
    );
    await expect
      .poll(() => rowNames(page))
      .toEqual(
        api.data.instances.map((r) => expect.stringContaining(r.instance_id) as unknown as string),
      );
    const headers = await page.locator('table.data thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼◇]/g, '').trim())).toEqual([
      'Select',
      'Instance',
      'Provider',
      'vCPU',
      'Storage (GB)',
      'Monthly (USD)',
    ]);
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending');
  });

  it('sorting by a header sets aria-sort and the URL, and a second press reverses it', async () => {
    const { page, id } = await keyedPage();
    await loaded(page);
    await page.getByRole('button', { name: /^vCPU/ }).click();
    await expect.poll(() => search(page).get('sort')).toBe('vcpu');
    await expect
      .poll(() => page.locator('th[aria-sort]').getAttribute('aria-sort'))
      .toBe('ascending');
    await page.getByRole('button', { name: /^vCPU/ }).click();
    await expect.poll(() => search(page).get('order')).toBe('desc');
    await loaded(page);
    const api = await answer('sort_by=vcpu&order=desc&limit=50&offset=0', id);
    await expect
      .poll(() => rowNames(page))
      .toEqual(
        api.data.instances.map((r) => expect.stringContaining(r.instance_id) as unknown as string),
      );
  });

  it('pages with Next and Previous, and the keyboard reaches every control', async () => {
    const { page } = await keyedPage();
    await loaded(page);
    await page.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => search(page).get('page')).toBe('2');
    await expect.poll(() => status(page).textContent()).toMatch(/^Showing 51–100 of/);
    await page.getByRole('button', { name: 'Previous' }).press('Enter');
    await expect.poll(() => search(page).get('page')).toBeNull();
    // A row checkbox by keyboard: Space selects, the selection goes into the URL.
    const box = page.getByRole('checkbox', { name: /^Select / }).first();
    await box.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => search(page).get('sel')).toMatch(/^\d+$/);
  });

  it('copies exactly the shown rows and columns, with the API figures', async () => {
    const { page, id } = await keyedPage('/ui/?provider=provider_a&cols=vcpu,monthly&limit=25');
    await loaded(page);
    await page.getByRole('button', { name: 'Copy CSV' }).click();
    await expect.poll(() => page.getByText(/^Copied \d+ rows as CSV/).count()).toBe(1);
    const csv = await page.evaluate<string>('navigator.clipboard.readText()');
    const api = await answer('provider=provider_a&limit=25&offset=0', id);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Instance,vCPU,Monthly (USD)');
    expect(lines.slice(1)).toEqual(
      api.data.instances.map((r) => {
        const name =
          r.instance_name === r.instance_id
            ? r.instance_id
            : `${r.instance_name} (${r.instance_id})`;
        const cell = /[",]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;
        return `${cell},${r.vcpu},${r.pricing.monthly_price.toFixed(2)}`;
      }),
    );

    await page.getByRole('button', { name: 'Copy Markdown' }).click();
    await expect.poll(() => page.getByText(/^Copied \d+ rows as Markdown/).count()).toBe(1);
    const markdown = await page.evaluate<string>('navigator.clipboard.readText()');
    const mdLines = markdown.trimEnd().split('\n');
    expect(mdLines[0]).toBe('| Instance | vCPU | Monthly (USD) |');
    expect(mdLines[1]).toBe('| --- | ---: | ---: |');
    expect(mdLines).toHaveLength(api.data.instances.length + 2);
    expect(mdLines[2]).toContain(
      `| ${api.data.instances[0]!.vcpu} | ${api.data.instances[0]!.pricing.monthly_price.toFixed(2)} |`,
    );
  });

  it('says what is wrong with invalid filters in words, next to the control', async () => {
    const { page } = await keyedPage('/ui/?min_vcpu=8&max_vcpu=2');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Min vCPU is more than Max vCPU, so nothing can match. Lower Min vCPU or raise Max vCPU.',
    );
  });

  it('shows the wait when rate-limited', async () => {
    const id = client();
    // Spend this client's /instances budget for the current minute.
    const spent = await Promise.all(
      Array.from({ length: 100 }, () => server.api('/instances?limit=1', id)),
    );
    expect(spent.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const context = await newContext(browser, id);
    contexts.push(context);
    await context.addInitScript((key) => sessionStorage.setItem('cloudprice.apiKey', key), E2E_KEY);
    const page = await context.newPage();
    await page.goto(`${server.url}/ui/`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Rate limit reached: .* Try again in \d+ seconds?\./);
  });

  it('a wrong key returns to the prompt; the view in the URL survives a new key', async () => {
    const id = client();
    const context = await newContext(browser, id);
    contexts.push(context);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/ui/?provider=provider_c&sort=vcpu`);
    // No key yet: the prompt.
    await page.getByRole('textbox', { name: 'API key' }).fill('not-the-right-key-0000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('refused');
    expect(await page.getByRole('textbox', { name: 'API key' }).isVisible()).toBe(true);
    expect(search(page).get('provider')).toBe('provider_c');
    expect(await checkAtEveryWidth(page, 'key-prompt', async () => {})).toEqual([]);

    await page.getByRole('textbox', { name: 'API key' }).fill(E2E_KEY);
    await page.getByRole('button', { name: 'Continue' }).click();
    await loaded(page);
    expect(search(page).get('provider')).toBe('provider_c');
    const api = await answer('provider=provider_c&sort_by=vcpu&limit=50&offset=0', id);
    await expect
      .poll(() => rowNames(page))
      .toEqual(
        api.data.instances.map((r) => expect.stringContaining(r.instance_id) as unknown as string),
      );
    // Kept for this tab only unless "remember" was ticked.
    expect(await page.evaluate(() => localStorage.getItem('cloudprice.apiKey'))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('cloudprice.apiKey'))).toBe(E2E_KEY);
    expect(problems).toEqual([]);
  });
});

describe.skipIf(skip !== undefined)(
  'the first start that generates a key',
  { timeout: 120_000 },
  () => {
    let server: UiServer;
    let browser: Browser;
    beforeAll(async () => {
      [server, browser] = await Promise.all([startUiServer({ API_KEYS: '' }), launchChromium()]);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('prints a #key= link that opens the UI with the key stored and the fragment removed', async () => {
      const at = await server.process.line(/^Open the web UI: /);
      const messages = server.process.messages();
      const link = /^Open the web UI: (\S+)$/.exec(messages[at]!)![1]!;
      const generated = /Send it as X-API-Key: (\S+)$/.exec(
        messages.find((m) => m.startsWith('Generated an API key')) ?? '',
      )![1]!;
      expect(link).toBe(`${server.url}/ui/#key=${generated}`);
      // Issue 35 item 6: the line after it says what the link leaves behind, and the way round.
      expect(messages[at + 1]).toBe(
        `That link puts the key in your browser's history (the page clears the address bar, not the history). To leave no trace, open ${server.url}/ui/ and paste the key instead.`,
      );

      const context = await newContext(browser, client());
      const page = await context.newPage();
      await page.goto(link);
      await page.locator('table.data[aria-busy="false"]').waitFor();
      expect(new URL(page.url()).hash).toBe('');
      expect(await page.evaluate(() => sessionStorage.getItem('cloudprice.apiKey'))).toBe(
        generated,
      );
      expect(await page.locator('table.data tbody tr').count()).toBeGreaterThan(0);
      await context.close();
    });
  },
);

// Issue 32 item 6: what the price includes and the machine facts (D62, D63) wherever a price is
// shown. Each Instances row says its CPU ("Arm · burstable", Arm and burstable marked) and what
// the price includes ("EBS only · transfer billed"); the architecture filter goes into the URL
// and the API query; CoreMark per price sorts as the API does; the instance page and Compare
// name the CPU, its allocation, the CoreMark score and the observation date; Copy CSV carries
// the new columns. axe and screenshots at 1440, 768 and 375 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface Row {
  id: number;
  instance_id: string;
  cpu: { architecture: string | null; allocation: string | null };
  pricing: { observed_at: string };
  benchmark: { coremark: number; coremark_per_usd_month: number | null } | null;
}
interface InstancesAnswer {
  data: { instances: Row[]; pagination: { total: number } };
}

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)('machine facts (issue 32 item 6)', { timeout: 180_000 }, () => {
  const session = keyedSession('10.86.0.');
  const { keyedPage } = session;
  const search = (page: Page) => new URL(page.url()).searchParams;
  async function loaded(page: Page): Promise<void> {
    await page.locator('table.data[aria-busy="false"]').waitFor();
    await expect
      .poll(() => page.locator('main p.status').first().textContent())
      .toMatch(/^(Showing|No instances)/);
  }
  const cells = (page: Page, label: string) =>
    page.locator(`table.data tbody td[data-label="${label}"]`).allTextContents();
  const rowNames = (page: Page) => page.locator('table.data tbody th[scope=row]').allTextContents();
  async function api(path: string, id: string): Promise<InstancesAnswer> {
    const response = await session.server().api(path, id);
    expect(response.status).toBe(200);
    return (await response.json()) as InstancesAnswer;
  }

  it('t4g.nano rows read Arm and burstable, both marked, and EBS only with transfer billed', async () => {
    const { page, problems } = await keyedPage('/ui/?q=t4g.nano');
    await loaded(page);
    const cpu = await cells(page, 'CPU');
    expect(cpu.length).toBeGreaterThan(0);
    // Each mark carries its reason for screen readers; the visible words come first.
    expect(cpu.every((text) => /^Arm \(.*\) · burstable \(/.test(text))).toBe(true);
    const marks = page.locator('table.data tbody td[data-label="CPU"] .badge-mark');
    expect(await marks.count()).toBe(cpu.length * 2);
    expect(await marks.first().getAttribute('title')).toMatch(/support Arm/);
    const included = await cells(page, 'Included');
    expect(included.every((text) => /^EBS only \(.*\) · transfer billed \(/.test(text))).toBe(true);
    expect(problems).toEqual([]);
  });

  it('the architecture filter goes into the URL and the API query; every row is then Arm', async () => {
    const { page, id } = await keyedPage('/ui/');
    await loaded(page);
    const asked = page.waitForRequest((r) => /\/instances\?.*\barch=arm64\b/.test(r.url()));
    await page.getByRole('combobox', { name: 'Architecture' }).selectOption('arm64');
    await expect.poll(() => search(page).get('arch')).toBe('arm64');
    expect(new URL((await asked).url()).searchParams.get('arch')).toBe('arm64');
    await loaded(page);
    const answer = await api('/instances?arch=arm64&limit=50&offset=0', id);
    expect(answer.data.instances.every((r) => r.cpu.architecture === 'arm64')).toBe(true);
    await expect
      .poll(() => rowNames(page))
      .toEqual(
        answer.data.instances.map(
          (r) => expect.stringContaining(r.instance_id) as unknown as string,
        ),
      );
    expect((await cells(page, 'CPU')).every((text) => text.startsWith('Arm'))).toBe(true);
    expect(
      await page.getByRole('button', { name: 'Remove filter Architecture: Arm' }).count(),
    ).toBe(1);

    await page.getByRole('combobox', { name: 'CPU allocation' }).selectOption('burstable');
    await expect.poll(() => search(page).get('cpu_allocation')).toBe('burstable');
    await loaded(page);
    await expect
      .poll(async () => (await cells(page, 'CPU')).every((t) => /^Arm .* · burstable/.test(t)))
      .toBe(true);
  });

  it('CoreMark per price sorts as the API does (coremark_per_price), and CoreMark by coremark', async () => {
    const { page, id } = await keyedPage('/ui/?cols=provider,coremark,coremark_price,price');
    await loaded(page);
    const header = page.getByRole('button', { name: /^CoreMark per USD\/month/ });
    await header.click();
    await expect.poll(() => search(page).get('sort')).toBe('coremark_price');
    await header.click();
    await expect.poll(() => search(page).get('order')).toBe('desc');
    await loaded(page);
    const best = await api(
      '/instances?sort_by=coremark_per_price&order=desc&limit=50&offset=0',
      id,
    );
    await expect
      .poll(() => rowNames(page))
      .toEqual(
        best.data.instances.map((r) => expect.stringContaining(r.instance_id) as unknown as string),
      );
    const perPrice = best.data.instances.map((r) => r.benchmark?.coremark_per_usd_month ?? 0);
    expect(perPrice).toEqual([...perPrice].sort((a, b) => b - a));
    expect(perPrice[0]).toBeGreaterThan(0);

    await page.getByRole('button', { name: /^CoreMark\b(?! per)/ }).click();
    await expect.poll(() => search(page).get('sort')).toBe('coremark');
    await loaded(page);
    const fastest = await api('/instances?sort_by=coremark&limit=50&offset=0', id);
    await expect
      .poll(() => cells(page, 'CoreMark'))
      .toEqual(
        fastest.data.instances.map((r) =>
          r.benchmark === null ? '' : r.benchmark.coremark.toLocaleString('en'),
        ),
      );
  });

  it('the instance page and a Compare of two records name the CPU, allocation, CoreMark and observation date', async () => {
    const probe = session.newClient();
    const nano = (await api('/instances?q=t4g.nano&limit=1', probe)).data.instances[0]!;
    const linode = (await api('/instances?provider=provider_a&limit=1', probe)).data.instances[0]!;
    const { page, problems } = await keyedPage(`/ui/?view=instance&id=${nano.id}`);
    const specs = page.locator('dl.specs');
    await specs.waitFor();
    const spec = (term: string) =>
      specs.locator('div').filter({ has: page.getByText(term, { exact: true }) });
    expect(await spec('CPU').locator('dd').textContent()).toMatch(/^Arm .*· burstable/);
    expect(await spec('CPU model').locator('dd').textContent()).toContain('Neoverse');
    expect(await spec('Included in the price').locator('dd').textContent()).toMatch(/^EBS only/);
    expect(await spec('CoreMark').locator('dd').textContent()).toContain(
      nano.benchmark!.coremark.toLocaleString('en'),
    );
    expect(await spec('Price observed').locator('time').getAttribute('datetime')).toBe(
      nano.pricing.observed_at,
    );

    await page.goto(`${session.server().url}/ui/?view=compare&ids=${nano.id},${linode.id}`);
    const table = page.locator('table.data');
    await table.locator('tbody tr').first().waitFor();
    // The row's header is the label, followed by " differs" where the values differ.
    const row = (label: string) =>
      table
        .locator('tbody tr')
        .filter({ has: page.locator('th', { hasText: new RegExp(`^${label}( differs)?$`) }) });
    expect(await row('CPU').locator('td').allTextContents()).toEqual([
      expect.stringMatching(/^Arm .*· burstable/) as unknown as string,
      expect.stringMatching(/· shared$/) as unknown as string,
    ]);
    expect(await row('CoreMark').locator('td').allTextContents()).toEqual([
      nano.benchmark!.coremark.toLocaleString('en'),
      'not recorded',
    ]);
    expect(
      await row('Price observed')
        .locator('time')
        .evaluateAll((ts) => ts.length),
    ).toBe(2);
    expect(await checkAtEveryWidth(page, 'machine-facts-compare', () => table.waitFor())).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });

  it('Recommend: architecture, allocation and order go into the request; each card names its CPU, CoreMark and observation date', async () => {
    const { page, problems, id } = await keyedPage('/ui/?view=recommend');
    await page.getByRole('button', { name: 'nginx', exact: true }).click();
    await page.getByRole('combobox', { name: 'Architecture' }).selectOption('arm64');
    await page.getByRole('combobox', { name: 'CPU allocation' }).selectOption('burstable');
    await page.getByRole('combobox', { name: 'Order by' }).selectOption('performance_per_price');
    const asked = page.waitForRequest((r) => r.url().endsWith('/recommend'));
    await page.getByRole('button', { name: 'Recommend', exact: true }).click();
    const body = (await asked).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      arch: ['arm64'],
      cpu_allocation: ['burstable'],
      rank_by: 'performance_per_price',
    });
    expect(search(page).get('arch')).toBe('arm64');
    const response = await session.server().api('/recommend', id, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    const answer = (
      (await response.json()) as {
        data: {
          recommendations: (Row & { instance: string; observed_at: string })[];
        };
      }
    ).data.recommendations;
    expect(answer.length).toBeGreaterThan(0);
    const cards = page.locator('ol.cards > li');
    await expect.poll(() => cards.count()).toBe(answer.length);
    // The order asked for is the order described.
    expect(
      await page.getByText(/^By CoreMark per USD of monthly price, highest first/).count(),
    ).toBe(1);
    for (const [i, r] of answer.entries()) {
      const card = cards.nth(i);
      expect(await card.locator('h3').textContent()).toBe(r.instance);
      const facts = (await card.locator('.card-facts').textContent()) ?? '';
      expect(facts).toMatch(/^CPU: Arm .*· burstable/);
      if (r.benchmark !== null) {
        expect(facts).toContain(`CoreMark ${r.benchmark.coremark.toLocaleString('en')}`);
      }
      expect(await card.locator('.observed-line time').getAttribute('datetime')).toBe(
        r.observed_at,
      );
    }
    expect(
      await checkAtEveryWidth(page, 'machine-facts-recommend', () => cards.first().waitFor()),
    ).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('Copy CSV carries the CPU, what the price includes and CoreMark; every width passes axe', async () => {
    const { page, problems } = await keyedPage(
      '/ui/?q=t4g.nano&cols=provider,cpu,included,coremark,price,observed',
    );
    await loaded(page);
    await page.getByRole('button', { name: 'Copy CSV' }).click();
    await expect.poll(() => page.locator('.export .status').textContent()).toMatch(/^Copied/);
    const csv = await page.evaluate<string>('navigator.clipboard.readText()');
    const [header, first] = csv.split('\r\n');
    expect(header).toBe('Instance,Provider,CPU,Included,CoreMark,Price (USD / month),Observed');
    expect(first).toMatch(/^t4g\.nano,AWS,Arm · burstable,EBS only · transfer billed,\d+,/);

    await page.goto(`${session.server().url}/ui/`);
    await loaded(page);
    expect(await checkAtEveryWidth(page, 'machine-facts-instances', () => loaded(page))).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });
});

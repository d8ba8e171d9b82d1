// Issues 24 and 25 in a real browser against a real server: Changes opens on price changes with
// a total, newest first, and counts a first import in one line; the instance page's history
// chart starts at the price's observation; every price in the instance page, Compare and
// Recommend says when it was observed (Compare says when two were observed far apart); each
// recommendation says why it has its rank, and narrows by city and provider. Axe at every width.
// Vultr is read from a copy of its bundled snapshot, so the test can change prices and sync.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VULTR = mkdtempSync(path.join(tmpdir(), 'cloudprice-e2e-vultr-'));
cpSync(path.join(ROOT, 'data/snapshots/provider_b'), VULTR, { recursive: true });

interface DataSource {
  observed_at: string;
  source: string;
  stale: boolean;
  age_days: number;
}
interface Health {
  components: { providers: { name: string; data_source: DataSource | null }[] };
}
interface Row {
  id: number;
  instance_id: string;
  region: { region_name: string };
  provider: { name: string; display_name: string };
  pricing: { observed_at: string; monthly_price: number };
}
interface Change {
  id: number;
  at: string;
  sync_id: string;
  kind: string;
  instance: { instance_id: string };
  new: { monthly_price: number } | null;
}
interface Recommendation {
  rank: number;
  instance: string;
  provider: string;
  region_code: string;
  instance_id: string;
  price: { monthly: number };
  score_breakdown: Record4;
  pros: string[];
  cons: string[];
}
type Record4 = { memory_fit: number; vcpu_fit: number; price_fit: number; storage_fit: number };

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)(
  'views explained: changes, observation dates, recommendations',
  { timeout: 240_000 },
  () => {
    const session = keyedSession('10.25.0.', { PROVIDER_B_URL: `file://${VULTR}/` });
    const { keyedPage } = session;
    afterAll(() => rmSync(VULTR, { recursive: true, force: true }));
    async function json<T>(pathAndQuery: string, id: string, body?: unknown): Promise<T> {
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
    async function sources(id: string): Promise<Map<string, DataSource>> {
      const health = (await (await session.server().api('/health', id)).json()) as Health;
      return new Map(health.components.providers.map((p) => [p.name, p.data_source!]));
    }
    const search = (page: Page) => new URL(page.url()).searchParams;

    it('changes: price changes newest first with their total; the first import in one line', async () => {
      const { page, problems, id } = await keyedPage('/ui/?view=changes&currency=JPY');
      const status = page.locator('main p.status').first();
      // The dated AWS recordings' one price change (D64) is there from the start.
      await expect
        .poll(() => status.textContent())
        .toBe('1 price change in the whole history: 0 up, 1 down. Newest first.');
      // Vultr changes two prices (one up, one down) and drops a plan; then a sync.
      const file = path.join(VULTR, 'plans.json');
      const plans = JSON.parse(readFileSync(file, 'utf8')) as {
        plans: { id: string; monthly_cost: number; hourly_cost: number }[];
      };
      const plan = (planId: string) => plans.plans.find((p) => p.id === planId)!;
      plan('vc2-1c-1gb').monthly_cost = 6;
      plan('vc2-1c-1gb').hourly_cost = 0.009;
      plan('vc2-2c-4gb').monthly_cost = 18;
      plan('vc2-2c-4gb').hourly_cost = 0.025;
      plans.plans = plans.plans.filter((p) => p.id !== 'vhf-1c-1gb');
      writeFileSync(file, JSON.stringify(plans));
      await json('/sync', id, { providers: ['provider_b'], force: true });
      // A later sync raises one more: its rows come first.
      plan('vc2-4c-8gb').monthly_cost += 4;
      writeFileSync(file, JSON.stringify(plans));
      await json('/sync', id, { providers: ['provider_b'], force: true });

      const feed = async (kind: string) =>
        (
          await json<{ changes: Change[] }>(
            `/changes?kind=${kind}&limit=500&currency=JPY&since=2000-01-01`,
            id,
          )
        ).changes;
      const ups = await feed('price_increased');
      const downs = await feed('price_decreased');
      expect(ups.length).toBeGreaterThan(0);
      expect(downs.length).toBeGreaterThan(0);
      const total = ups.length + downs.length;
      // The view asks once per page: newest first, with the total (ADR 0022).
      const asked: URLSearchParams[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('/changes')) asked.push(url.searchParams);
      });
      await page.reload();
      await expect
        .poll(() => status.textContent())
        .toBe(
          `${total} price changes in the whole history: ${ups.length} up, ${downs.length} down. Newest first.`,
        );
      const rows = page.locator('table.data tbody tr');
      await expect.poll(() => rows.count()).toBe(total);
      expect(asked.map((q) => [q.get('kind'), q.get('order'), q.get('summary')])).toEqual([
        ['price_increased,price_decreased', 'newest', 'true'],
      ]);
      // Newest first: the times in the last column never rise down the table.
      const latest = ups.filter((c) => c.instance.instance_id === 'vc2-4c-8gb');
      expect(latest.length).toBeGreaterThan(0);
      const names = await page.locator('table.data tbody th[scope=row] a').allTextContents();
      // Each row names its provider and region under the instance.
      for (const place of await page.locator('table.data tbody .change-place').allTextContents()) {
        expect(place).toMatch(
          /^(Vultr · (Seoul|Tokyo|Osaka) \((icn|nrt|itm)\)|AWS · Seoul \(ap-northeast-2\))$/,
        );
      }
      expect(names.slice(0, latest.length).every((n) => n.endsWith('(vc2-4c-8gb)'))).toBe(true);
      expect(names.slice(latest.length).some((n) => n.endsWith('(vc2-4c-8gb)'))).toBe(false);
      const when = await page.locator('table.data tbody td:last-child').allTextContents();
      expect([...when].sort().reverse()).toEqual(when);
      // In the chosen currency, as the API gives it.
      expect(await page.locator('table.data thead').textContent()).toContain('After (JPY/month)');
      const sixDollars = ups.find((c) => c.instance.instance_id === 'vc2-1c-1gb')!;
      expect(await rows.filter({ hasText: 'vc2-1c-1gb' }).first().textContent()).toContain(
        `¥${Math.round(sixDollars.new!.monthly_price).toLocaleString('en')}`,
      );
      expect(await checkAtEveryWidth(page, 'changes-prices', () => rows.first().waitFor())).toEqual(
        [],
      );

      // On request: additions and removals, one line per sync and kind.
      await page.getByRole('link', { name: 'Also show additions and removals' }).click();
      await expect.poll(() => search(page).get('show')).toBe('all');
      const lines = page.locator('ul.membership > li');
      const removed = await feed('removed');
      // The removal, the fill's Linode and Vultr additions, then AWS's recorded additions at
      // their recordings' dates (D64), newest first.
      await expect.poll(() => lines.count()).toBe(9);
      expect(await lines.nth(0).textContent()).toMatch(
        new RegExp(`^Removed ${removed.length} records? removed \\(no longer offered\\) on `),
      );
      expect(await lines.nth(1).textContent()).toContain('132 records added on ');
      expect(await lines.nth(2).textContent()).toContain('62 records added on 2025-03-27');
      expect(await lines.nth(8).textContent()).toContain('2,284 records added on 2024-02-21');
      // A small group lists its records on request, with one query for that sync and kind.
      asked.length = 0;
      await lines.nth(0).locator('summary').click();
      await expect.poll(() => lines.nth(0).locator('a').count()).toBe(removed.length);
      expect(asked.map((q) => [q.get('kind'), q.get('sync_id')])).toEqual([
        ['removed', removed[0]!.sync_id],
      ]);
      expect(await checkAtEveryWidth(page, 'changes-all', () => lines.first().waitFor())).toEqual(
        [],
      );
      expect(problems).toEqual([]);
    });

    it('instance page: the chart starts at the observation date, and says where the price is from', async () => {
      const probe = session.newClient();
      const [record] = (
        await json<{ instances: Row[] }>('/instances?provider=provider_a&limit=1', probe)
      ).instances;
      const source = (await sources(probe)).get('provider_a')!;
      const observed = record!.pricing.observed_at.slice(0, 10);
      expect(observed).toBe(source.observed_at.slice(0, 10));
      const { page, problems } = await keyedPage(`/ui/?view=instance&id=${record!.id}`);
      const chart = page.locator('figure.chart');
      await chart.waitFor();
      // The x axis starts at the observation, which the specs say too.
      expect(await chart.locator('svg text.tick').allTextContents()).toContain(observed);
      const ticks = chart.locator('svg > text.tick');
      const xs: [string, number][] = [];
      for (const tick of await ticks.all()) {
        xs.push([(await tick.textContent()) ?? '', Number(await tick.getAttribute('x'))]);
      }
      const dates = xs.filter(([text]) => /^\d{4}-\d{2}-\d{2}$/.test(text));
      expect(dates.sort((a, b) => a[1] - b[1])[0]![0]).toBe(observed);
      expect(await chart.locator('.chart-legend').textContent()).toContain(
        `price observed upstream on ${observed}`,
      );
      const specs = page.locator('.specs div', { hasText: /^Price observed/ }).locator('dd');
      expect(await specs.textContent()).toBe(
        `${observed} (${source.age_days.toLocaleString('en')} days ago) stale`,
      );
      await expect.poll(() => page.locator('p.provenance').textContent()).toContain(source.source);
      expect(await checkAtEveryWidth(page, 'instance-observed', () => chart.waitFor())).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('compare: each column says when and where its price was observed, and warns when far apart', async () => {
      const probe = session.newClient();
      const one = async (provider: string) =>
        (await json<{ instances: Row[] }>(`/instances?provider=${provider}&limit=2`, probe))
          .instances;
      const [vultr] = await one('provider_b');
      const [aws, aws2] = await one('provider_c');
      const all = await sources(probe);
      const { page, problems } = await keyedPage(`/ui/?view=compare&ids=${vultr!.id},${aws!.id}`);
      const observedRow = page.locator('table.compare tbody tr', { hasText: 'Price observed' });
      await observedRow.waitFor();
      const vDay = vultr!.pricing.observed_at.slice(0, 10);
      const aDay = aws!.pricing.observed_at.slice(0, 10);
      expect(await observedRow.locator('td').allTextContents()).toEqual([
        `${vDay} (${all.get('provider_b')!.age_days.toLocaleString('en')} days ago) stale`,
        `${aDay} (${all.get('provider_c')!.age_days.toLocaleString('en')} days ago) stale`,
      ]);
      // Each column's head says it too, in view before any scrolling.
      const heads = page.locator('table.compare thead th .small');
      expect(await heads.allTextContents()).toEqual([
        expect.stringContaining(`Vultr · ${vultr!.region.region_name} · observed ${vDay}`),
        expect.stringContaining(`AWS · ${aws!.region.region_name} · observed ${aDay}`),
      ]);
      const sourceRow = page.locator('table.compare tbody tr', { hasText: 'Price source' });
      expect(await sourceRow.locator('td').allTextContents()).toEqual([
        all.get('provider_b')!.source,
        all.get('provider_c')!.source,
      ]);
      const apart = Math.floor(
        (Date.parse(vultr!.pricing.observed_at) - Date.parse(aws!.pricing.observed_at)) /
          86_400_000,
      );
      expect(await page.locator('p.observed-apart').textContent()).toBe(
        `Prices observed far apart. AWS on ${aDay} and Vultr on ${vDay} (${apart} days apart). A price may have changed since it was observed: compare with care.`,
      );
      expect(
        await checkAtEveryWidth(page, 'compare-observed', () => observedRow.waitFor()),
      ).toEqual([]);
      // Two prices observed together: no warning.
      await page.goto(`${session.server().url}/ui/?view=compare&ids=${aws!.id},${aws2!.id}`);
      await observedRow.waitFor();
      expect(await page.locator('p.observed-apart').count()).toBe(0);
      expect(problems).toEqual([]);
    });

    it('recommend: every rank explained (fits, cost against rank 1, observed), narrowed by city and provider', async () => {
      const probe = session.newClient();
      const all = await sources(probe);
      const body = { stack: ['nginx', 'nodejs', 'postgresql'], scale: 'medium', budget_max: 60 };
      const answer = await json<{ recommendations: Recommendation[] }>('/recommend', probe, body);
      const { page, problems } = await keyedPage(
        '/ui/?view=recommend&stack=nginx,nodejs,postgresql&scale=medium&budget=60&go=1',
      );
      const cards = page.locator('ol.cards > li');
      await expect.poll(() => cards.count()).toBe(answer.recommendations.length);
      const first = answer.recommendations[0]!;
      for (const [i, r] of answer.recommendations.entries()) {
        const card = cards.nth(i);
        const figures = await card.locator('.fit-figure').allTextContents();
        const b = r.score_breakdown;
        expect(figures).toEqual(
          [b.memory_fit, b.vcpu_fit, b.price_fit, b.storage_fit].map((f) => f.toFixed(2)),
        );
        expect(await card.locator('.fits dt').allTextContents()).toEqual([
          'Memory fit',
          'vCPU fit',
          'Price fit',
          'Storage fit',
        ]);
        // The API's own words.
        for (const text of [...r.pros, ...r.cons]) {
          expect(await card.locator('.pros-cons li', { hasText: text }).count()).toBe(1);
        }
        const against = (await card.locator('.against-first').textContent()) ?? '';
        const difference = r.price.monthly - first.price.monthly;
        if (i === 0) expect(against).toMatch(/^Rank 1/);
        else if (difference === 0) expect(against).toBe('Same monthly price as rank 1');
        else {
          const sign = difference > 0 ? '+' : '−';
          const pct = Math.abs((difference / first.price.monthly) * 100).toFixed(1);
          expect(against).toBe(
            `${sign}$${Math.abs(difference).toFixed(2)}/month (${sign}${pct}%) against rank 1`,
          );
        }
        const source = all.get(r.provider)!;
        expect(await card.locator('.observed-line').textContent()).toBe(
          `Price observed ${source.observed_at.slice(0, 10)} (${source.age_days.toLocaleString('en')} days ago)${source.stale ? ' stale' : ''}`,
        );
      }
      expect(
        await checkAtEveryWidth(page, 'recommend-explained', () => cards.first().waitFor()),
      ).toEqual([]);

      // Narrow without leaving the view: Vultr in Seoul.
      await page.getByRole('checkbox', { name: 'Vultr', exact: true }).check();
      await page.getByRole('checkbox', { name: 'Seoul', exact: true }).check();
      await page.getByRole('button', { name: 'Recommend', exact: true }).click();
      await expect.poll(() => search(page).get('provider')).toBe('provider_b');
      expect(search(page).get('city')).toBe('seoul');
      const narrowed = await json<{ recommendations: Recommendation[] }>('/recommend', probe, {
        ...body,
        providers: ['provider_b'],
        cities: ['seoul'],
      });
      expect(narrowed.recommendations.length).toBeGreaterThan(0);
      await expect
        .poll(() => page.locator('ol.cards h3').allTextContents())
        .toEqual(narrowed.recommendations.map((r) => r.instance));
      for (const line of await page.locator('ol.cards > li > p.card-specs').allTextContents()) {
        expect(line).toMatch(/^Vultr · Seoul \(icn\) · /);
      }
      expect(problems).toEqual([]);
    });
  },
);

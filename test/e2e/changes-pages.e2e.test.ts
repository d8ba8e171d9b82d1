// Issue 24 (ADR 0022) in a real browser against a real server: the Changes view pages price
// changes newest first with one GET /changes request per page, following the feed's cursors,
// and a link to a later page reaches it. Vultr is read from a copy of its bundled snapshot, so
// the test can reprice every plan three times (more than two pages of price changes) and sync.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VULTR = mkdtempSync(path.join(tmpdir(), 'cloudprice-e2e-vultr-pages-'));
cpSync(path.join(ROOT, 'data/snapshots/provider_b'), VULTR, { recursive: true });
const PAGE_SIZE = 50;

interface Change {
  kind: string;
  instance: { id: number };
}

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)('changes: pages by cursor', { timeout: 240_000 }, () => {
  const session = keyedSession('10.26.0.', { PROVIDER_B_URL: `file://${VULTR}/` });
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
  /** The /changes requests the page makes from now on, as their query parameters. */
  function watch(page: Page): URLSearchParams[] {
    const asked: URLSearchParams[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/changes')) asked.push(url.searchParams);
    });
    return asked;
  }
  const shownIds = async (page: Page) =>
    (
      await page
        .locator('table.data tbody th[scope=row] a')
        .evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href))
    ).map((href) => Number(new URL(href).searchParams.get('id')));

  it('one request per page, newest first, Next and Previous by cursor; a link to the last page reaches it', async () => {
    const id = session.newClient();
    const file = path.join(VULTR, 'plans.json');
    const plans = JSON.parse(readFileSync(file, 'utf8')) as {
      plans: { monthly_cost: number; hourly_cost: number }[];
    };
    for (const by of [3, -5, 4]) {
      for (const plan of plans.plans) {
        plan.monthly_cost += by;
        plan.hourly_cost = Math.round((plan.monthly_cost / 730) * 10_000) / 10_000;
      }
      writeFileSync(file, JSON.stringify(plans));
      await json('/sync', id, { providers: ['provider_b'], force: true });
    }
    const feed = (
      await json<{ changes: Change[] }>(
        '/changes?kind=price_increased,price_decreased&order=newest&limit=500&since=2000-01-01',
        id,
      )
    ).changes;
    const ups = feed.filter((c) => c.kind === 'price_increased').length;
    expect(feed.length).toBeGreaterThan(2 * PAGE_SIZE);
    expect(feed.length).toBeLessThanOrEqual(500);

    const { page, problems } = await session.keyedPage('/ui/?view=changes');
    const asked = watch(page);
    const status = page.locator('main p.status').first();
    const totalText = `${feed.length} price changes in the whole history: ${ups} up, ${feed.length - ups} down. Newest first.`;
    await expect.poll(() => status.textContent()).toBe(totalText);
    // Counted on a fresh load, once the first one has settled.
    asked.length = 0;
    await page.reload();
    await expect.poll(() => status.textContent()).toBe(totalText);
    const ids = feed.map((c) => c.instance.id);
    await expect.poll(() => shownIds(page)).toEqual(ids.slice(0, PAGE_SIZE));
    expect(asked.map((q) => q.get('cursor'))).toEqual([null]);
    const pages = Math.ceil(feed.length / PAGE_SIZE);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    expect(await pager.textContent()).toContain(`Page 1 of ${pages}`);

    await pager.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => shownIds(page)).toEqual(ids.slice(PAGE_SIZE, 2 * PAGE_SIZE));
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(asked).toHaveLength(2);
    expect(asked[1]!.get('cursor')).not.toBeNull();

    await pager.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => shownIds(page)).toEqual(ids.slice(0, PAGE_SIZE));
    expect(asked).toHaveLength(3);
    expect(asked[2]!.get('cursor')).toBeNull();

    // A shared link to the last page: its cursor is learnt from the pages before it, once each.
    const linked = await session.keyedPage(`/ui/?view=changes&page=${pages}`);
    const walked = watch(linked.page);
    const lastPage = ids.slice((pages - 1) * PAGE_SIZE);
    await expect.poll(() => shownIds(linked.page)).toEqual(lastPage);
    // Counted on a fresh load, once the first one has settled: one request per page on the way.
    walked.length = 0;
    await linked.page.reload();
    await expect.poll(() => shownIds(linked.page)).toEqual(lastPage);
    expect(walked.map((q) => q.get('cursor') === null)).toEqual([
      true,
      ...Array<boolean>(pages - 1).fill(false),
    ]);
    expect(await linked.page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain(
      `Page ${pages} of ${pages}`,
    );
    expect(problems).toEqual([]);
    expect(linked.problems).toEqual([]);
  });
});

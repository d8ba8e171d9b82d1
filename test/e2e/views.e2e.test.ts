// Recommend and Status in a real browser against a real server: the recommend round trip through
// the URL (D50), the sync button and its result, axe and screenshots at every width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAtEveryWidth, chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

interface RecommendAnswer {
  data: {
    requirements: { min_memory_mb: number; min_vcpu: number };
    recommendations: { rank: number; instance: string; match_score: number; pros: string[] }[];
  };
}

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)('recommend and status views', { timeout: 120_000 }, () => {
  const session = keyedSession('10.78.0.');
  const { keyedPage } = session;
  const search = (page: Page) => new URL(page.url()).searchParams;

  it('recommend: chips, scale and budget go into the URL, and the results equal the API answer', async () => {
    const { page, problems, id } = await keyedPage('/ui/?view=recommend');
    await page.getByRole('button', { name: 'nginx' }).click();
    await page.getByRole('button', { name: 'postgresql' }).click();
    expect(
      await page.getByRole('button', { name: 'postgresql' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await page.getByRole('radio', { name: 'medium' }).check();
    await page.getByLabel(/Monthly budget/).fill('20');
    await page.getByRole('button', { name: 'Recommend', exact: true }).click();
    await expect.poll(() => search(page).get('stack')).toBe('nginx,postgresql');
    expect(search(page).get('scale')).toBe('medium');
    expect(search(page).get('budget')).toBe('20');

    const response = await session.server().api('/recommend', id, {
      method: 'POST',
      body: JSON.stringify({ stack: ['nginx', 'postgresql'], scale: 'medium', budget_max: 20 }),
    });
    const api = (await response.json()) as RecommendAnswer;
    const cards = page.locator('ol.cards > li');
    await expect.poll(() => cards.count()).toBe(api.data.recommendations.length);
    const titles = await page.locator('ol.cards h3').allTextContents();
    expect(titles).toEqual(api.data.recommendations.map((r) => r.instance));
    const scores = await page.locator('ol.cards .score').allTextContents();
    // Seen as "90/100"; read by a screen reader as "Match score 90 of 100" (no aria-label on a span).
    expect(scores).toEqual(
      api.data.recommendations.map((r) => `Match score ${r.match_score}/100 of 100`),
    );
    expect(await page.locator('ol.cards > li').first().textContent()).toContain(
      api.data.recommendations[0]!.pros[0] ?? '',
    );
    expect(await page.locator('main').textContent()).toContain(
      `${api.data.requirements.min_vcpu} vCPU`,
    );
    expect(await checkAtEveryWidth(page, 'recommend', () => cards.first().waitFor())).toEqual([]);

    // Back returns to the empty form; Forward brings the same results back from the URL.
    await page.goBack();
    await expect.poll(() => search(page).get('stack')).toBeNull();
    await expect.poll(() => cards.count()).toBe(0);
    await page.goForward();
    await expect.poll(() => cards.count()).toBe(api.data.recommendations.length);
    expect(await page.getByRole('button', { name: 'nginx' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(problems).toEqual([]);
  });

  it('status: per-provider freshness from /health, and a sync with its result', async () => {
    const { page, problems, id } = await keyedPage('/ui/?view=status');
    const health = (await (await session.server().api('/health', id)).json()) as {
      components: { providers: { name: string; status: string }[] };
    };
    const rows = page.locator('table.data tbody tr');
    await expect.poll(() => rows.count()).toBe(health.components.providers.length);
    for (const [i, provider] of health.components.providers.entries()) {
      expect(await rows.nth(i).textContent()).toContain(provider.status);
    }
    expect(await checkAtEveryWidth(page, 'status', () => rows.first().waitFor())).toEqual([]);

    await page.getByRole('checkbox', { name: 'AWS' }).uncheck();
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    const result = page.locator('.sync-result');
    await result.waitFor({ timeout: 60_000 });
    const text = (await result.textContent()) ?? '';
    expect(text).toMatch(/Sync sync_\d+_[a-z0-9]+: succeeded/);
    expect(text).toContain('Linode:');
    expect(text).toContain('Vultr:');
    expect(text).not.toContain('AWS:');
    expect(problems).toEqual([]);
  });
});

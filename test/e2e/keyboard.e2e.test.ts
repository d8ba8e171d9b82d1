// A keyboard walk of every view in a real browser: Tab reaches every control of the view (one stop
// per radio group), each focused control shows a visible focus ring (:focus-visible with a 2 px or
// wider outline), Shift+Tab walks the same stops backwards, and the keys each view's controls use
// work: Enter and Space sort and press, Escape closes a menu and gives focus back to its button,
// arrows move between radio buttons.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './support/browser.js';
import { keyedSession } from './support/keyed-session.js';

const skip = chromiumMissing();

/** Numbers every control a keyboard user should reach (data-kb, with its markup), in order. */
const MARK = `(() => {
  const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')];
  const expected = [];
  const radioGroups = new Set();
  all.forEach((el, i) => {
    el.setAttribute('data-kb', String(i));
    if (el.disabled || el.tabIndex < 0 || el.getClientRects().length === 0) return;
    // Inside a closed disclosure only its summary can be reached.
    const closed = el.closest('details:not([open])');
    if (closed !== null && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) return;
    if (el.type === 'radio') {
      if (radioGroups.has(el.name)) return;
      const checked = all.find((r) => r.type === 'radio' && r.name === el.name && r.checked);
      radioGroups.add(el.name);
      const stop = checked ?? el;
      expected.push([stop.getAttribute('data-kb'), stop.outerHTML.slice(0, 80)]);
      return;
    }
    expected.push([String(i), el.outerHTML.slice(0, 80)]);
  });
  return expected;
})()`;

/** The focused control's number, and whether its focus ring can be seen. */
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (el === null || el === document.body) return null;
  const style = getComputedStyle(el);
  const ring = el.matches(':focus-visible') && style.outlineStyle !== 'none' &&
    parseFloat(style.outlineWidth) >= 2;
  const name = (el.getAttribute('aria-label') || el.textContent || el.id || el.tagName).trim().slice(0, 50);
  return { kb: el.getAttribute('data-kb'), ring, name };
})()`;

interface Stop {
  kb: string | null;
  ring: boolean;
  name: string;
}

/** Tabs from the top of the page until focus leaves it or comes round again. */
async function walk(page: Page): Promise<{ expected: [string, string][]; stops: Stop[] }> {
  const expected = await page.evaluate<[string, string][]>(MARK);
  await page.evaluate(
    'document.activeElement && document.activeElement.blur && document.activeElement.blur()',
  );
  const stops: Stop[] = [];
  // A date input takes a Tab per field (month, day, year): room for those, and the same control
  // twice in a row counts once.
  for (let i = 0; i < expected.length * 3 + 10; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate<Stop | null>(FOCUSED);
    if (stop === null || stop.kb === stops[0]?.kb) break;
    if (stop.kb !== stops.at(-1)?.kb) stops.push(stop);
  }
  return { expected, stops };
}

/** Everything was reached, each stop showed its ring, and Shift+Tab retraces the last stops. */
async function expectFullWalk(page: Page): Promise<Stop[]> {
  const { expected, stops } = await walk(page);
  const reached = new Set(stops.map((s) => s.kb));
  expect(expected.filter(([kb]) => !reached.has(kb)).map(([, html]) => html)).toEqual([]);
  expect(stops.filter((s) => !s.ring).map((s) => s.name)).toEqual([]);
  // The walk ended past the last stop (focus left the page or came round to the first), so the
  // first Shift+Tab lands on the last stop, the next on the one before, and so on.
  const back = Math.min(stops.length, 12);
  let previous: string | null | undefined;
  for (let i = 1; i <= back; i++) {
    let stop: Stop | null;
    do {
      await page.keyboard.press('Shift+Tab');
      stop = await page.evaluate<Stop | null>(FOCUSED);
    } while (stop !== null && stop.kb === previous);
    previous = stop?.kb;
    expect(stop?.kb).toBe(stops[stops.length - i]!.kb);
  }
  return stops;
}

async function focusByKeyboard(page: Page, name: RegExp | string): Promise<void> {
  // Tab until the named control has focus (as a keyboard user would), at most 200 presses.
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate<Stop | null>(FOCUSED);
    if (stop !== null && (typeof name === 'string' ? stop.name === name : name.test(stop.name)))
      return;
  }
  throw new Error(`no control named ${String(name)} reached by Tab`);
}

describe.skipIf(skip !== undefined)('keyboard walk of every view', { timeout: 180_000 }, () => {
  const session = keyedSession('10.81.0.');
  const search = (page: Page) => new URL(page.url()).searchParams;

  it('instances: every control reached with a visible ring; sort by Enter, menu closes on Escape', async () => {
    const { page, problems } = await session.keyedPage('/ui/?limit=25');
    await page.locator('table.data[aria-busy="false"] tbody tr').first().waitFor();
    const stops = await expectFullWalk(page);
    expect(stops[0]!.name).toBe('Skip to content');

    await page.evaluate('document.activeElement.blur()');
    await focusByKeyboard(page, /^Memory \(GiB\)/);
    await page.keyboard.press('Enter');
    await expect.poll(() => search(page).get('sort')).toBe('memory');
    await expect
      .poll(() => page.locator('th[aria-sort]').getAttribute('aria-sort'))
      .toBe('ascending');

    await page.evaluate('document.activeElement.blur()');
    await focusByKeyboard(page, 'Columns');
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox', { name: 'Storage (GB)' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    // Space on the first checkbox (Provider, shown by default) hides that column.
    await expect
      .poll(() => search(page).get('cols'))
      .toBe('region,vcpu,memory,cpu,included,gpu,price,observed');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('details.columns[open]').count()).toBe(0);
    expect((await page.evaluate<Stop | null>(FOCUSED))?.name).toBe('Columns');
    expect(problems).toEqual([]);
  });

  it('regions, changes and status: every control reached with a visible ring', async () => {
    for (const [path, ready] of [
      ['/ui/?view=regions&provider=provider_a', 'table.data tbody tr'],
      ['/ui/?view=changes&since=2020-01-01', 'main p.status[aria-busy="false"]'],
      ['/ui/?view=status', 'table.data tbody tr'],
    ] as const) {
      const { page, problems } = await session.keyedPage(path);
      await page.locator(ready).first().waitFor();
      await expectFullWalk(page);
      expect(problems).toEqual([]);
    }
  });

  it('recommend: arrows move between the scale radios, Space presses a stack chip', async () => {
    const { page, problems } = await session.keyedPage('/ui/?view=recommend');
    await page.getByRole('button', { name: 'nginx' }).waitFor();
    await expectFullWalk(page);
    await page.evaluate('document.activeElement.blur()');
    await focusByKeyboard(page, 'nginx');
    await page.keyboard.press('Space');
    expect(await page.getByRole('button', { name: 'nginx' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const checked = () =>
      page.evaluate<string | null>(
        `document.querySelector('input[name="scale"]:checked')?.value ?? null`,
      );
    const before = await checked();
    await page.locator('input[name="scale"]:checked').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(checked).not.toBe(before);
    expect(problems).toEqual([]);
  });

  it('compare and the instance page: every control reached; Space sets the baseline', async () => {
    const probe = session.newClient();
    const list = (await (
      await session.server().api('/instances?provider=provider_c&limit=2', probe)
    ).json()) as { data: { instances: { id: number }[] } };
    const ids = list.data.instances.map((r) => r.id);
    const { page, problems } = await session.keyedPage(`/ui/?view=compare&ids=${ids.join(',')}`);
    await page.locator('table.compare tbody tr').first().waitFor();
    await expectFullWalk(page);
    await page.evaluate('document.activeElement.blur()');
    await focusByKeyboard(page, /^Set baseline/);
    await page.keyboard.press('Space');
    await expect.poll(() => search(page).get('base')).toBe(String(ids[0]));

    const record = await session.keyedPage(`/ui/?view=instance&id=${ids[0]}`);
    await record.page.getByRole('img', { name: /Price history/ }).waitFor();
    await expectFullWalk(record.page);
    expect([...problems, ...record.problems]).toEqual([]);
  });
});

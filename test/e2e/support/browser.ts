// Debian's Chromium driven by playwright-core (no browser download, ever), plus the checks every
// view gets: axe-core with zero violations in light and dark mode, no CSP violation in the
// console, no horizontal page scroll, and screenshots at 1440, 768 and 375 px, light and dark,
// under test-results/screenshots/ (CI artifacts).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');
export const CHROMIUM = '/usr/bin/chromium';
export const WIDTHS = [1440, 768, 375] as const;

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} not found (apt-get install -y chromium)`;
  // CI must run these suites: there a missing browser is a failure, not a skip.
  if (process.env['CI'] === 'true') throw new Error(reason);
  console.warn(`browser tests SKIPPED: ${reason}`);
  return reason;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh context (its own storage) whose requests carry `X-Test-Client: <client>`: the server
 * under test trusts that header as the client address, so each test has its own rate-limit
 * counters and none can starve another.
 */
export async function newContext(browser: Browser, client: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    extraHTTPHeaders: { 'x-test-client': client },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  return context;
}

/** Console messages about blocked content (CSP) or failed scripts, collected per page. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core's violations on the page as it is now (WCAG 2.x A and AA rules plus best practice). */
export async function axeViolations(page: Page): Promise<string[]> {
  // page.evaluate runs through the DevTools protocol, which the page's CSP does not govern, so
  // the test does not have to weaken the CSP under test.
  await page.evaluate(AXE_SOURCE);
  // A string, not a function: these suites compile without the DOM library.
  const violations = await page.evaluate<AxeViolation[]>(
    'axe.run().then((result) => result.violations)',
  );
  return violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => JSON.stringify(n.target))
        .join(', ')}`,
  );
}

/** Width of the page beyond the viewport (0 = no horizontal page scroll). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
}

/**
 * At each width: full-page screenshots `<name>-<width>.png` and `<name>-<width>-dark.png`, axe in
 * both colour schemes, and the overflow check.
 * Returns the problems found (empty when all is well).
 */
export async function checkAtEveryWidth(
  page: Page,
  name: string,
  ready: () => Promise<void>,
): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await ready();
    // Light and dark (prefers-color-scheme): axe's contrast rules see each palette.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({
        path: path.join(SCREENSHOT_DIR, `${name}-${width}${scheme === 'dark' ? '-dark' : ''}.png`),
        fullPage: true,
      });
      for (const violation of await axeViolations(page)) {
        problems.push(`${width}px ${scheme}: ${violation}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const overflow = await horizontalOverflow(page);
    if (overflow > 0) problems.push(`${width}px: page scrolls sideways by ${overflow}px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return problems;
}

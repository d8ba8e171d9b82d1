// One UI server and one Chromium per suite, and pages that start with the API key already in
// sessionStorage, each from its own client address (so rate limits never couple two tests).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, newContext, watchConsole } from './browser.js';
import { E2E_KEY, startUiServer, type UiServer } from './ui-server.js';

export interface KeyedPage {
  readonly page: Page;
  /** Console errors and failed requests seen by the page. */
  readonly problems: string[];
  /** The client address the page's requests come from. */
  readonly id: string;
}

export interface KeyedSession {
  /** The running server; valid inside tests (after beforeAll). */
  readonly server: () => UiServer;
  readonly keyedPage: (path: string) => Promise<KeyedPage>;
  /** A client address no page or request of this suite has used yet. */
  readonly newClient: () => string;
}

/**
 * Registers the suite's beforeAll/afterAll; `addressPrefix` is e.g. "10.79.0."; `env` adds to
 * the server's environment.
 */
export function keyedSession(
  addressPrefix: string,
  env: Record<string, string> = {},
): KeyedSession {
  let server: UiServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let clients = 0;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startUiServer(env), launchChromium()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
  });

  const started = (): { server: UiServer; browser: Browser } => {
    if (server === undefined || browser === undefined) throw new Error('suite not started');
    return { server, browser };
  };

  const newClient = () => `${addressPrefix}${++clients}`;

  return {
    server: () => started().server,
    newClient,
    keyedPage: async (path) => {
      const { server: s, browser: b } = started();
      const id = newClient();
      const context = await newContext(b, id);
      contexts.push(context);
      await context.addInitScript(
        (key) => sessionStorage.setItem('cloudprice.apiKey', key),
        E2E_KEY,
      );
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${s.url}${path}`);
      return { page, problems, id };
    },
  };
}

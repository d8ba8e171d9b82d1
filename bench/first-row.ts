// npm run bench:first-row — how soon a person sees the first result (issue 36): a cold load of
// the Instances view (`/ui/#key=…`, a new browser context each run: no cache, no storage) in
// Debian's Chromium, timed from the navigation's start to the first row of the table in the
// DOM (a MutationObserver installed before the page's scripts run). Desktop as it is, then
// Lighthouse's "slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) with the CPU
// four times slower (Chrome DevTools Protocol throttling). The server is `src/main.ts` as
// `npm start` runs it on the bundled snapshots (test/e2e/support/ui-server.ts).
// Targets: median ≤ 500 ms on the desktop, ≤ 2,500 ms throttled. Writes its section of
// docs/performance.md.
import { chromium, type Browser } from 'playwright-core';
import { E2E_KEY, startUiServer } from '../test/e2e/support/ui-server.js';
import { machineLine, uptime, writeSection } from './support/report.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const CHROME_PATH = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';
const PROFILES = [
  { name: 'desktop', target: 500, throttled: false },
  { name: 'slow 4G, CPU ÷4', target: 2_500, throttled: true },
] as const;

/** Resolves in the page with the ms since navigation start when the first row appears. */
const WATCH_FIRST_ROW = `
  window.__firstRow = new Promise((resolve) => {
    const seen = () => document.querySelector('table.data tbody tr') !== null;
    const observer = new MutationObserver(() => {
      if (seen()) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(document, { childList: true, subtree: true });
  });`;

async function firstRowMs(browser: Browser, url: string, throttled: boolean): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    if (throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    }
    await page.addInitScript(WATCH_FIRST_ROW);
    await page.goto(url, { waitUntil: 'commit' });
    return await page.evaluate<number>('window.__firstRow');
  } finally {
    await context.close();
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const server = await startUiServer();
const browser = await chromium.launch({
  executablePath: CHROME_PATH,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const loadBefore = uptime();
const results: { name: string; target: number; runs: number[] }[] = [];
try {
  const url = `${server.url}/ui/#key=${E2E_KEY}`;
  // One load first, so the server's own first-request work is not counted as the page's.
  await firstRowMs(browser, url, false);
  for (const profile of PROFILES) {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await firstRowMs(browser, url, profile.throttled));
    results.push({ name: profile.name, target: profile.target, runs });
  }
} finally {
  await browser.close();
  await server.stop();
}
const loadAfter = uptime();
const lines = results.map((r) => {
  const m = median(r.runs);
  const verdict = m <= r.target ? 'PASS' : 'MISS';
  return `- ${r.name}: median **${Math.round(m)} ms** to the first row, ${verdict} (target ≤ ${r.target} ms); runs ${r.runs.map((v) => Math.round(v)).join(', ')} ms`;
});
const version = browser.version();
writeSection(
  'first-row',
  `## Web UI: first row on a cold load (issue 36)

Command: \`npm run bench:first-row\` (\`bench/first-row.ts\`): the server as \`npm start\` runs it on
the bundled snapshots, Chromium ${version} (\`${CHROME_PATH}\`, headless) with a new context per
run (cold: no cache, no storage), \`/ui/#key=…\` at 1440 × 900; the time from the navigation's
start to the first \`table.data tbody tr\` in the DOM, ${RUNS} runs per profile after one
unmeasured load. Throttled: Chrome DevTools Protocol \`Network.emulateNetworkConditions\` (150 ms
latency, 1.6 Mbit/s down, 750 kbit/s up: Lighthouse's slow 4G) and
\`Emulation.setCPUThrottlingRate\` 4. ${machineLine()}. Load average (\`uptime\`) at the start:
${loadBefore}; at the end: ${loadAfter}.

${lines.join('\n')}`,
);
console.log(lines.join('\n'));
if (results.some((r) => median(r.runs) > r.target)) process.exitCode = 1;

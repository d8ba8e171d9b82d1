// Lighthouse on the web UI's instances view (issue 12): accessibility must be 100 and
// performance at least 90. The real server (`src/main.ts`, as `npm start` runs it, on a
// temporary data directory and the built UI) is audited by the `lighthouse` CLI with Debian's
// Chromium (CHROME_PATH, read by chrome-launcher; Lighthouse never downloads a browser). The
// page gets its key from the `#key=` link (D49), as after a first start. Mobile preset with
// Lighthouse's simulated throttling; three runs, the median performance score counts.
// Writes its section of docs/performance.md. Usage: npm run bench:ui
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_KEY, startUiServer } from '../test/e2e/support/ui-server.js';
import { machineLine, writeSection } from './support/report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROME_PATH = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';
const RUNS = 3;

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; score: number | null; title: string }>;
  environment: { benchmarkIndex: number };
}

// The same server the browser tests use: `src/main.ts` as `npm start` runs it, UI built.
const server = await startUiServer();
const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-lighthouse-'));
const reports: Report[] = [];
const loads: string[] = [];
try {
  const target = `${server.url}/ui/#key=${E2E_KEY}`;
  for (let run = 1; run <= RUNS; run++) {
    const out = path.join(dataDir, `report-${run}.json`);
    execFileSync(
      path.join(ROOT, 'node_modules/.bin/lighthouse'),
      [
        target,
        '--only-categories=performance,accessibility',
        '--output=json',
        `--output-path=${out}`,
        '--chrome-flags=--headless --no-sandbox --disable-gpu',
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    reports.push(JSON.parse(readFileSync(out, 'utf8')) as Report);
    loads.push(loadavg()[0]!.toFixed(1));
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const score = (r: Report, c: string) => Math.round((r.categories[c]?.score ?? 0) * 100);
const ms = (r: Report, a: string) => Math.round(r.audits[a]?.numericValue ?? NaN);
const lines = [
  '| run | performance | accessibility | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms | Lighthouse benchmarkIndex | load average (1 min) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...reports.map(
    (r, i) =>
      `| ${i + 1} | ${score(r, 'performance')} | ${score(r, 'accessibility')} | ${ms(r, 'first-contentful-paint')} | ${ms(r, 'largest-contentful-paint')} | ${ms(r, 'total-blocking-time')} | ${(r.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)} | ${ms(r, 'speed-index')} | ${Math.round(r.environment.benchmarkIndex)} | ${loads[i]} |`,
  ),
];
const performance = reports.map((r) => score(r, 'performance')).sort((a, b) => a - b);
const median = performance[Math.floor(performance.length / 2)]!;
const accessibility = Math.min(...reports.map((r) => score(r, 'accessibility')));
const pass = median >= 90 && accessibility === 100;
const { version } = JSON.parse(
  readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8'),
) as { version: string };
const chromium = execFileSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).trim();

writeSection(
  'lighthouse',
  `## Web UI: Lighthouse on the instances view (issue 12)

Command: \`npm run bench:ui\` (\`bench/lighthouse-ui.ts\`): builds the UI if needed, starts
\`src/main.ts\` on a temporary data directory (bundled snapshots), and runs the \`lighthouse\` CLI
${RUNS} times on \`/ui/#key=…\` (the instances view, first page of 50 rows) with
\`CHROME_PATH=${CHROME_PATH}\` and \`--chrome-flags="--headless --no-sandbox --disable-gpu"\`,
mobile preset, simulated throttling. Lighthouse ${version}, ${chromium}; ${machineLine()}.

${lines.join('\n')}

Median performance **${median}** (target ≥ 90), accessibility **${accessibility}** (target 100):
${pass ? 'both met' : 'NOT met'}.`,
);
console.log(lines.join('\n'));
console.log(
  `median performance ${median}, accessibility ${accessibility}: ${pass ? 'ok' : 'FAILED'}`,
);
if (!pass) process.exitCode = 1;

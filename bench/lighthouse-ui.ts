// Lighthouse on every view of the web UI (issues 12, 24 and 36):
// accessibility and best practices must be 100 and the median performance at least 95 on each. The real server (`src/main.ts`, as `npm start` runs it, on a
// temporary data directory and the built UI) is audited by the `lighthouse` CLI with Debian's
// Chromium (CHROME_PATH, read by chrome-launcher; Lighthouse never downloads a browser). The
// page gets its key from the `#key=` link (D49), as after a first start. Mobile preset with
// Lighthouse's simulated throttling; three runs of each view, the median performance counts.
//
// `--baseline <dir>` also audits another build of the UI (e.g. `dist/web` of an older commit,
// copied aside), served by a second server, alternating run by run with the current build, so
// both see the same machine load: a before/after comparison in one run.
// Writes its section of docs/performance.md. Usage: npm run bench:ui [-- --baseline <dir>]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_KEY, startUiServer, type UiServer } from '../test/e2e/support/ui-server.js';
import { machineLine, uptime, writeSection } from './support/report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROME_PATH = process.env['CHROME_PATH'] ?? '/usr/bin/chromium';
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const baselineAt = process.argv.indexOf('--baseline');
const baselineDir = baselineAt > 0 ? path.resolve(process.argv[baselineAt + 1] ?? '') : undefined;

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; score: number | null; title: string }>;
  environment: { benchmarkIndex: number };
}
/** Every view of the page (issue 36: 100/100/100 on each): Compare with three records. */
const VIEWS = [
  { name: 'instances', path: '/ui/' },
  { name: 'regions', path: '/ui/?view=regions' },
  { name: 'compare', path: '/ui/?view=compare&ids=1,2,3' },
  { name: 'instance', path: '/ui/?view=instance&id=1' },
  { name: 'recommend', path: '/ui/?view=recommend' },
  { name: 'changes', path: '/ui/?view=changes' },
  { name: 'status', path: '/ui/?view=status' },
] as const;
const TARGET = 95;

interface Run {
  readonly view: string;
  readonly build: string;
  readonly report: Report;
  readonly load: string;
}

// The same server the browser tests use: `src/main.ts` as `npm start` runs it, UI built.
const servers: { build: string; server: UiServer }[] = [
  { build: 'current', server: await startUiServer() },
];
if (baselineDir !== undefined) {
  servers.unshift({ build: 'baseline', server: await startUiServer({ WEB_DIR: baselineDir }) });
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-lighthouse-'));
const runs: Run[] = [];
const loadBefore = uptime();
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const view of VIEWS) {
      for (const { build, server } of servers) {
        const out = path.join(dataDir, `report-${view.name}-${build}-${run}.json`);
        execFileSync(
          path.join(ROOT, 'node_modules/.bin/lighthouse'),
          [
            `${server.url}${view.path}#key=${E2E_KEY}`,
            '--only-categories=performance,accessibility,best-practices',
            '--output=json',
            `--output-path=${out}`,
            '--chrome-flags=--headless --no-sandbox --disable-gpu',
            '--quiet',
          ],
          { env: { ...process.env, CHROME_PATH }, stdio: ['ignore', 'ignore', 'inherit'] },
        );
        runs.push({
          view: view.name,
          build,
          report: JSON.parse(readFileSync(out, 'utf8')) as Report,
          load: loadavg()[0]!.toFixed(1),
        });
      }
    }
  }
} finally {
  await Promise.all(servers.map(({ server }) => server.stop()));
  rmSync(dataDir, { recursive: true, force: true });
}
const loadAfter = uptime();

const score = (r: Report, c: string) => Math.round((r.categories[c]?.score ?? 0) * 100);
const ms = (r: Report, a: string) => Math.round(r.audits[a]?.numericValue ?? NaN);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const lines = [
  '| run | view | build | performance | accessibility | best practices | FCP ms | LCP ms | TBT ms | CLS | Speed Index ms | Lighthouse benchmarkIndex | load average (1 min) |',
  '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...runs.map(
    ({ view, build, report: r, load }, i) =>
      `| ${Math.floor(i / (servers.length * VIEWS.length)) + 1} | ${view} | ${build} | ${score(r, 'performance')} | ${score(r, 'accessibility')} | ${score(r, 'best-practices')} | ${ms(r, 'first-contentful-paint')} | ${ms(r, 'largest-contentful-paint')} | ${ms(r, 'total-blocking-time')} | ${(r.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)} | ${ms(r, 'speed-index')} | ${Math.round(r.environment.benchmarkIndex)} | ${load} |`,
  ),
];
const summary = (build: string, view: string) => {
  const mine = runs.filter((r) => r.build === build && r.view === view).map((r) => r.report);
  return {
    performance: median(mine.map((r) => score(r, 'performance'))),
    accessibility: Math.min(...mine.map((r) => score(r, 'accessibility'))),
    bestPractices: Math.min(...mine.map((r) => score(r, 'best-practices'))),
    medians: ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time']
      .map((a) => median(mine.map((r) => ms(r, a))))
      .join(' / '),
  };
};
const current = VIEWS.map((v) => ({ view: v.name, ...summary('current', v.name) }));
const pass = current.every(
  (c) => c.performance >= TARGET && c.accessibility === 100 && c.bestPractices === 100,
);
const { version } = JSON.parse(
  readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8'),
) as { version: string };
const chromium = execFileSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).trim();
const describe = (build: string) =>
  VIEWS.map((v) => {
    const s = summary(build, v.name);
    return `${v.name}: median performance **${s.performance}**, accessibility **${s.accessibility}**, best practices **${s.bestPractices}**, median FCP / LCP / TBT ms ${s.medians}`;
  }).join('; ');
const baselineLine =
  baselineDir === undefined
    ? ''
    : `\nBaseline (another build of the UI, \`--baseline\`, served by a second server and audited
alternately with the current one): ${describe('baseline')}.`;

writeSection(
  'lighthouse',
  `## Web UI: Lighthouse on every view (issues 12, 24 and 36)

Command: \`npm run bench:ui\` (\`bench/lighthouse-ui.ts\`${baselineDir === undefined ? '' : ' with `--baseline <dir>`'}): builds the UI if needed, starts
\`src/main.ts\` on a temporary data directory (bundled snapshots), and runs the \`lighthouse\` CLI
${RUNS} times on each of ${VIEWS.map((v) => `\`${v.path}#key=…\``).join(', ')} with
\`CHROME_PATH=${CHROME_PATH}\` and \`--chrome-flags="--headless --no-sandbox --disable-gpu"\`,
mobile preset, simulated throttling. Lighthouse ${version}, ${chromium}; ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadBefore}; at the end: ${loadAfter}.

${lines.join('\n')}

Current build (targets: median performance ≥ ${TARGET}, accessibility and best practices 100 on each view):
${describe('current')}: ${pass ? 'targets met' : 'NOT met'}.${baselineLine}`,
);
console.log(lines.join('\n'));
console.log(`current: ${describe('current')}: ${pass ? 'ok' : 'FAILED'}`);
if (!pass) process.exitCode = 1;

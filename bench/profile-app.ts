// npx tsx bench/profile-app.ts <new-filter|cached|recommend|recommend-new-budget|mcp> [catalogue] — where the app spends
// its CPU under one bench's load, run as shipped (bench/support/shipped-server.ts) under
// `node --cpu-prof`: wrk for 5 s to warm up, then BENCH_SECONDS (10) more, every request from a
// new client address; then the functions and the code owners with the most self time. The
// profile covers the main thread from start to exit, so the start-up (a few hundred ms of CPU)
// is in it too. Prints them; writes nothing. catalogue: `snapshots` (default) or
// `generated:<records>`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CACHED_PATH, KEY, NEW_FILTER_PATH, fill, startApp } from './support/app-bench.js';
import { CLIENT_HEADER } from './support/bench-settings.js';
import { topFrames } from './support/cpu-profile.js';
import { uptime } from './support/report.js';
import { CONNECTIONS, SECONDS } from './support/side-by-side.js';
import { requireWrk, runWrk } from './support/wrk.js';

const [which = 'new-filter', catalogue = 'snapshots'] = process.argv.slice(2);
const ROOT = path.resolve(import.meta.dirname, '..');
requireWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-profile-'));
const profiles = path.join(dir, 'profiles');
try {
  await fill(dir, catalogue);
  mkdirSync(profiles);
  const app = startApp(dir, {}, ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
  const url = await app.url;
  const body = path.join(dir, 'request.json');
  writeFileSync(
    body,
    JSON.stringify({
      stack: ['nginx', 'nodejs', 'postgresql', 'redis'],
      scale: 'medium',
      budget_max: 80,
    }).replace(
      // recommend-new-budget: a budget never sent before per request (bench/wrk/new-client.lua).
      '"budget_max":80',
      which === 'recommend-new-budget' ? '"budget_max":{price}' : '"budget_max":80',
    ),
  );
  // mcp: a search_instances tool call of 2025-era shape (what the bench's clients send most).
  const mcpBody = path.join(dir, 'mcp.json');
  writeFileSync(
    mcpBody,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_instances', arguments: { limit: 50, sort_by: 'price' } },
    }),
  );
  const options = which.startsWith('recommend')
    ? { path: '/recommend', method: 'POST' as const, bodyFile: body }
    : which === 'mcp'
      ? { path: '/mcp', method: 'POST' as const, bodyFile: mcpBody }
      : { path: which === 'cached' ? CACHED_PATH : NEW_FILTER_PATH };
  const load = (seconds: number, firstAddress: number) =>
    runWrk({
      url: `${url}${options.path}`,
      seconds,
      connections: CONNECTIONS,
      clientHeader: CLIENT_HEADER,
      firstAddress,
      headers: {
        'x-api-key': KEY,
        'content-type': 'application/json',
        ...(which === 'mcp' && {
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        }),
      },
      ...(options.method && { method: options.method, bodyFile: options.bodyFile }),
    });
  const warm = await load(5, 0);
  const result = await load(SECONDS, warm.addressesUsed + 1);
  await app.stop(); // the profile is written as it exits
  console.log(
    `${which} on ${catalogue}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms.toFixed(1)} ms, ` +
      `${result.non2xx} >= 400, load ${uptime()}`,
  );
  const profile = topFrames(profiles, Number(process.env.PROFILE_TOP ?? 25), ROOT);
  console.log(
    `\nCPU not idle: ${profile.totalMs.toFixed(0)} ms\n\n| self ms | share | code |\n| ---: | ---: | --- |`,
  );
  console.log(profile.owners.join('\n'));
  console.log('\n| self ms | share | function |\n| ---: | ---: | --- |');
  console.log(profile.functions.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// npx tsx bench/mcp.bench.ts — what a search_instances tool call over POST /mcp costs next to
// the same GET /instances (issue 26: at most 2x the CPU per request), measured side by side on one
// server started as `npm start` starts it: `npm run build`, then `node dist/src/main.js` with the
// default configuration (info logging, its stdout to a log file), plus what a load test needs: a
// known key, a port, a client-address header so wrk's requests spread over fresh addresses (as
// every bench here: the rate limit would otherwise stop a single address at 100 a minute) and
// room for those addresses' counters. The catalogue is the bundled snapshots, synced at first
// start. Runs alternate GET (the cached answer, then a new max_price per request: a response-cache
// miss), MCP (2025-era request), MCP (2026-07-28 request) and MCP with a new max_price per
// request (a tool call is never answered from the HTTP layer's early cached reply), three rounds
// (BENCH_ROUNDS), after a warm-up each; CPU per request is the server's user + system time from
// /proc/<pid>/stat over the requests wrk counted. Prints the table; writes nothing.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLIENT_HEADER, benchEnv } from './support/bench-settings.js';
import { machineLine, uptime } from './support/report.js';
import {
  CONNECTIONS,
  ROUNDS,
  SECONDS,
  WARMUP_SECONDS,
  cpuMsOf,
  median,
} from './support/side-by-side.js';
import { AddressSpace, WRK_THREADS, requireWrk, runWrk, type WrkOptions } from './support/wrk.js';

requireWrk();
const ROOT = path.resolve(import.meta.dirname, '..');
const KEY = 'bench-key-0123456789abcdef';
const ARGS = { limit: 50, sort_by: 'price' };
const GET_PATH = '/instances?limit=50&sort_by=price';
/** A max_price never sent before on every request (bench/wrk/new-client.lua fills `{price}`). */
const NEW_FILTER_PATH = `${GET_PATH}&max_price={price}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bench-mcp-'));
const logFile = path.join(dir, 'server.log');
const loadAtStart = uptime();
console.log(`load at start: ${loadAtStart}`);
console.log('npm run build ...');
execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });

const port = await freePort();
const log = openSync(logFile, 'a');
const server = spawn(process.execPath, ['dist/src/main.js'], {
  cwd: ROOT,
  env: {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/tmp',
    DATA_DIR: path.join(dir, 'data'),
    API_KEYS: KEY,
    PORT: String(port),
    CLIENT_IP_HEADER: CLIENT_HEADER,
    ...benchEnv,
  },
  stdio: ['ignore', log, log],
});
const base = `http://127.0.0.1:${port}`;

try {
  // Listening, and the first sync (the bundled snapshots) applied.
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited; see ${logFile}`);
    const total = await fetch(`${base}/instances?limit=1`, {
      headers: { 'x-api-key': KEY, [CLIENT_HEADER]: 'start-probe' },
    })
      .then((r) => r.json() as Promise<{ data?: { pagination?: { total?: number } } }>)
      .then((body) => body.data?.pagination?.total ?? 0)
      .catch(() => 0);
    if (total > 0) break;
    if (Date.now() - started > 120_000) throw new Error('no catalogue after 120 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  const legacyBody = path.join(dir, 'legacy.json');
  writeFileSync(
    legacyBody,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_instances', arguments: ARGS },
    }),
  );
  const modernBody = path.join(dir, 'modern.json');
  writeFileSync(
    modernBody,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'search_instances',
        arguments: ARGS,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  );
  const newFilterBody = path.join(dir, 'legacy-new-filter.json');
  writeFileSync(
    newFilterBody,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_instances', arguments: { ...ARGS, max_price: 0 } },
    }).replace('"max_price":0', '"max_price":{price}'),
  );
  const mcpHeaders = {
    'x-api-key': KEY,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const cases: { name: string; options: Omit<WrkOptions, 'seconds' | 'firstAddress'> }[] = [
    {
      name: `GET ${GET_PATH}`,
      options: {
        url: `${base}${GET_PATH}`,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { 'x-api-key': KEY },
        threads: WRK_THREADS,
      },
    },
    {
      name: `GET ${NEW_FILTER_PATH} (a new filter: a response-cache miss)`,
      options: {
        url: `${base}${NEW_FILTER_PATH}`,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { 'x-api-key': KEY },
        threads: WRK_THREADS,
      },
    },
    {
      name: 'POST /mcp search_instances (2025 request)',
      options: {
        url: `${base}/mcp`,
        method: 'POST',
        bodyFile: legacyBody,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { ...mcpHeaders, 'mcp-protocol-version': '2025-11-25' },
        threads: WRK_THREADS,
      },
    },
    {
      name: 'POST /mcp search_instances (2026-07-28 request)',
      options: {
        url: `${base}/mcp`,
        method: 'POST',
        bodyFile: modernBody,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: {
          ...mcpHeaders,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'search_instances',
        },
        threads: WRK_THREADS,
      },
    },
    {
      name: 'POST /mcp search_instances, a new max_price (2025 request)',
      options: {
        url: `${base}/mcp`,
        method: 'POST',
        bodyFile: newFilterBody,
        connections: CONNECTIONS,
        clientHeader: CLIENT_HEADER,
        headers: { ...mcpHeaders, 'mcp-protocol-version': '2025-11-25' },
        threads: WRK_THREADS,
      },
    },
  ];
  // What each answers, once, so the table can say what was measured.
  for (const { name, options } of cases) {
    const response = await fetch(options.url.replace('{price}', '80'), {
      method: options.method ?? 'GET',
      headers: { ...options.headers, [CLIENT_HEADER]: 'shape-probe' },
      ...(options.bodyFile !== undefined && {
        body: (await import('node:fs'))
          .readFileSync(options.bodyFile, 'utf8')
          .replace('{price}', '80'),
      }),
    });
    const text = await response.text();
    console.log(
      `${name}: ${response.status} ${response.headers.get('content-type')}, ${text.length} B`,
    );
    if (response.status !== 200) throw new Error(text);
  }

  const addresses = new AddressSpace();
  const run = async (options: (typeof cases)[number]['options'], seconds: number) => {
    const before = cpuMsOf(server.pid!);
    const result = await runWrk({ ...options, seconds, firstAddress: addresses.take() });
    addresses.used(result);
    if (result.non2xx > 0 || result.socketErrors > result.requests / 1000) {
      throw new Error(
        `${options.url}: ${result.non2xx} errors, ${result.socketErrors} socket errors`,
      );
    }
    return { ...result, cpuMsPerRequest: (cpuMsOf(server.pid!) - before) / result.requests };
  };
  for (const { options } of cases) await run(options, WARMUP_SECONDS);
  const table: number[][] = cases.map(() => []);
  const rps: number[][] = cases.map(() => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    const line: string[] = [];
    for (const [i, { options }] of cases.entries()) {
      const result = await run(options, SECONDS);
      table[i]!.push(result.cpuMsPerRequest * 1000);
      rps[i]!.push(result.requestsPerSecond);
      line.push(
        `${Math.round(result.requestsPerSecond)} req/s ${(result.cpuMsPerRequest * 1000).toFixed(0)} µs CPU/req`,
      );
    }
    console.log(`round ${round + 1}: ${line.join(' | ')} | load ${uptime()}`);
  }
  console.log('');
  console.log(`${machineLine()}; load at start ${loadAtStart}, at the end ${uptime()}`);
  console.log(
    `| case | req/s (median) | CPU µs/request (median) | CPU ratio to the cached GET | to the new-filter GET |`,
  );
  console.log(`|---|---|---|---|---|`);
  const getCpu = median(table[0]!);
  const newFilterCpu = median(table[1]!);
  for (const [i, { name }] of cases.entries()) {
    const cpu = median(table[i]!);
    console.log(
      `| ${name} | ${Math.round(median(rps[i]!))} | ${cpu.toFixed(0)} | ${(cpu / getCpu).toFixed(2)} | ${(cpu / newFilterCpu).toFixed(2)} |`,
    );
  }
  console.log(`(server log: ${logFile})`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  if (process.env['BENCH_KEEP'] !== '1') rmSync(dir, { recursive: true, force: true });
}

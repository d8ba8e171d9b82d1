// D52 and issue 15 item 4, read from the real process: a whole start (with a failing provider),
// sync, request and shutdown cycle, in which every stdout line is one JSON object from the one
// logger, and an error carries its message, code and stack.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../support/fake-upstream.js';
import { killAllServers, parseLogLine, spawnServer } from '../sync/server-process.js';

const API_KEY = 'log-format-test-key-0123456789';
const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
const dirs: string[] = [];

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('one log format for the whole process', () => {
  it('prints only JSON lines with a text level, time and msg through start, sync, requests and shutdown; request lines carry reqId; errors carry message, code and stack', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-logs-'));
    dirs.push(dataDir);
    const server = spawnServer({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEYS: API_KEY,
      LOG_LEVEL: 'info',
      SYNC_INTERVAL: '0',
      // provider_c cannot be reached: the start-up fill logs a failed sync.
      PROVIDER_C_URL: await closedPortUrl(),
      UPSTREAM_MAX_RETRIES: '0',
      METRICS_PORT: '0',
    });
    const url = await server.listening();
    // The metrics listener is started by main.ts and announced in the banner.
    const metricsLine = await server.line(/^Prometheus metrics on /);
    const metricsUrl = String(parseLogLine(server.stdout[metricsLine]!)?.['metricsUrl']);
    const scrape = await fetch(`${metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(
      /^cloudprice_syncs_total\{provider="provider_c",outcome="failure"\} 1$/m,
    );

    const ok = await fetch(`${url}/instances?limit=1`, { headers: { 'x-api-key': API_KEY } });
    expect(ok.status).toBe(200);
    const requestId = ok.headers.get('x-request-id');
    const sync = await fetch(`${url}/sync`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ providers: ['provider_a'] }),
    });
    expect(sync.status).toBe(200);
    expect((await fetch(`${url}/instances`)).status).toBe(401);
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const lines = server.stdout.filter((text) => text !== '');
    const parsed = lines.map((text) => ({ text, line: parseLogLine(text) }));
    expect(
      parsed.filter((p) => p.line === undefined).map((p) => p.text),
      'lines that are not one JSON object',
    ).toEqual([]);
    const records = parsed.map((p) => p.line!);
    for (const record of records) {
      expect(LEVELS, JSON.stringify(record)).toContain(record.level);
      expect(Number.isNaN(Date.parse(record.time)), JSON.stringify(record)).toBe(false);
      expect(typeof record.msg, JSON.stringify(record)).toBe('string');
    }
    const messages = records.map((r) => r.msg);
    // The banner is part of the one format too.
    expect(messages).toContain(`cloudprice listening on ${url}`);
    expect(messages).toContain('API keys: from API_KEYS');
    expect(messages.some((m) => m.startsWith('Try: curl'))).toBe(true);
    expect(messages).toContain('shutting down');

    // Request lines carry the request id the client was given; one line per request (D60).
    const requestLines = records.filter((r) => r.reqId === requestId);
    expect(requestLines.map((r) => r.msg)).toEqual(['request']);
    expect(
      records.filter((r) => r.msg === 'provider synced' && r['provider'] === 'provider_a'),
    ).toHaveLength(2);

    // Regression, issue 15 item 4 "sync errors lose their message": the failed start-up sync
    // used to be logged as {"err":{}}.
    const failed = records.find((r) => r.msg === 'provider sync failed');
    expect(failed, messages.join('\n')).toBeDefined();
    expect(failed!.level).toBe('error');
    expect(failed!['provider']).toBe('provider_c');
    const err = failed!['err'] as Record<string, unknown>;
    expect(err['message']).toEqual(expect.stringMatching(/\S/));
    expect(err['code']).toMatch(/^UPSTREAM_/);
    expect(err['stack']).toEqual(expect.stringContaining(String(err['message'])));
  });
});

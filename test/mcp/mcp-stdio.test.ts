// `cloudprice mcp` as shipped (the built binary) over stdio, with the SDK's own client, on SQLite
// and on PostgreSQL + Redis, started from a working directory of its own as an assistant starts
// it: the tools answer what the HTTP API answers on the same database (every currency: the
// bundled rates are found from the installation), stdout carries nothing but protocol messages,
// and a database that is missing or was never synced is said so, never created (D66).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BUILT_CLI, buildCli, ROOT, runBuilt } from '../cli/built-cli.js';
import { describeBackend } from '../support/infra-backends.js';
import { createTestApp, fixtureSources, TEST_API_KEY, type TestApp } from '../support/test-app.js';
import { authed, mcpBackends, withoutTiming } from './mcp-support.js';

// Each test starts the built command; a loaded 2-core machine makes that slow.
vi.setConfig({ testTimeout: 180_000 });

beforeAll(async () => {
  await buildCli();
}, 240_000);

for (const backend of await mcpBackends()) {
  describeBackend('cloudprice mcp over stdio (built binary)', backend, () => {
    let env: Record<string, string>;
    let dataDir: string;
    /** The assistant's own folder: nothing of cloudprice in it. */
    let elsewhere: string;
    let drop: () => Promise<void>;
    let api: TestApp;

    beforeAll(async () => {
      const isolated = await backend.isolate();
      drop = () => isolated.drop();
      dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-mcp-'));
      elsewhere = mkdtempSync(path.join(tmpdir(), 'cloudprice-assistant-'));
      env = {
        DATA_DIR: dataDir,
        API_KEYS: TEST_API_KEY,
        ...fixtureSources(),
        ...isolated.env,
      };
      const sync = await runBuilt(['sync', 'provider_a', 'provider_b', 'provider_c'], env);
      expect(sync.code, sync.stderr).toBe(0);
      // The HTTP API on the same database (SQLite: the same file), for the same questions.
      api = await createTestApp({
        DATABASE_URL: isolated.env['DATABASE_URL'] ?? path.join(dataDir, 'cloudprice.db'),
      });
    }, 240_000);
    afterAll(async () => {
      await api?.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    });

    async function connect(modern = false): Promise<Client> {
      const client = new Client(
        { name: 'cloudprice-test', version: '1.0.0' },
        modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(ROOT, BUILT_CLI), 'mcp'],
          cwd: elsewhere,
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
          stderr: 'pipe',
        }),
      );
      return client;
    }

    async function httpData(url: string): Promise<unknown> {
      const response = await api.app.inject({ url, headers: authed() });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: unknown }>().data;
    }

    it('answers the tools as the HTTP API answers on the same database', async () => {
      const client = await connect();
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(6);
        const search = await client.callTool({
          name: 'search_instances',
          arguments: { provider: 'provider_c', limit: 5, sort_by: 'price', order: 'desc' },
        });
        expect(withoutTiming(search.structuredContent)).toEqual(
          withoutTiming(
            await httpData('/instances?provider=provider_c&limit=5&sort_by=price&order=desc'),
          ),
        );
        const [text] = search.content as { text: string }[];
        // Provenance in the summary: observation dates and the source of the figures.
        expect(text?.text).toMatch(/observed \d{4}-\d{2}-\d{2}/);
        expect(text?.text).toContain('source:');

        const changes = await client.callTool({ name: 'list_changes', arguments: { limit: 3 } });
        expect(withoutTiming(changes.structuredContent)).toEqual(
          withoutTiming(await httpData('/changes?limit=3')),
        );
        // Every currency, from another working directory: the bundled ECB rates were found.
        const yen = await client.callTool({
          name: 'search_instances',
          arguments: { currency: 'JPY', limit: 2 },
        });
        expect(yen.isError, JSON.stringify(yen.content)).toBeFalsy();
        expect(withoutTiming(yen.structuredContent)).toEqual(
          withoutTiming(await httpData('/instances?currency=JPY&limit=2')),
        );
        const bad = await client.callTool({ name: 'compare_regions', arguments: { limit: 0 } });
        expect(bad.isError).toBe(true);
        expect(bad._meta?.['cloudprice/error']).toMatchObject({ code: 'INVALID_PARAMETER' });
      } finally {
        await client.close();
      }
    });

    it('speaks the 2026-07-28 protocol over stdio too', async () => {
      const client = await connect(true);
      try {
        const result = await client.callTool({ name: 'get_freshness', arguments: {} });
        expect(result.isError).toBeFalsy();
        const data = result.structuredContent as { providers: { name: string }[] };
        expect(data.providers.map((p) => p.name)).toEqual([
          'provider_a',
          'provider_b',
          'provider_c',
        ]);
      } finally {
        await client.close();
      }
    });

    it('writes nothing but JSON-RPC messages to stdout, and exits 0 when stdin closes', async () => {
      const child = spawn(process.execPath, [path.join(ROOT, BUILT_CLI), 'mcp'], {
        cwd: elsewhere,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env, LOG_LEVEL: 'debug' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      const lines = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'search_instances', arguments: { limit: 2 } },
        },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'no_such_tool', arguments: {} },
        },
      ].map((message) => JSON.stringify(message));
      const batch = JSON.stringify([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
      child.stdin.write(`${lines.join('\n')}\nthis is not json\n${batch}\n`);
      // Wait for every answer before closing stdin: the server answers asynchronously.
      await vi.waitFor(
        () => expect(stdout.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5),
        {
          timeout: 60_000,
          interval: 100,
        },
      );
      child.stdin.end();
      expect(await exited, stderr).toBe(0);
      const messages = stdout
        .split('\n')
        .filter((line) => line !== '')
        .map(
          (line) => JSON.parse(line) as { jsonrpc: string; id?: number | null; error?: unknown },
        );
      expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
      expect(messages.find((message) => message.id === 2)).toHaveProperty('result');
      expect(messages.find((message) => message.id === 3)).toHaveProperty('error');
      // Neither the text nor the batch is dropped unanswered (D66).
      const refusals = messages.filter((message) => message.id === null).map((m) => m.error);
      expect(refusals).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: -32700 }),
          expect.objectContaining({ code: -32600 }),
        ]),
      );
    });

    if (backend.name === 'sqlite') {
      it('refuses a DATA_DIR without a database, creating nothing', async () => {
        const run = await runMcp(['mcp'], { DATA_DIR: path.join(elsewhere, 'no-such-dir') });
        expect(run.code).toBe(4);
        expect(run.stderr).toContain('no database at');
        expect(run.stdout).toBe('');
        expect(existsSync(path.join(elsewhere, 'no-such-dir'))).toBe(false);
        // The default DATA_DIR (./data of the working directory) likewise.
        const defaulted = await runMcp(['mcp'], {});
        expect(defaulted.code).toBe(4);
        expect(readdirSync(elsewhere)).toEqual([]);
      });

      it('says plainly that a database never synced is empty, and mints no key', async () => {
        const empty = mkdtempSync(path.join(tmpdir(), 'cloudprice-empty-'));
        try {
          writeFileSync(path.join(empty, 'cloudprice.db'), '');
          const transport = new StdioClientTransport({
            command: process.execPath,
            args: [path.join(ROOT, BUILT_CLI), 'mcp'],
            cwd: elsewhere,
            env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', DATA_DIR: empty },
            stderr: 'pipe',
          });
          let stderr = '';
          transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          const client = new Client({ name: 'cloudprice-test', version: '1.0.0' });
          await client.connect(transport);
          try {
            const result = await client.callTool({ name: 'search_instances', arguments: {} });
            const [text] = result.content as { text: string }[];
            expect(text?.text).toMatch(
              /^NOTE: the catalogue is empty: no provider has ever been synced/,
            );
          } finally {
            await client.close();
          }
          expect(stderr).toContain('is empty: no provider has ever been synced');
          expect(stderr).not.toContain('Generated an API key');
          expect(readdirSync(empty).filter((name) => name.includes('key'))).toEqual([]);
        } finally {
          rmSync(empty, { recursive: true, force: true });
        }
      });
    }

    /** The built command run from the assistant's folder with only `extra` as environment. */
    function runMcp(
      args: string[],
      extra: Record<string, string>,
    ): Promise<{ code: number | null; stdout: string; stderr: string }> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [path.join(ROOT, BUILT_CLI), ...args], {
          cwd: elsewhere,
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...extra },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end();
      });
    }
  });
}

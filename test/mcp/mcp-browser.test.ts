// A browser-based assistant (D66): a page served from an origin in MCP_ALLOWED_ORIGINS, in real
// Chromium, speaks MCP to /mcp across origins. The preflight must allow the headers the MCP
// transport sends (Mcp-Protocol-Version after initialize) and expose those its client reads.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../e2e/support/browser.js';
import { TEST_API_KEY } from '../support/test-app.js';
import { startMcpServer, type McpTestServer } from './mcp-support.js';

const skip = chromiumMissing();

describe.skipIf(skip !== undefined)('MCP from a browser host', () => {
  let page: Server;
  let origin: string;
  let server: McpTestServer;
  let browser: Browser;

  beforeAll(async () => {
    page = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>host</title>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    server = await startMcpServer({ MCP_ALLOWED_ORIGINS: origin });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => page?.close(resolve));
  });

  it('answers the preflight with the MCP request headers and exposes what the client reads', async () => {
    const response = await fetch(server.url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'content-type,mcp-protocol-version,mcp-session-id,mcp-method,mcp-name,last-event-id,authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of [
      'mcp-protocol-version',
      'mcp-session-id',
      'mcp-method',
      'mcp-name',
      'last-event-id',
      'authorization',
      'x-api-key',
    ]) {
      expect(allowed).toContain(header);
    }
  });

  it('initializes and calls a tool from the page, across origins', async () => {
    const tab = await browser.newPage();
    try {
      await tab.goto(`${origin}/`);
      const answers = await tab.evaluate(
        async ({ url, key }) => {
          const post = async (body: unknown, extra: Record<string, string> = {}) => {
            const response = await fetch(url, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'x-api-key': key,
                ...extra,
              },
              body: JSON.stringify(body),
            });
            return {
              status: response.status,
              type: response.headers.get('content-type'),
              remaining: response.headers.get('ratelimit-remaining'),
              text: await response.text(),
            };
          };
          const init = await post({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'browser', version: '1' },
            },
          });
          const version = { 'mcp-protocol-version': '2025-11-25' };
          const called = await post(
            {
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'search_instances', arguments: { limit: 2 } },
            },
            version,
          );
          return { init, called };
        },
        { url: server.url.href, key: TEST_API_KEY },
      );
      expect(answers.init.status).toBe(200);
      expect(answers.called.status, answers.called.text).toBe(200);
      expect(answers.called.text).toContain('instance record(s) matched');
      // An exposed response header is readable from the page.
      expect(answers.called.remaining).not.toBeNull();
    } finally {
      await tab.close();
    }
  });
});

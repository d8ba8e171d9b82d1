// D59's refusals over real HTTP, on every backend: bad arguments answer isError with the route's
// own code and message; protocol mistakes get the protocol's errors; a missing key, a wrong
// Origin, a huge body and other methods get our envelope; each tools/call counts against the
// rate limit of the endpoint it mirrors. Never a 5xx, never a hang.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackend } from '../support/infra-backends.js';
import { TEST_API_KEY } from '../support/test-app.js';
import {
  authed,
  CLIENT_HEADER,
  connectClient,
  mcpBackends,
  rawPost,
  rpcMessage,
  startMcpServer,
  type McpTestServer,
} from './mcp-support.js';

interface ErrorMeta {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

const ALLOWED_ORIGIN = 'https://assistant.example';
const CORS_ONLY_ORIGIN = 'https://web.example';

const call = (name: string, args: unknown, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

for (const backend of await mcpBackends()) {
  describeBackend('MCP over HTTP refuses bad input with the right error', backend, () => {
    let server: McpTestServer;
    let drop: () => Promise<void>;
    let client: Client;

    beforeAll(async () => {
      const isolated = await backend.isolate();
      drop = () => isolated.drop();
      server = await startMcpServer({
        ...isolated.env,
        MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
        CORS_ORIGINS: `${CORS_ONLY_ORIGIN},${ALLOWED_ORIGIN}`,
      });
      client = await connectClient(server.url);
    }, 120_000);
    afterAll(async () => {
      await client?.close();
      await server?.close();
      await drop?.();
    });

    /** The tool's error result, checked to be isError with the code in text and _meta alike. */
    async function toolError(name: string, args: Record<string, unknown>): Promise<ErrorMeta> {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result)).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const meta = result._meta?.['cloudprice/error'] as ErrorMeta;
      const [text] = result.content as { type: string; text: string }[];
      expect(text?.text.startsWith(`${meta.code}: ${meta.message}`)).toBe(true);
      return meta;
    }

    it('answers bad values with the route parser’s own code and message', async () => {
      const http = await server.t.app.inject({ url: '/instances?limit=0', headers: authed() });
      const httpError = http.json<{ error: ErrorMeta }>().error;
      expect(await toolError('search_instances', { limit: 0 })).toEqual(httpError);

      const currency = await toolError('search_instances', { currency: 'XXX' });
      expect(currency.code).toBe('INVALID_PARAMETER');
      expect(currency.details?.['allowed']).toEqual(expect.arrayContaining(['USD', 'JPY']));
      expect((await toolError('search_instances', { as_of: '2099-01-01' })).code).toBe(
        'INVALID_PARAMETER',
      );
      expect((await toolError('compare_regions', { regions: 'mars-1' })).code).toBe(
        'INVALID_PARAMETER',
      );
      expect((await toolError('list_changes', { since: 'last tuesday' })).code).toBe(
        'INVALID_PARAMETER',
      );
      expect((await toolError('list_changes', { limit: 501 })).details?.['parameter']).toBe(
        'limit',
      );
    });

    it('answers wrong argument types with INVALID_PARAMETER, not a schema library’s error', async () => {
      for (const args of [{ limit: 'ten' }, { has_gpu: 3 }, { provider: ['provider_a'] }]) {
        const error = await toolError('search_instances', args);
        expect(error.code, JSON.stringify(args)).toBe('INVALID_PARAMETER');
        expect(error.details?.['parameter']).toBe(Object.keys(args)[0]);
      }
      expect((await toolError('recommend', { stack: 'nginx', scale: 'small' })).code).toBe(
        'INVALID_PARAMETER',
      );
      expect((await toolError('price_history', { id: { nested: 1 } })).code).toBe(
        'INVALID_PARAMETER',
      );
    });

    it('answers recommend and price_history mistakes with their routes’ codes', async () => {
      const stack = await toolError('recommend', { stack: ['cobol'], scale: 'small' });
      expect(stack.code).toBe('INVALID_STACK');
      expect(stack.details?.['supported']).toEqual(expect.arrayContaining(['nginx']));
      expect((await toolError('recommend', { stack: [], scale: 'small' })).code).toBe(
        'EMPTY_STACK',
      );
      expect((await toolError('recommend', { scale: 'small' })).code).toBe('MISSING_PARAMETER');
      expect((await toolError('recommend', { stack: ['nginx'], scale: 'huge' })).code).toBe(
        'INVALID_PARAMETER',
      );
      expect((await toolError('price_history', { id: 987_654_321 })).code).toBe('NOT_FOUND');
      expect((await toolError('price_history', { id: -1 })).code).toBe('INVALID_PARAMETER');
      expect((await toolError('price_history', {})).code).toBe('MISSING_PARAMETER');
    });

    it('says an array or object sent for a scalar argument must be the scalar its schema names', async () => {
      const list = await toolError('search_instances', { arch: ['arm64'], limit: 2 });
      expect(list.code).toBe('INVALID_PARAMETER');
      expect(list.details).toMatchObject({ parameter: 'arch', value: 'array' });
      expect(list.details?.['reason']).toMatch(
        /^must be a string, not a JSON array .*comma-separated/,
      );
      const object = await toolError('search_instances', { min_vcpu: { gte: 2 } });
      expect(object.details).toMatchObject({
        parameter: 'min_vcpu',
        value: 'object',
        reason: 'must be a whole number, not a JSON object',
      });
      // The same values as one comma-separated string are a filter.
      const arm = await client.callTool({
        name: 'search_instances',
        arguments: { arch: 'arm64', cpu_allocation: 'burstable,shared', limit: 2 },
      });
      expect(arm.isError).toBeFalsy();
      const { instances } = arm.structuredContent as {
        instances: { cpu: { architecture: string; allocation: string } }[];
      };
      expect(instances.length).toBeGreaterThan(0);
      for (const { cpu } of instances) {
        expect(cpu.architecture).toBe('arm64');
        expect(['burstable', 'shared']).toContain(cpu.allocation);
      }
    });

    it('refuses a null argument by name: null is not "not given" (D66)', async () => {
      const error = await toolError('search_instances', { provider: null, limit: 2 });
      expect(error.code).toBe('INVALID_PARAMETER');
      expect(error.details?.['parameter']).toBe('provider');
    });

    it('answers an unknown tool and malformed messages with protocol errors', async () => {
      await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(
        /not found/i,
      );
      const parse = await rawPost(server.url, '{"jsonrpc":"2.0",');
      expect(parse.status).toBe(400);
      expect((await rpcMessage(parse))['error']).toMatchObject({ code: -32700 });
      const array = await rawPost(server.url, call('search_instances', [1, 2]));
      expect(array.status).toBeLessThan(500);
      expect((await rpcMessage(array))['error']).toMatchObject({ code: -32602 });
      const unknown = await rawPost(
        server.url,
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tables/drop' }),
      );
      expect((await rpcMessage(unknown))['error']).toMatchObject({ code: -32601 });
      const notRpc = await rawPost(server.url, '{"hello":"world"}');
      expect(notRpc.status).toBeGreaterThanOrEqual(400);
      expect(notRpc.status).toBeLessThan(500);
    });

    it('answers a batch without a 5xx, each message on its own', async () => {
      const batch = await rawPost(
        server.url,
        `[${call('get_freshness', {}, 1)},${call('search_instances', { limit: 0 }, 2)}]`,
      );
      expect(batch.status).toBeLessThan(500);
      await batch.text();
    });

    it('refuses a missing key, a body over 10 KB and another content type in JSON-RPC, GET/DELETE with our envelope', async () => {
      const noKey = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          [CLIENT_HEADER]: randomUUID(),
        },
        body: call('get_freshness', {}),
      });
      expect(noKey.status).toBe(401);
      expect(await noKey.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, data: { code: 'UNAUTHORIZED' } },
      });

      const huge = await rawPost(server.url, call('search_instances', { q: 'x'.repeat(11_000) }));
      expect(huge.status).toBe(413);
      expect(await huge.json()).toMatchObject({ error: { data: { code: 'PAYLOAD_TOO_LARGE' } } });

      const text = await rawPost(server.url, call('get_freshness', {}), {
        'content-type': 'text/plain',
      });
      expect(text.status).toBe(400);
      expect(await text.json()).toMatchObject({
        error: { data: { code: 'INVALID_CONTENT_TYPE' } },
      });

      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(server.url, {
          method,
          headers: {
            'x-api-key': TEST_API_KEY,
            accept: 'text/event-stream',
            [CLIENT_HEADER]: randomUUID(),
          },
        });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(await response.json()).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
      }
    });

    it('refuses an Origin not in MCP_ALLOWED_ORIGINS with 403, whatever CORS allows', async () => {
      for (const origin of [CORS_ONLY_ORIGIN, 'http://localhost:8080', 'null']) {
        const response = await rawPost(server.url, call('get_freshness', {}), { origin });
        expect(response.status, origin).toBe(403);
        expect(await response.json()).toMatchObject({
          jsonrpc: '2.0',
          error: { data: { code: 'FORBIDDEN' } },
        });
      }
      const allowed = await rawPost(server.url, call('get_freshness', {}), {
        origin: ALLOWED_ORIGIN,
      });
      expect(allowed.status).toBe(200);
      expect((await rpcMessage(allowed))['result']).toBeDefined();
      const none = await rawPost(server.url, call('get_freshness', {}));
      expect(none.status).toBe(200);
      await none.text();
    });

    it('counts search_instances with GET /instances (100 a minute) and recommend with /recommend (60)', async () => {
      const who = randomUUID();
      const headers = { [CLIENT_HEADER]: who };
      for (let i = 0; i < 99; i += 1) {
        const response = await server.t.app.inject({
          url: '/instances?limit=1',
          headers: { ...authed(), ...headers },
        });
        expect(response.statusCode).toBe(200);
      }
      const last = await rawPost(server.url, call('search_instances', { limit: 1 }), headers);
      expect(last.status).toBe(200);
      expect(last.headers.get('ratelimit-remaining')).toBe('0');
      await last.text();
      for (const tool of ['search_instances', 'price_history', 'list_changes', 'compare_regions']) {
        const over = await rawPost(server.url, call(tool, { id: 1 }), headers);
        expect(over.status, tool).toBe(429);
        expect(over.headers.get('retry-after')).not.toBeNull();
        expect(await over.json()).toMatchObject({
          error: { data: { code: 'RATE_LIMIT_EXCEEDED' } },
        });
      }
      // get_freshness and the protocol's own messages count against the /mcp budget (D66).
      const freshness = await rawPost(server.url, call('get_freshness', {}), headers);
      expect(freshness.status).toBe(200);
      await freshness.text();
      const list = await rawPost(
        server.url,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        headers,
      );
      expect(list.status).toBe(200);
      await list.text();

      const body = { stack: ['nginx'], scale: 'small' };
      for (let i = 0; i < 60; i += 1) {
        const response = await rawPost(server.url, call('recommend', body), headers);
        expect(response.status).toBe(200);
        await response.text();
      }
      const over = await rawPost(server.url, call('recommend', body), headers);
      expect(over.status).toBe(429);
      const http = await server.t.app.inject({
        method: 'POST',
        url: '/recommend',
        headers: { ...authed(), ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(http.statusCode).toBe(429);
    });
  });
}

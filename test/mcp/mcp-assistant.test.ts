// D66 with the SDK's own client over real HTTP, on every backend: arguments a tool does not take
// are refused by name; the text holds the summary and the result as JSON; summaries use display
// names and name every pick over budget or short of vCPUs; page sizes and tools/list stay within
// an assistant's context (measured, docs/mcp.md); every message to /mcp is counted (BOM bodies and
// batches included); the key may come as a Bearer token on /mcp only.
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RECOMMEND_EXAMPLE } from '../../src/mcp/catalog-tools.js';
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
interface Text {
  type: string;
  text: string;
}

const call = (name: string, args: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** An assistant's context budget for one result, and for the tool list (docs/mcp.md "Sizes"). */
const RESULT_TOKENS = 25_000;
const TOOLS_LIST_TOKENS = 6_000;
const tokens = (text: string) => Math.ceil(text.length / 4);

for (const backend of await mcpBackends()) {
  describeBackend('MCP answers an assistant can rely on (D66)', backend, () => {
    let server: McpTestServer;
    let drop: () => Promise<void>;
    let client: Client;

    beforeAll(async () => {
      const isolated = await backend.isolate();
      drop = () => isolated.drop();
      server = await startMcpServer(isolated.env);
      client = await connectClient(server.url);
    }, 120_000);
    afterAll(async () => {
      await client?.close();
      await server?.close();
      await drop?.();
    });

    async function toolError(name: string, args: Record<string, unknown>): Promise<ErrorMeta> {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result)).toBe(true);
      return result._meta?.['cloudprice/error'] as ErrorMeta;
    }

    it('refuses an argument the tool does not take, by name, with the allowed names', async () => {
      const vcpus = await toolError('search_instances', { vcpus: 4 });
      expect(vcpus.code).toBe('INVALID_PARAMETER');
      expect(vcpus.details?.['parameter']).toBe('vcpus');
      expect(vcpus.details?.['allowed']).toEqual(expect.arrayContaining(['min_vcpu', 'limit']));
      expect(vcpus.message).toContain('min_vcpu');
      const region = await toolError('recommend', {
        stack: ['nginx'],
        scale: 'small',
        region: 'nrt',
      });
      expect(region.details?.['parameter']).toBe('region');
      expect(region.details?.['allowed']).toEqual(expect.arrayContaining(['regions', 'cities']));
      // compare_regions answers JSON only: `format` is not one of its arguments.
      expect((await toolError('compare_regions', { format: 'csv' })).details?.['parameter']).toBe(
        'format',
      );
      expect((await toolError('get_freshness', { verbose: true })).code).toBe('INVALID_PARAMETER');
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.inputSchema['additionalProperties'], tool.name).toBe(false);
      }
      const compare = tools.find((tool) => tool.name === 'compare_regions')!;
      expect(compare.inputSchema.properties).not.toHaveProperty('format');
    });

    it('puts the summary and then the whole result as JSON in the text', async () => {
      const result = await client.callTool({
        name: 'search_instances',
        arguments: { provider: 'provider_b', limit: 8 },
      });
      const [summary, json] = result.content as Text[];
      expect(summary?.text).toContain('instance record(s) matched');
      expect(JSON.parse(json!.text)).toEqual(result.structuredContent);
      // All eight rows reach a client that passes only text to the model, not the first five.
      expect((JSON.parse(json!.text) as { instances: unknown[] }).instances).toHaveLength(8);
    });

    it('prices by a purchase option in the tools that price records, and says so (D61)', async () => {
      const search = await client.callTool({
        name: 'search_instances',
        arguments: { purchase_option: 'reserved_1y', limit: 5 },
      });
      expect(search.isError, JSON.stringify(search)).toBeFalsy();
      const [summary] = search.content as Text[];
      expect(summary?.text).toContain('priced as reserved_1y');
      const rows = (
        search.structuredContent as { instances: { pricing: Record<string, unknown> }[] }
      ).instances;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.pricing['purchase_option'] === 'reserved_1y')).toBe(true);
      const recommend = await client.callTool({
        name: 'recommend',
        arguments: { stack: ['nginx'], scale: 'small', purchase_option: 'reserved_3y' },
      });
      expect((recommend.content as Text[])[0]!.text).toContain('priced as reserved_3y');
      const changes = await client.callTool({
        name: 'list_changes',
        arguments: { purchase_option: 'all', since: '2000-01-01', limit: 3 },
      });
      expect(changes.isError, JSON.stringify(changes)).toBeFalsy();
      // A past catalogue is on-demand: another option with as_of is refused, not ignored.
      const past = await toolError('search_instances', {
        purchase_option: 'reserved_1y',
        as_of: '2025-01-01',
      });
      expect(past.code).toBe('INVALID_PARAMETER');
      expect(past.details?.['parameter']).toBe('purchase_option');
      expect(past.details?.['allowed']).toEqual(['on_demand']);
      const bad = await toolError('search_instances', { purchase_option: 'reserved' });
      expect(bad.code).toBe('INVALID_PARAMETER');
      expect(bad.details?.['allowed']).toEqual(expect.arrayContaining(['on_demand', 'spot']));
    });

    it('uses display names in every summary', async () => {
      const texts = [
        await client.callTool({ name: 'compare_regions', arguments: { provider: 'provider_b' } }),
        await client.callTool({
          name: 'recommend',
          arguments: { stack: ['nginx'], scale: 'small', providers: ['provider_a'] },
        }),
        await client.callTool({
          name: 'list_changes',
          arguments: { provider: 'provider_c', limit: 3, since: '2000-01-01' },
        }),
      ].map((result) => (result.content as Text[])[0]!.text);
      const [compare, recommend, changes] = texts;
      expect(compare).toMatch(/\(Vultr; /);
      expect(recommend).toMatch(/\(Linode, /);
      expect(changes).toMatch(/\(AWS, /);
      for (const text of texts) {
        // Internal names appear only in the provenance lines, beside the display name.
        expect(text.split('Provenance')[0]).not.toMatch(/provider_[abc]/);
      }
    });

    it('names every pick over the budget and every vCPU shortfall in recommend’s summary', async () => {
      const result = await client.callTool({
        name: 'recommend',
        arguments: {
          stack: ['elasticsearch', 'mysql', 'redis'],
          scale: 'large',
          budget_max: 20,
          limit: 25,
        },
      });
      const data = result.structuredContent as {
        requirements: { min_vcpu: number };
        recommendations: { rank: number; price: { monthly: number }; specs: { vcpu: number } }[];
      };
      const summary = (result.content as Text[])[0]!.text;
      const over = data.recommendations.filter((r) => r.price.monthly > 20);
      const short = data.recommendations.filter((r) => r.specs.vcpu < data.requirements.min_vcpu);
      expect(over.length, 'the case must have over-budget picks').toBeGreaterThan(0);
      expect(summary).toContain(
        `Over the budget of 20 USD/month: ${over.map((r) => `#${r.rank}`).join(', ')}.`,
      );
      if (short.length > 0) {
        expect(summary).toContain(`: ${short.map((r) => `#${r.rank}`).join(', ')}.`);
      }
      const small = await client.callTool({
        name: 'recommend',
        arguments: { stack: ['nginx', 'nodejs', 'postgresql', 'redis'], scale: 'large', limit: 25 },
      });
      const smallData = small.structuredContent as typeof data;
      const shortOnes = smallData.recommendations.filter(
        (r) => r.specs.vcpu < smallData.requirements.min_vcpu,
      );
      const text = (small.content as Text[])[0]!.text;
      if (shortOnes.length > 0) {
        expect(text).toContain(
          `Fewer vCPUs than the ${smallData.requirements.min_vcpu} needed: ${shortOnes.map((r) => `#${r.rank}`).join(', ')}.`,
        );
      } else {
        expect(text).not.toContain('Fewer vCPUs');
      }
    });

    it('accepts the example its description gives, and takes provider as a list', async () => {
      const { tools } = await client.listTools();
      const description = tools.find((tool) => tool.name === 'recommend')!.description!;
      expect(description).toContain(JSON.stringify(RECOMMEND_EXAMPLE));
      const example = await client.callTool({ name: 'recommend', arguments: RECOMMEND_EXAMPLE });
      expect(example.isError, JSON.stringify(example.content)).toBeFalsy();

      const total = async (provider: string) =>
        (
          await client.callTool({
            name: 'search_instances',
            arguments: { provider, limit: 50 },
          })
        ).structuredContent as {
          pagination: { total: number };
          instances: { provider: { name: string } }[];
        };
      const both = await total('provider_a,provider_b');
      const a = await total('provider_a');
      const b = await total('provider_b');
      expect(both.pagination.total).toBe(a.pagination.total + b.pagination.total);
      expect(new Set(both.instances.map((r) => r.provider.name))).toEqual(
        new Set(['provider_a', 'provider_b']),
      );
      const compared = await client.callTool({
        name: 'compare_regions',
        arguments: { provider: 'provider_a,provider_c', limit: 30 },
      });
      const rows = (compared.structuredContent as { instance_types: { provider: string }[] })
        .instance_types;
      expect(new Set(rows.map((row) => row.provider))).toEqual(
        new Set(['provider_a', 'provider_c']),
      );
      expect((await toolError('search_instances', { provider: 'provider_a,nope' })).code).toBe(
        'INVALID_PARAMETER',
      );
    });

    it('pages for an assistant: a small default, a refused excess, every result under 25,000 tokens', async () => {
      const first = await client.callTool({ name: 'search_instances', arguments: {} });
      expect((first.structuredContent as { instances: unknown[] }).instances).toHaveLength(10);
      expect((await toolError('search_instances', { limit: 51 })).details?.['reason']).toBe(
        'must be from 1 to 50',
      );
      const largest: [string, Record<string, unknown>][] = [
        ['search_instances', { limit: 50, sort_by: 'price', order: 'desc' }],
        ['compare_regions', { limit: 30 }],
        ['recommend', { stack: ['nginx', 'mysql'], scale: 'small', limit: 25, budget_max: 1 }],
        ['list_changes', { limit: 100, since: '2000-01-01', summary: true }],
        ['get_freshness', {}],
      ];
      const sizes: Record<string, number> = {};
      for (const [name, args] of largest) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, name).toBeFalsy();
        const text = (result.content as Text[]).map((c) => c.text).join('\n');
        sizes[name] = tokens(text);
        expect(tokens(text), name).toBeLessThan(RESULT_TOKENS);
        // The whole result (text and structuredContent) too, for clients that pass both on.
        expect(tokens(JSON.stringify(result)), name).toBeLessThan(RESULT_TOKENS * 2);
      }
      console.info('largest tool results, tokens (chars/4):', sizes);
    });

    it('lists its tools in under 6,000 tokens, and promises no list_changed it never sends', async () => {
      const response = await rawPost(
        server.url,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      );
      const message = await rpcMessage(response);
      const size = tokens(JSON.stringify(message['result']));
      console.info('tools/list, tokens (chars/4):', size);
      expect(size).toBeLessThan(TOOLS_LIST_TOKENS);
      expect(client.getServerCapabilities()?.tools?.listChanged).toBeFalsy();
      const { tools } = await client.listTools();
      for (const tool of tools) expect(tool.description, tool.name).not.toMatch(/\bD\d{1,2}\b/);
    });

    it('answers tools/list from its prebuilt buffer with the caller’s id, as the SDK would', async () => {
      const { tools } = await client.listTools();
      for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
        for (const id of ['abc', 42, 'x"y']) {
          const response = await rawPost(
            server.url,
            JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
            { 'mcp-protocol-version': version },
          );
          expect(response.status).toBe(200);
          const message = await rpcMessage(response);
          expect(message['id']).toBe(id);
          expect((message['result'] as { tools: unknown[] }).tools).toEqual(tools);
        }
      }
    });

    it('counts every message: a batch per call, protocol messages too, a BOM body once', async () => {
      const who = { [CLIENT_HEADER]: randomUUID() };
      const batch = await rawPost(
        server.url,
        `[${call('search_instances', { limit: 1 }, 1)},${call('compare_regions', { limit: 1 }, 2)},${call('list_changes', { limit: 1 }, 3)}]`,
        who,
      );
      expect(batch.status).toBe(200);
      expect(batch.headers.get('ratelimit-remaining')).toBe('97');
      await batch.text();
      // Under a revision without batches, a batch is refused before anything runs.
      const modern = await rawPost(server.url, `[${call('search_instances', {}, 1)}]`, {
        ...who,
        'mcp-protocol-version': '2025-06-18',
      });
      expect(modern.status).toBe(400);
      expect(await modern.json()).toMatchObject({ error: { code: -32600 } });
      const eleven = Array.from({ length: 11 }, (_, i) => call('get_freshness', {}, i)).join(',');
      const big = await rawPost(server.url, `[${eleven}]`, who);
      expect(big.status).toBe(400);
      expect(await big.json()).toMatchObject({ error: { code: -32600 } });

      // A byte-order mark: parsed once, the same way, counted, then answered.
      const bom = await rawPost(server.url, `\uFEFF${call('search_instances', { limit: 1 })}`, who);
      expect(bom.status).toBe(200);
      expect(bom.headers.get('ratelimit-remaining')).toBe('96');
      expect((await rpcMessage(bom))['result']).toBeDefined();
      for (let i = 0; i < 96; i += 1) {
        const response = await server.t.app.inject({
          url: '/instances?limit=1',
          headers: { ...authed(), ...who },
        });
        expect(response.statusCode).toBe(200);
      }
      const spent = await rawPost(
        server.url,
        `\uFEFF${call('search_instances', { limit: 1 })}`,
        who,
      );
      expect(spent.status).toBe(429);
      await spent.text();
      const unparsable = await rawPost(server.url, `\uFEFF{"jsonrpc":`, who);
      expect(unparsable.status).toBe(400);
      expect(await unparsable.json()).toMatchObject({ error: { code: -32700 } });

      // Protocol traffic has its own budget: 100 a minute.
      const other = { [CLIENT_HEADER]: randomUUID() };
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      for (let i = 0; i < 99; i += 1) {
        const response = await rawPost(
          server.url,
          i % 2 === 0 ? list : call('get_freshness', {}),
          other,
        );
        expect(response.status).toBe(200);
        await response.text();
      }
      const ping = await rawPost(
        server.url,
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
        other,
      );
      expect(ping.headers.get('ratelimit-remaining')).toBe('0');
      await ping.text();
      const over = await rawPost(server.url, list, other);
      expect(over.status).toBe(429);
      expect(await over.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, data: { code: 'RATE_LIMIT_EXCEEDED' } },
      });
    });

    it('takes the key as Authorization: Bearer on /mcp only, and says why it refuses', async () => {
      const bearer = new Client({ name: 'bearer-host', version: '1.0.0' });
      await bearer.connect(
        new StreamableHTTPClientTransport(server.url, {
          requestInit: {
            headers: { authorization: `Bearer ${TEST_API_KEY}`, [CLIENT_HEADER]: randomUUID() },
          },
        }),
      );
      const result = await bearer.callTool({ name: 'get_freshness', arguments: {} });
      expect(result.isError).toBeFalsy();
      await bearer.close();
      // Every other endpoint keeps X-API-Key alone.
      const rest = await server.t.app.inject({
        url: '/instances?limit=1',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, [CLIENT_HEADER]: randomUUID() },
      });
      expect(rest.statusCode).toBe(401);
      // A wrong key: the SDK's error carries our message.
      const wrong = new Client({ name: 'wrong-key', version: '1.0.0' });
      const connecting = wrong.connect(
        new StreamableHTTPClientTransport(server.url, {
          requestInit: {
            headers: { 'x-api-key': 'not-the-key-at-all', [CLIENT_HEADER]: randomUUID() },
          },
        }),
      );
      await expect(connecting).rejects.toThrow(/API key is missing or invalid/);
    });
  });
}

// D59 conformance, with the SDK's own client over real HTTP, on every backend: each tool's
// structuredContent is the HTTP route's `data` for the same arguments (timing fields and the
// cache flag aside; the tools' own page sizes, docs/mcp.md, where no limit is given), and each
// tool's output schema describes its top level exactly (no field it does not name, every field
// it requires).
import type { Client } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackend } from '../support/infra-backends.js';
import {
  authed,
  connectClient,
  mcpBackends,
  startMcpServer,
  withoutTiming,
  type McpTestServer,
} from './mcp-support.js';

interface Case {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The same question to the HTTP API: a GET URL, or POST /recommend's body. */
  readonly http: string | { body: Record<string, unknown> };
}

/** Every object schema closed: a field the schema does not name fails validation. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(
    Object.entries(schema as Record<string, unknown>).map(([k, v]) => [k, closed(v)]),
  );
  if (copy['type'] === 'object' && copy['properties'] !== undefined) {
    copy['additionalProperties'] ??= false;
  }
  return copy;
}

for (const backend of await mcpBackends()) {
  describeBackend('MCP tools answer what the HTTP routes answer', backend, () => {
    let server: McpTestServer;
    let drop: () => Promise<void>;
    let client: Client;
    let recordId: number;

    beforeAll(async () => {
      const isolated = await backend.isolate();
      drop = () => isolated.drop();
      server = await startMcpServer(isolated.env);
      client = await connectClient(server.url);
      const first = await server.t.app.inject({
        url: '/instances?provider=provider_b&limit=1',
        headers: authed(),
      });
      recordId = first.json<{ data: { instances: { id: number }[] } }>().data.instances[0]!.id;
    }, 120_000);
    afterAll(async () => {
      await client?.close();
      await server?.close();
      await drop?.();
    });

    async function viaHttp(http: Case['http']): Promise<unknown> {
      const response =
        typeof http === 'string'
          ? await server.t.app.inject({ url: http, headers: authed() })
          : await server.t.app.inject({
              method: 'POST',
              url: '/recommend',
              headers: { ...authed(), 'content-type': 'application/json' },
              payload: JSON.stringify(http.body),
            });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: unknown }>().data;
    }

    const cases = (): Case[] => [
      { tool: 'search_instances', args: {}, http: '/instances?limit=10' },
      {
        tool: 'search_instances',
        args: {
          provider: 'provider_b',
          min_vcpu: 2,
          max_price: 80,
          sort_by: 'memory_gb',
          order: 'desc',
          limit: 5,
          offset: 1,
          currency: 'JPY',
          q: 'vc2',
        },
        http: '/instances?provider=provider_b&min_vcpu=2&max_price=80&sort_by=memory_gb&order=desc&limit=5&offset=1&currency=JPY&q=vc2',
      },
      {
        tool: 'search_instances',
        args: { has_gpu: false, min_memory_gb: 4, limit: 3 },
        http: '/instances?has_gpu=false&min_memory_gb=4&limit=3',
      },
      {
        tool: 'search_instances',
        args: { limit: 4, as_of: new Date().toISOString() },
        http: `/instances?limit=4&as_of=${encodeURIComponent(new Date().toISOString())}`,
      },
      {
        tool: 'compare_regions',
        args: { provider: 'provider_b', limit: 5 },
        http: '/instance-types?provider=provider_b&limit=5',
      },
      {
        tool: 'compare_regions',
        args: { min_vcpu: 2, currency: 'EUR', sort_by: 'spread', available_in: 'all' },
        http: '/instance-types?min_vcpu=2&currency=EUR&sort_by=spread&available_in=all&limit=10',
      },
      {
        tool: 'recommend',
        args: { stack: ['nginx', 'postgresql'], scale: 'medium', limit: 3 },
        http: { body: { stack: ['nginx', 'postgresql'], scale: 'medium', limit: 3 } },
      },
      {
        tool: 'recommend',
        args: { stack: ['nodejs'], scale: 'small', budget_max: 3000, currency: 'JPY' },
        http: {
          body: { stack: ['nodejs'], scale: 'small', budget_max: 3000, currency: 'JPY', limit: 5 },
        },
      },
      { tool: 'price_history', args: { id: recordId }, http: `/instances/${recordId}/history` },
      {
        tool: 'price_history',
        args: { id: recordId, currency: 'KRW' },
        http: `/instances/${recordId}/history?currency=KRW`,
      },
      { tool: 'list_changes', args: { limit: 5 }, http: '/changes?limit=5' },
      {
        tool: 'list_changes',
        args: { provider: 'provider_a', kind: 'added', limit: 3, currency: 'SGD' },
        http: '/changes?provider=provider_a&kind=added&limit=3&currency=SGD',
      },
      {
        tool: 'list_changes',
        args: { kind: 'added,removed', order: 'newest', summary: true, limit: 2 },
        http: '/changes?kind=added,removed&order=newest&summary=true&limit=2',
      },
    ];

    it('lists the six read-only tools, with the HTTP parameter names as their inputs', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [
          'compare_regions',
          'get_freshness',
          'list_changes',
          'price_history',
          'recommend',
          'search_instances',
        ].sort(),
      );
      for (const tool of tools) {
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      }
      const search = tools.find((tool) => tool.name === 'search_instances')!;
      expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['q', 'currency', 'sort_by', 'order', 'limit', 'offset', 'as_of']),
      );
      expect(search.inputSchema.properties).not.toHaveProperty('format');
      const history = tools.find((tool) => tool.name === 'price_history')!;
      expect(history.inputSchema.required).toEqual(['id']);
    });

    it('answers every tool with the route data, described exactly by its output schema', async () => {
      const { tools } = await client.listTools();
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats.default(ajv);
      for (const { tool, args, http } of cases()) {
        const result = await client.callTool({ name: tool, arguments: args });
        expect(result.isError, `${tool} ${JSON.stringify(result.content)}`).toBeFalsy();
        expect(withoutTiming(result.structuredContent), tool).toEqual(
          withoutTiming(await viaHttp(http)),
        );
        const schema = tools.find((t) => t.name === tool)!.outputSchema!;
        const validate = ajv.compile(closed(schema) as object);
        expect(
          validate(result.structuredContent),
          `${tool}: ${ajv.errorsText(validate.errors)}`,
        ).toBe(true);
      }
    });

    it('get_freshness gives /health providers and exchange rates, with display names', async () => {
      const result = await client.callTool({ name: 'get_freshness', arguments: {} });
      const health = (await server.t.app.inject({ url: '/health', headers: authed() })).json<{
        components: {
          providers: Record<string, unknown>[];
          exchange_rates: unknown;
        };
      }>();
      const data = result.structuredContent as {
        providers: { name: string; display_name: string }[];
        exchange_rates: unknown;
      };
      expect(data.exchange_rates).toEqual(health.components.exchange_rates);
      expect(data.providers.map(({ display_name: _d, ...rest }) => rest)).toEqual(
        health.components.providers.map((p) => ({
          name: p['name'],
          status: p['status'],
          last_sync: p['last_sync'],
          data_source: p['data_source'],
        })),
      );
      for (const provider of data.providers) {
        const listed = await server.t.app.inject({
          url: `/instances?provider=${provider.name}&limit=1`,
          headers: authed(),
        });
        const record = listed.json<{
          data: { instances: { provider: { display_name: string } }[] };
        }>().data.instances[0];
        if (record !== undefined) expect(provider.display_name).toBe(record.provider.display_name);
      }
      const { tools } = await client.listTools();
      const ajv = new Ajv({ strict: false });
      addFormats.default(ajv);
      const schema = tools.find((t) => t.name === 'get_freshness')!.outputSchema!;
      expect(ajv.validate(closed(schema) as object, data), ajv.errorsText()).toBe(true);
    });

    it('answers the same over the 2026-07-28 protocol (per-request envelope) as over 2025', async () => {
      const modern = await connectClient(server.url, { modern: true });
      try {
        const args = { provider: 'provider_a', limit: 3 };
        const now = await modern.callTool({ name: 'search_instances', arguments: args });
        const before = await client.callTool({ name: 'search_instances', arguments: args });
        expect(now.isError).toBeFalsy();
        expect(withoutTiming(now.structuredContent)).toEqual(
          withoutTiming(before.structuredContent),
        );
      } finally {
        await modern.close();
      }
    });
  });
}

// Run as `node --expose-gc --import tsx test/mcp/mcp-heap-child.ts <requests>`: an app on the
// test snapshots answers POST /mcp, warmed up first, then `requests` more of every kind a
// stateless server must forget: 2025-era and 2026-07-28 tool calls, each with a session id never
// seen before, tools/list, initialize, an unknown tool, malformed JSON and a notification. Prints,
// as JSON, the heap after gc() before and after those requests, and any status >= 500.
// HEAP_KIND=<0-6> sends only that kind of request (to find which one a growth comes from).
import { randomUUID } from 'node:crypto';
import { auth, createTestApp } from '../support/test-app.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const requests = Number(process.argv[2]);

const t = await createTestApp({ CLIENT_IP_HEADER: 'x-test-client' });
const sync = await t.app.inject({
  method: 'POST',
  url: '/sync',
  headers: { ...auth, 'content-type': 'application/json' },
  payload: JSON.stringify({ providers: ['provider_a', 'provider_b', 'provider_c'] }),
});
if (sync.statusCode !== 200) throw new Error(sync.body);

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'heap', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (name: string, args: object, modern: boolean) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: randomUUID(),
    method: 'tools/call',
    params: { name, arguments: args, ...(modern && { _meta: MODERN_META }) },
  });
/** The i-th request's body and protocol headers (get_freshness has no rate limit to run into). */
function message(i: number): { body: string; headers: Record<string, string> } {
  const legacy = { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': randomUUID() };
  switch (process.env.HEAP_KIND === undefined ? i % 7 : Number(process.env.HEAP_KIND)) {
    case 0:
      return { body: call('get_freshness', {}, false), headers: legacy };
    case 1:
      return {
        body: call('get_freshness', {}, true),
        headers: {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'get_freshness',
        },
      };
    case 2:
      return {
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list', params: {} }),
        headers: legacy,
      };
    case 3:
      return {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: `heap-${i}`, version: '1' },
          },
        }),
        headers: {},
      };
    case 4:
      return { body: call(`no_such_tool_${i}`, {}, false), headers: legacy };
    case 5:
      return { body: `{"jsonrpc":"2.0","id":${i},"method":`, headers: legacy };
    default:
      return {
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        headers: legacy,
      };
  }
}

const failures: string[] = [];
async function send(i: number): Promise<void> {
  const { body, headers } = message(i);
  const response = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      ...auth,
      'x-test-client': 'heap',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    payload: body,
  });
  if (response.statusCode >= 500) failures.push(`${response.statusCode} ${response.body}`);
}

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const WARM_UP = 1_000;
for (let i = 0; i < WARM_UP; i++) await send(i);
const before = heap();
// Numbered after the warm-up's: every measured request's names are new to the server.
for (let i = 0; i < requests; i++) await send(WARM_UP + i);
const after = heap();
await t.close();
process.stdout.write(JSON.stringify({ before, after, failures: failures.slice(0, 5) }));

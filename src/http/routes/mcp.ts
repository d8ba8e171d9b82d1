// POST /mcp (D59, D66): the assistant server over MCP's Streamable HTTP transport, stateless. The
// app's hooks have run (CORS preflight, key, body size); here: the Origin check (DNS-rebinding
// protection, whatever CORS allows), the body parsed once (mcp-messages.ts), one rate-limit
// charge per message (a tools/call against the endpoint its tool mirrors, any other message
// against the protocol budget), then the SDK's web-standard handler answers that parse. GET and
// DELETE (the transport's stream and session operations) get 405 from the app, as a stateless
// server may answer them.
import { createMcpHandler } from '@modelcontextprotocol/server';
import { SECOND_PROVIDER } from '../schemas/example-providers.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpDeps } from '../../mcp/mcp-deps.js';
import { createMcpServerFactory, TOOL_MIRRORS } from '../../mcp/mcp-server.js';
import type { AppServices } from '../app-services.js';
import { AppError, errorBody } from '../../api/errors.js';
import {
  calledTool,
  MCP_PROTOCOL_RATE_LIMIT,
  MCP_PROTOCOL_SCOPE,
  readMcpBody,
  rpcError,
} from '../mcp-messages.js';
import { PrebuiltToolsList } from '../mcp-tools-list.js';
import { ApiKeySecurity, commonErrorResponses, errorResponse } from '../schemas/common.js';
import { INSTANCES_RATE_LIMIT } from './instances.js';
import { RECOMMEND_RATE_LIMIT } from './recommend.js';

/** Counts one request against `scope`'s budget of `limit` a minute (D8); 429 over it. */
export type ChargeRateLimit = (
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  limit: number,
) => Promise<void>;

/** The budget each mirrored endpoint's tools count against; /health's (unlimited) is ours. */
const BUDGETS: Readonly<Record<string, { scope: string; limit: number }>> = {
  '/instances': { scope: '/instances', limit: INSTANCES_RATE_LIMIT },
  '/recommend': { scope: '/recommend', limit: RECOMMEND_RATE_LIMIT },
};
const PROTOCOL_BUDGET = { scope: MCP_PROTOCOL_SCOPE, limit: MCP_PROTOCOL_RATE_LIMIT };

/** The budget a message counts against: its tool's endpoint's, or the protocol budget. */
function budgetOf(message: unknown): { scope: string; limit: number } {
  const tool = calledTool(message);
  const endpoint = tool === undefined ? undefined : TOOL_MIRRORS.get(tool);
  return (endpoint === undefined ? undefined : BUDGETS[endpoint]) ?? PROTOCOL_BUDGET;
}

/** Request headers the transport reads; the key, cookies and hop-by-hop headers stay here. */
function forwarded(name: string): boolean {
  return (
    name === 'accept' ||
    name === 'content-type' ||
    name === 'last-event-id' ||
    name.startsWith('mcp-')
  );
}

const REQUEST_EXAMPLE = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'search_instances', arguments: { provider: SECOND_PROVIDER.name, limit: 0 } },
};

const RESPONSE_EXAMPLE = {
  jsonrpc: '2.0',
  id: 2,
  result: {
    isError: true,
    content: [
      {
        type: 'text',
        text: 'INVALID_PARAMETER: Invalid value for parameter "limit": must be from 1 to 100',
      },
    ],
    _meta: {
      'cloudprice/error': {
        code: 'INVALID_PARAMETER',
        message: 'Invalid value for parameter "limit": must be from 1 to 100',
        details: { parameter: 'limit', value: '0', reason: 'must be from 1 to 100' },
      },
    },
  },
};

const ORIGIN_REFUSED = 'Requests from this Origin are not allowed on /mcp (MCP_ALLOWED_ORIGINS)';

/** Response headers Node and the app own (connection handling, framing). */
const OWN_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function mcpRoute(
  app: FastifyInstance,
  services: AppServices,
  charge: ChargeRateLimit,
): void {
  const allowedOrigins = new Set(services.config.mcpAllowedOrigins);
  const handler = createMcpHandler(createMcpServerFactory(createMcpDeps(services, app.log)), {
    // Nothing is ever pushed to a client (the tools are fixed and read-only), and an open stream
    // would hold a connection and memory: a subscriptions/listen request is refused in-band.
    maxSubscriptions: 0,
    onerror: (error) => app.log.debug({ err: error }, 'mcp request refused by the transport'),
  });

  const toolsList = new PrebuiltToolsList(
    (request, options) => handler.fetch(request, options),
    (name) => !OWN_HEADERS.has(name),
  );

  // Its own scope: the body reaches the transport as text, so malformed JSON and batches get the
  // protocol's own errors (the app's JSON parser would answer with our envelope).
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/mcp',
      {
        schema: {
          operationId: 'mcp',
          tags: ['assistants'],
          summary: 'Model Context Protocol (Streamable HTTP, stateless) for AI assistants',
          description:
            'D59, D66: JSON-RPC messages of the Model Context Protocol (docs/mcp.md): six read-only tools mirroring /instances, /instance-types, /recommend, /instances/{id}/history, /changes and /health. Each message counts against a rate limit: a tools/call against the endpoint its tool mirrors, any other message (initialize, tools/list, ping, get_freshness...) against the /mcp budget (100 a minute). Batches: only under protocol 2025-03-26, at most 10 messages. The key may also be sent as `Authorization: Bearer <key>` (here only). A request with an Origin header not in MCP_ALLOWED_ORIGINS: 403. Refusals (401, 403, 413, 429...) are JSON-RPC errors with our code in error.data.code; a body that is not JSON: 400 with JSON-RPC error -32700, before anything runs. A tool refusing its arguments (unknown names included) answers isError with our error code (e.g. INVALID_PARAMETER) in the text and in _meta["cloudprice/error"]. GET and DELETE: 405.',
          security: ApiKeySecurity,
          body: {
            type: 'object',
            additionalProperties: true,
            description: 'One JSON-RPC message of the Model Context Protocol.',
            examples: [REQUEST_EXAMPLE],
          },
          response: {
            200: {
              description:
                'A JSON-RPC response: application/json, or a text/event-stream carrying it (2025-era clients). 202 without a body for a notification.',
              content: {
                'application/json': { schema: { type: 'object' }, example: RESPONSE_EXAMPLE },
              },
            },
            ...commonErrorResponses(400, 413),
            403: errorResponse(403, errorBody('FORBIDDEN', ORIGIN_REFUSED)),
          },
        },
        onRequest: (request, _reply, done) => {
          const origin = request.headers.origin;
          done(
            origin === undefined || allowedOrigins.has(origin)
              ? undefined
              : new AppError('FORBIDDEN', ORIGIN_REFUSED),
          );
        },
      },
      async (request, reply) => {
        const text = typeof request.body === 'string' ? request.body : '';
        const version = request.headers['mcp-protocol-version'];
        const body = readMcpBody(text, typeof version === 'string' ? version : undefined);
        if (!body.ok) {
          return reply
            .status(400 as 200)
            .header('content-type', 'application/json')
            .send(rpcError(body.code, body.message));
        }
        for (const message of body.messages) {
          const { scope, limit } = budgetOf(message);
          await charge(request, reply, scope, limit);
        }
        const prebuilt = await toolsList.answer(
          body.parsed,
          typeof version === 'string' ? version : undefined,
          request.headers.accept,
        );
        if (prebuilt !== undefined) {
          return reply
            .status(prebuilt.status as 200)
            .headers(prebuilt.headers)
            .send(prebuilt.body);
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined && forwarded(name)) {
            headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
        }
        const response = await handler.fetch(
          new Request('http://localhost/mcp', { method: 'POST', headers, body: text }),
          { parsedBody: body.parsed },
        );
        const sent: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!OWN_HEADERS.has(name)) sent[name] = value;
        });
        // The transport's own statuses (200, 202, 4xx with a JSON-RPC error) pass through.
        return reply
          .status(response.status as 200)
          .headers(sent)
          .send(await response.text());
      },
    );
    done();
  });
}

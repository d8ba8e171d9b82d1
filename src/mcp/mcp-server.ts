// The assistant server (D59): six read-only tools over the core, as one factory of SDK servers.
// Both transports use it: POST /mcp builds one server per request (stateless, nothing kept
// between requests), `cloudprice mcp` one per stdio connection.
import {
  McpServer,
  type CallToolResult,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import type { AppError } from '../api/errors.js';
import { compareRegions, recommend, searchInstances } from './catalog-tools.js';
import { getFreshness, listChanges, priceHistory } from './history-tools.js';
import { argumentProblem, inputSchema, withPageSize } from './tool-arguments.js';
import { passThrough, type JsonObject } from './tool-schema.js';
import type { McpDeps, MirroredEndpoint, ToolDefinition, ToolOutcome } from './tool-types.js';

export const MCP_SERVER_INFO = { name: 'cloudprice', version: '0.1.0' } as const;

export const TOOLS: readonly ToolDefinition[] = [
  searchInstances,
  compareRegions,
  recommend,
  priceHistory,
  listChanges,
  getFreshness,
];

/** The endpoint whose rate limit each tool's call counts against (D59), by tool name. */
export const TOOL_MIRRORS: ReadonlyMap<string, MirroredEndpoint> = new Map(
  TOOLS.map((tool) => [tool.name, tool.mirrors]),
);

/** `_meta` key of a failed call's error, `{ code, message, details? }` as in the HTTP envelope. */
export const ERROR_META_KEY = 'cloudprice/error';

/** What every tool shares, said once (the descriptions would repeat it six times). */
export const INSTRUCTIONS = [
  'cloudprice: prices of cloud compute instances (Linode, Vultr, AWS) in Tokyo, Seoul, Osaka, Singapore and Hong Kong, with price history, currencies and a recommender.',
  "Prices are per month in USD unless `currency` names another (converted at the latest ECB rate, given in metadata.exchange_rate); monthly = hourly x 730 where a provider prices by the hour. Memory filters are in GB; records give memory_mb. Region codes are the providers' own (ap-northeast-1, nrt, icn...); cities group them.",
  'Every price carries observed_at, when it was observed upstream: call get_freshness before presenting prices as current, and quote stale prices with their date.',
  "Each result is a short summary, then the whole result as JSON. Arguments not in a tool's schema, and null values, are refused with INVALID_PARAMETER and the allowed names; correct the argument and call again.",
].join(' ');

/** The error as the HTTP envelope would carry it: code and message in the text, all in _meta. */
export function errorResult(error: AppError): CallToolResult {
  const body = {
    code: error.code,
    message: error.message,
    ...(error.details !== undefined && { details: error.details }),
  };
  const details = error.details === undefined ? '' : `\ndetails: ${JSON.stringify(error.details)}`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}${details}` }],
    _meta: { [ERROR_META_KEY]: body },
  };
}

/**
 * D66: the summary, then the structured result as JSON text (the MCP specification's advice, and
 * what a client that passes only text to the model needs), then structuredContent itself.
 */
function toResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) return errorResult(outcome.error);
  return {
    content: [
      { type: 'text', text: outcome.summary },
      { type: 'text', text: JSON.stringify(outcome.data) },
    ],
    structuredContent: outcome.data,
  };
}

/** Checks the arguments (names, nulls, page size) before the tool's own parser sees them. */
export async function callTool(
  tool: ToolDefinition,
  args: JsonObject,
  deps: McpDeps,
): Promise<CallToolResult> {
  const problem = argumentProblem(tool.arguments, args);
  if (problem !== undefined) return errorResult(problem);
  let given = args;
  if (tool.page !== undefined) {
    const paged = withPageSize(args, tool.page);
    if (!paged.ok) return errorResult(paged.error);
    given = paged.args;
  }
  const outcome = await tool.run(given, deps);
  if (outcome.ok && deps.catalog.current?.lastSuccessfulSync === null) {
    return toResult({ ...outcome, summary: `${NEVER_SYNCED}\n${outcome.summary}` });
  }
  return toResult(outcome);
}

/** Said first in every answer while no provider has ever synced (an empty or new database). */
export const NEVER_SYNCED =
  'NOTE: the catalogue is empty: no provider has ever been synced on this server (run `cloudprice sync` with its settings). Nothing below is a real answer about prices.';

export function createMcpServerFactory(deps: McpDeps): McpServerFactory {
  // What each server registers, made once: a server per request only adds the registrations.
  const registrations = TOOLS.map((tool) => ({
    name: tool.name,
    config: {
      title: tool.title,
      description: tool.description,
      inputSchema: passThrough(inputSchema(tool.arguments, tool.required)),
      outputSchema: passThrough(tool.output),
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    handler: (args: JsonObject) => callTool(tool, args, deps),
  }));
  return () => {
    // The tools never change while the server runs: no list_changed is ever sent, so none is
    // promised (the SDK would advertise it by default).
    const server = new McpServer(MCP_SERVER_INFO, {
      instructions: INSTRUCTIONS,
      capabilities: { tools: { listChanged: false } },
    });
    for (const { name, config, handler } of registrations) {
      server.registerTool(name, config, handler);
    }
    return server;
  };
}

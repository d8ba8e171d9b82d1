// The assistant server (D59): six read-only tools over the core, as one factory of SDK servers.
// Both transports use it: POST /mcp builds one server per request (stateless, nothing kept
// between requests), `cloudprice mcp` one per stdio connection.
import {
  McpServer,
  type CallToolResult,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import type { AppError } from '../http/errors.js';
import { compareRegions, recommend, searchInstances } from './catalog-tools.js';
import { getFreshness, listChanges, priceHistory } from './history-tools.js';
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

const INSTRUCTIONS =
  'cloudprice: prices of cloud compute instances (Linode, Vultr, AWS) in Asian regions, with history, currencies and a recommender. Prices are monthly USD unless a currency is asked for; each carries when it was observed upstream. Call get_freshness before presenting prices as current.';

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

function toResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) return errorResult(outcome.error);
  return {
    content: [{ type: 'text', text: outcome.summary }],
    structuredContent: outcome.data,
  };
}

export function createMcpServerFactory(deps: McpDeps): McpServerFactory {
  // What each server registers, made once: a server per request only adds the registrations.
  const registrations = TOOLS.map((tool) => ({
    name: tool.name,
    config: {
      title: tool.title,
      description: tool.description,
      inputSchema: passThrough(tool.input),
      outputSchema: passThrough(tool.output),
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    handler: async (args: JsonObject) => toResult(await tool.run(args, deps)),
  }));
  return () => {
    const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
    for (const { name, config, handler } of registrations) {
      server.registerTool(name, config, handler);
    }
    return server;
  };
}

// What POST /mcp decides before the SDK sees a body (D66): the body is parsed once, here (a
// UTF-8 byte-order mark is skipped, as a JSON reader should), and that parse is what both the
// rate limiter and the SDK read; a body that does not parse, or a batch the protocol version does
// not allow, is refused before any call runs. Each message is counted: a tools/call against the
// endpoint its tool mirrors, everything else (initialize, tools/list, ping, notifications,
// get_freshness) against the protocol budget.
import type { ErrorCode } from '../api/errors.js';

/** The 2025-03-26 revision is the only one with JSON-RPC batches; later ones removed them. */
const BATCH_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26']);

/** At most this many messages in one batch: one POST is a few calls' work, never a hundred. */
export const MAX_BATCH = 10;

/** Messages per client address per minute that call no mirrored tool (D66). */
export const MCP_PROTOCOL_RATE_LIMIT = 100;
export const MCP_PROTOCOL_SCOPE = '/mcp';

/** JSON-RPC codes of the refusals made here (the SDK answers the same codes for its own). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** Our HTTP-level refusals on /mcp (401, 403, 413, 429...): the JSON-RPC server-error range. */
export const HTTP_REFUSAL = -32000;

export type McpBody =
  | { readonly ok: true; readonly messages: readonly unknown[]; readonly parsed: unknown }
  | { readonly ok: false; readonly code: number; readonly message: string };

/**
 * The body as the SDK will get it. `version`: the Mcp-Protocol-Version header (absent on
 * `initialize` and from 2025-03-26 clients, which may batch).
 */
export function readMcpBody(text: string, version: string | undefined): McpBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { ok: false, code: PARSE_ERROR, message: 'Parse error: the body is not valid JSON' };
  }
  if (!Array.isArray(parsed)) return { ok: true, messages: [parsed], parsed };
  if (version !== undefined && !BATCH_VERSIONS.has(version)) {
    return {
      ok: false,
      code: INVALID_REQUEST,
      message: `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per request`,
    };
  }
  if (parsed.length === 0 || parsed.length > MAX_BATCH) {
    return {
      ok: false,
      code: INVALID_REQUEST,
      message: `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`,
    };
  }
  return { ok: true, messages: parsed, parsed };
}

/** The tool a JSON-RPC message calls, when it is a tools/call with a tool name. */
export function calledTool(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

/** A JSON-RPC error response (id null: the request's id is not known to the refusal). */
export function rpcError(code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: data === undefined ? { code, message } : { code, message, data },
  });
}

/**
 * Our refusal (401, 429...) as a JSON-RPC error, so an MCP client shows its message: the code and
 * message in `message`, and `{ code, message, details? }` (the HTTP envelope's error) in `data`.
 */
export function mcpRefusalBody(
  code: ErrorCode,
  message: string,
  details: Readonly<Record<string, unknown>> | undefined,
): string {
  return rpcError(HTTP_REFUSAL, `${code}: ${message}`, {
    code,
    message,
    ...(details !== undefined && { details }),
  });
}

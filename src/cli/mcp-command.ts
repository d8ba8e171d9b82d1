// `cloudprice mcp`: the assistant server (D59) over stdio, against the configured database, for an
// assistant that starts this command itself (docs/mcp.md). stdout belongs to the protocol: every
// line on it is a JSON-RPC message; logs and the generated-key notice go to stderr.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createMcpDeps } from '../mcp/mcp-deps.js';
import { createMcpServerFactory } from '../mcp/mcp-server.js';
import {
  cliLog,
  configOf,
  EXIT_OK,
  parseCommandArgs,
  withServices,
  type CliIo,
} from './cli-common.js';

export const MCP_USAGE = `Usage: cloudprice mcp

Serves the Model Context Protocol over stdin and stdout for an AI assistant that runs this
command (docs/mcp.md): six read-only tools (search_instances, compare_regions, recommend,
price_history, list_changes, get_freshness) answered from the configured database, as the HTTP
API answers them. stdout carries only protocol messages; logs go to stderr. Runs until stdin
closes, then exits 0.`;

/** Resolves when the assistant closes our stdin (it has gone, or is shutting us down). */
function stdinClosed(stdin: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
}

export async function runMcpCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    'mcp',
    args,
    { help: { type: 'boolean', short: 'h' } },
    false,
  );
  if (values.help === true) {
    io.out(MCP_USAGE);
    return EXIT_OK;
  }
  const config = configOf(io);
  const log = cliLog(config, io);
  return withServices(config, io, async (services) => {
    const closed = stdinClosed(process.stdin);
    // The protocol owns the process's stdin and stdout (the SDK's stdio transport reads and
    // writes them); nothing else in this command writes to stdout.
    const server = serveStdio(createMcpServerFactory(createMcpDeps(services, log)), {
      onerror: (error) => log.warn({ err: error }, 'mcp stdio message refused'),
    });
    await closed;
    await server.close();
    return EXIT_OK;
  });
}

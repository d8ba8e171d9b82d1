// `cloudprice mcp`: the assistant server (D59) over stdio, against the configured database, for an
// assistant that starts this command itself (docs/mcp.md). stdout belongs to the protocol: every
// line on it is a JSON-RPC message; logs and notices go to stderr.
//
// An assistant starts the command from a working directory of its own, so nothing here depends
// on it (D66): the bundled snapshots and exchange rates are found from the installation, a
// database that does not exist is refused rather than created, and no API key is ever made (the
// stdio server serves no HTTP: whoever can run it can read the database anyway).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { loadConfig, type Config } from '../config.js';
import { digestKey } from '../keys/key-digest.js';
import { parseDatabaseUrl } from '../storage/create-catalog-store.js';
import { createMcpDeps } from '../mcp/mcp-deps.js';
import { createMcpServerFactory } from '../mcp/mcp-server.js';
import { jsonRpcLines } from '../mcp/stdio-lines.js';
import { randomBytes } from 'node:crypto';
import {
  cliLog,
  EXIT_NO_DATA,
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
closes, then exits 0.

The database must exist (DATA_DIR or DATABASE_URL, as for the server; run \`cloudprice sync\`
first): a missing SQLite file is refused (exit 4), never created. The bundled snapshots and
exchange rates are read from the installation, whatever the working directory.`;

/** The package's root: the nearest folder above this file holding package.json (src/ or dist/). */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

/**
 * The configuration as the server would load it, but with the bundled snapshots (and the
 * exchange-rate recording in them) found from the installation unless SNAPSHOT_DIR says
 * otherwise, and with a key no one holds, so that no key file is ever written.
 */
export function mcpConfig(io: CliIo): Config {
  const snapshots = io.env['SNAPSHOT_DIR'] ?? path.join(packageRoot(), 'data', 'snapshots');
  const config = loadConfig({ ...io.env, SNAPSHOT_DIR: snapshots }, io.cwd);
  return { ...config, apiKeyDigests: [digestKey(randomBytes(32).toString('base64url'))] };
}

/** Where the database is, for a person (never a password). */
function databaseName(config: Config): string {
  const location = parseDatabaseUrl(config.databaseUrl);
  return location.kind === 'sqlite'
    ? path.resolve(location.path)
    : 'the PostgreSQL database of DATABASE_URL';
}

/** The SQLite file the configuration names, when it is one that does not exist. */
function missingDatabase(config: Config): string | undefined {
  const location = parseDatabaseUrl(config.databaseUrl);
  if (location.kind !== 'sqlite' || location.path === ':memory:') return undefined;
  return existsSync(location.path) ? undefined : path.resolve(location.path);
}

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
  const config = mcpConfig(io);
  const missing = missingDatabase(config);
  if (missing !== undefined) {
    io.err(
      `cloudprice mcp: no database at ${missing}. Set DATA_DIR to the data directory of your cloudprice installation (or DATABASE_URL), or run \`cloudprice sync\` with the same settings first. Nothing was created.`,
    );
    return EXIT_NO_DATA;
  }
  const log = cliLog(config, io);
  return withServices(config, io, async (services) => {
    const deps = createMcpDeps(services, log);
    const synced = (services.catalog.current ?? (await services.catalog.ready()))
      .lastSuccessfulSync;
    if (synced === null) {
      io.err(
        `cloudprice mcp: the catalogue in ${databaseName(config)} is empty: no provider has ever been synced. Run \`cloudprice sync\` with the same settings; until then every tool says so.`,
      );
    }
    const closed = stdinClosed(process.stdin);
    // The protocol owns the process's stdin and stdout; lines the SDK would drop unanswered
    // (batches, text that is not JSON) are answered by jsonRpcLines.
    const lines = process.stdin.pipe(jsonRpcLines((line) => process.stdout.write(line)));
    const server = serveStdio(createMcpServerFactory(deps), {
      transport: new StdioServerTransport(lines, process.stdout),
      onerror: (error) => log.warn({ err: error }, 'mcp stdio message refused'),
    });
    await closed;
    await server.close();
    return EXIT_OK;
  });
}

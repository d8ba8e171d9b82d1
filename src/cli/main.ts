#!/usr/bin/env node
// The `cloudprice` command: operator tasks that call the core directly, never over HTTP.
// Runs as `node dist/src/cli/main.js` (the package's bin) or `npx tsx src/cli/main.ts`.
import { existsSync } from 'node:fs';
import { ConfigError } from '../config.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './cli-common.js';
import { runHealthCommand } from './health-command.js';
import { runInstancesCommand } from './instances-command.js';
import { runKeysCommand } from './keys-command.js';
import { runMcpCommand } from './mcp-command.js';
import { runRecommendCommand } from './recommend-command.js';
import { runSyncCommand } from './sync-command.js';
import { runWebhooksCommand } from './webhooks-command.js';

export const USAGE = `Usage: cloudprice <command> [options]

Commands:
  keys create                 add a new API key to the keys file and print it once
  keys list                   print the fingerprint of every configured key
  keys revoke <fingerprint>   remove a key from the keys file (--force for the last one)
  instances [filters]         list instances and prices (as GET /instances)
  recommend --stack --scale   rank instances for a software stack (as POST /recommend)
  sync [provider ...]         sync providers now (default: all) and print the results
  health                      print the health report; exit 0 only when healthy
  webhooks list               print the webhook subscriptions (never their secrets)
  webhooks deliveries         print recent webhook deliveries and their status
  mcp                         serve AI assistants over stdio (Model Context Protocol, docs/mcp.md)

Run \`cloudprice <command> --help\` for details. Configuration is read from the environment
(and a .env file in the working directory), exactly as the server reads it.
Exit codes: 0 success, 1 failure, 2 bad command line or configuration, 3 nothing matched,
4 the catalogue is empty (docs/cli.md).`;

const COMMANDS: Readonly<
  Record<string, (args: readonly string[], io: CliIo) => number | Promise<number>>
> = {
  keys: runKeysCommand,
  instances: runInstancesCommand,
  recommend: runRecommendCommand,
  sync: runSyncCommand,
  health: runHealthCommand,
  webhooks: runWebhooksCommand,
  mcp: runMcpCommand,
};

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return EXIT_OK;
  }
  const handler = command === undefined ? undefined : COMMANDS[command];
  if (handler === undefined) {
    io.err(
      command === undefined
        ? 'cloudprice: missing command'
        : `cloudprice: unknown command "${command}"`,
    );
    io.err(USAGE);
    return EXIT_USAGE;
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`cloudprice ${error.command}: ${error.message}`);
      io.err(`Run \`cloudprice ${error.command} --help\` for usage.`);
      return EXIT_USAGE;
    }
    if (error instanceof ConfigError) {
      io.err(`cloudprice: configuration error: ${error.message}`);
      return EXIT_USAGE;
    }
    // Anything else is a real failure (unreadable file, database down, …): say what and exit 1.
    io.err(
      `cloudprice ${command}: failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return EXIT_FAILURE;
  }
}

// As the server does: a .env file in the working directory fills in variables not already set.
if (existsSync('.env')) process.loadEnvFile('.env');
// A progress line is for a person watching: only when stderr is a terminal, redrawn in place.
let progressShown = false;
const progress = process.stderr.isTTY
  ? (line: string | undefined) => {
      if (line === undefined && !progressShown) return;
      process.stderr.write(`\r\x1b[2K${line ?? ''}`);
      progressShown = line !== undefined;
    }
  : undefined;
const io: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  write: (text) => process.stdout.write(text),
  err: (text) => {
    progress?.(undefined);
    process.stderr.write(`${text}\n`);
  },
  env: process.env,
  cwd: process.cwd(),
  ...(progress !== undefined && { progress }),
};
const code = await run(process.argv.slice(2), io);
process.exitCode = code;
// Everything is closed by now; should a stray handle keep the event loop alive, do not hang.
setTimeout(() => process.exit(code), 2_000).unref();

// What every `cloudprice` command shares: where output goes, exit codes, argument parsing that
// turns mistakes into usage errors, and building (and always closing) the core services.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { installProviders } from '../catalog/model.js';
import { loadConfig, type Config } from '../config.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createServices, type Services } from '../services.js';

/** Output and environment of one run, so commands never touch `process` themselves. */
export interface CliIo {
  /** One line (or block) to stdout: the command's result. */
  out(text: string): void;
  /** Text to stdout exactly as given, no newline added (CSV keeps its CRLF line ends). */
  write(text: string): void;
  /** One line (or block) to stderr: diagnostics, and anything a script should not capture. */
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * Replaces the one progress line on stderr (undefined clears it). Set only when stderr is a
   * terminal: a script or a log file gets no progress, only the result.
   */
  readonly progress?: (line: string | undefined) => void;
}

/** Exit codes (docs/cli.md): what happened, so a script can branch without parsing output. */
/** Done, with a result. */
export const EXIT_OK = 0;
/** The command ran and something failed (a provider's sync, the database, a query). */
export const EXIT_FAILURE = 1;
/** The command line or the configuration is wrong; nothing was done. */
export const EXIT_USAGE = 2;
/** A query ran and matched nothing (`instances`, `recommend`). */
export const EXIT_NO_MATCH = 3;
/** The catalogue is empty: no provider has ever synced (run `cloudprice sync`). */
export const EXIT_NO_DATA = 4;

export const OUTPUT_FORMATS = ['table', 'json', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--format` (default table); `allowed` narrows it for commands without a CSV form. */
export function outputFormat(
  command: string,
  value: string | undefined,
  allowed: readonly OutputFormat[] = OUTPUT_FORMATS,
): OutputFormat {
  if (value === undefined) return 'table';
  const format = allowed.find((name) => name === value);
  if (format === undefined) {
    throw new UsageError(`--format must be one of ${allowed.join(', ')}, got "${value}"`, command);
  }
  return format;
}

/** A mistake in the command line: reported with a pointer to `--help`, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose `--help` explains the mistake, e.g. `keys revoke`. */
    readonly command: string,
  ) {
    super(message);
  }
}

/** `node:util` parseArgs in strict mode, with its errors (unknown option, …) as UsageError. */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(
  command: string,
  args: readonly string[],
  options: T,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    if (error instanceof TypeError && 'code' in error) throw new UsageError(error.message, command);
    throw error;
  }
}

/**
 * The same configuration the server would use (ConfigError propagates: exit 2 in main). It also
 * installs the providers PROVIDERS enables (D65), as the services would, so a command that checks
 * provider names before opening anything checks them against the configured ones.
 */
export function configOf(io: CliIo): Config {
  const config = loadConfig(io.env, io.cwd);
  installProviders(config.registry);
  return config;
}

/**
 * The core services' log for a command (D52: the same pino logger and format as the server),
 * on stderr so a script capturing stdout gets only the result. Failures are shown (the real
 * cause, which API responses keep vague, is what an operator needs); progress only with
 * LOG_LEVEL debug or trace, since the command prints its own result.
 */
export function cliLog(config: Config, io: CliIo): Logger {
  const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
  const quiet = config.logLevel === 'silent' || config.logLevel === 'fatal';
  return createLogger({
    level: verbose || quiet ? config.logLevel : 'warn',
    format: config.logFormat,
    destination: { write: (line: string) => io.err(line.replace(/\n$/, '')) },
  });
}

/** Builds the services, runs `use`, and closes them whatever happened. */
export async function withServices<T>(
  config: Config,
  io: CliIo,
  use: (services: Services) => Promise<T>,
): Promise<T> {
  const services = await createServices(config, cliLog(config, io));
  try {
    const { keys } = services;
    // createServices resolves the API keys and, on a fresh data directory, generates one (D6).
    // It is shown here once, as the server would, or nobody would ever see it.
    const generatedKey = keys.takeGeneratedKey();
    if (generatedKey !== undefined) {
      io.err(`Generated an API key (stored in ${keys.file}, mode 0600). Send it as X-API-Key:`);
      io.err(`  ${generatedKey}`);
    }
    return await use(services);
  } finally {
    await services.close();
  }
}

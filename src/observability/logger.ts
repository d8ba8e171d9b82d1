// The one logger of the process (D52): every line from every part (Fastify's request lines, the
// sync service, the scheduler, the start-up banner, the CLI's diagnostics) is one JSON object
// from this pino logger, with a text `level`, an ISO `time`, `msg`, `reqId` on request lines
// (Fastify's child loggers add it) and errors under `err` with message, code and stack.
// LOG_FORMAT=pretty renders the same lines for a person at a terminal (pino-pretty).
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { serializeError } from './error-serializer.js';

export type { Logger } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  readonly level: LogLevel;
  readonly format: LogFormat;
  /** File descriptor to write to: 1 (stdout, the server) or 2 (stderr, the CLI). */
  readonly fd?: 1 | 2;
  /** Where lines go instead of `fd` (the CLI's output object, tests). */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const fd = options.fd ?? 1;
  const pinoOptions: pino.LoggerOptions = {
    level: options.level,
    // Text levels: a log pipeline should not need pino's number table (30 = info).
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    // No pid/hostname on every line: the platform running the process knows both.
    base: undefined,
    serializers: { err: serializeError, error: serializeError },
    // The API key header must never reach a log, whatever a serializer decides to include.
    redact: ['req.headers["x-api-key"]', 'headers["x-api-key"]'],
  };
  const target = options.destination ?? fileDestination(fd);
  const destination =
    options.format === 'pretty'
      ? pretty({
          destination: target,
          sync: true,
          colorize:
            options.destination === undefined && (fd === 1 ? process.stdout : process.stderr).isTTY,
          translateTime: 'SYS:HH:MM:ss.l',
          // The banner's fields repeat what its message says; a person needs them once.
          ignore: 'pid,hostname,url,keyFile,apiKey,keySource,uiUrl,metricsUrl',
        })
      : target;
  return pino(pinoOptions, destination);
}

/**
 * Where the server writes (fd 1) and where the CLI and start-up failures write (fd 2).
 * The server's writes are asynchronous (D60: log writes never block the request path): a line
 * goes into SonicBoom's buffer and is written by one `fs.write` at a time, lines that arrive
 * meanwhile joining the next write; under load that is a few writes a millisecond, not one
 * blocking write per line. `maxLength` bounds the buffer when the reader of stdout stalls
 * (beyond 16 MiB lines are dropped rather than the process growing). What is still buffered
 * when the process exits is written synchronously by the 'exit' listener below, so lines logged
 * just before process.exit() (the end of a drain, a failed start) are not lost; `fatal` always
 * writes synchronously (pino). fd 2 stays synchronous: the CLI prints a few lines and exits.
 */
function fileDestination(fd: 1 | 2): DestinationStream {
  if (fd === 2) return pino.destination({ dest: fd, sync: true });
  stdout ??= asyncStdout();
  return stdout;
}

/** One per process: every logger of the server shares it, and it has one 'exit' listener. */
let stdout: DestinationStream | undefined;

function asyncStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Not open yet (nothing was written) or already closed: nothing to flush.
    }
  });
  return destination;
}

/** A logger that drops everything (tests, benchmarks that measure without logging). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

// The real server as a child process (`node --import tsx src/main.ts`), for tests of start-up,
// shutdown and being killed. Every child is tracked so a suite can kill what is left in afterAll.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LISTENING = /^cloudprice listening on (\S+)$/;

/** One stdout line as the logger wrote it (D52: every line is one JSON object). */
export interface LogLine {
  readonly level: string;
  readonly time: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** The parsed line, or undefined when it is not one JSON object (a test asserts there are none). */
export function parseLogLine(text: string): LogLine | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as LogLine)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The text a pattern is matched against: a log line's `msg`, or the raw line. */
function messageOf(text: string): string {
  const line = parseLogLine(text);
  return typeof line?.msg === 'string' ? line.msg : text;
}

export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Lines printed on stdout so far (a live view), raw. */
  readonly stdout: readonly string[];
  /** The `msg` of every stdout line so far (the raw text of a line that is not JSON). */
  messages(): string[];
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** Resolves with the base URL once the server printed its listening line. */
  listening(timeoutMs?: number): Promise<string>;
  /** Resolves with the index of the first stdout line whose message matches `pattern`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<number>;
  readonly exited: Promise<ServerExit>;
  /** Sends `signal` (default SIGKILL) and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<ServerExit>;
}

const children = new Set<ChildProcess>();

/**
 * Starts the server in the repository root with only `env` (plus PATH and HOME): nothing of the
 * test runner's environment leaks into its configuration. No .env file is read unless the
 * repository has one.
 */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? '/tmp',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const stdout: string[] = [];
  let stderr = '';
  let partial = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    stdout.push(...parts);
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<ServerExit>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
      for (const wake of waiters) wake();
    });
  });

  const line = (pattern: RegExp, timeoutMs = 60_000): Promise<number> => {
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `no line matching ${String(pattern)} within ${timeoutMs} ms; stderr: ${stderr}`,
          ),
        );
      }, timeoutMs);
      const check = () => {
        const index = stdout.findIndex((text) => pattern.test(messageOf(text)));
        if (index >= 0) {
          clearTimeout(timer);
          waiters.delete(check);
          return resolve(index);
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`server exited (${child.exitCode ?? child.signalCode}): ${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  };

  return {
    child,
    stdout,
    messages: () => stdout.map(messageOf),
    stderr: () => stderr,
    line,
    async listening(timeoutMs = 60_000) {
      const index = await line(LISTENING, timeoutMs);
      return LISTENING.exec(messageOf(stdout[index]!))![1]!;
    },
    exited,
    async stop(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Kills every server child still running (for afterAll). */
export async function killAllServers(): Promise<void> {
  const running = [...children];
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) resolve();
          else child.once('exit', () => resolve());
        }),
    ),
  );
}

/**
 * A real cloudprice server process (`node --import tsx src/main.ts`), as one replica of a
 * deployment. It listens on PORT=0 (the kernel picks a free port, so there is no race between
 * choosing a port and binding it) and reports its address on stdout, which is how we learn it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The line main.ts prints once the server accepts connections. */
const LISTENING = /"msg":"cloudprice listening on (http:\/\/[^"\s]+)"/;
/** Output kept for failure messages (the tail of stdout and stderr together), in characters. */
const OUTPUT_KEPT = 20_000;

export interface Replica {
  readonly name: string;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly pid: number;
  /** The tail of what the process printed, for failure messages. */
  output(): string;
  /** True once the process has exited (killed or not). */
  exited(): boolean;
  /** Sends `signal` and resolves once the process has exited. Harmless after exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM, then SIGKILL if still alive after `graceMs`; removes its data directory. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a replica with exactly `env` on top of PATH and HOME (nothing else leaks in from the
 * test process: no DATABASE_URL, NODE_OPTIONS or Vitest variables), and resolves once it
 * listens. Rejects, with its output, when it exits first or does not listen within `timeoutMs`.
 */
export async function startReplica(
  name: string,
  env: Readonly<Record<string, string>>,
  timeoutMs = 60_000,
): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), `cloudprice-${name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? tmpdir(),
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let url: string;
  try {
    url = await waitForAddress(child, () => output, timeoutMs);
  } catch (error) {
    await killAndWait(child, exit, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name}: no pid`);

  return {
    name,
    url,
    pid,
    output: () => output,
    exited: () => hasExited(child),
    kill: (signal) => killAndWait(child, exit, signal),
    async stop(graceMs = 5_000) {
      if (!hasExited(child)) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exit;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function killAndWait(
  child: ChildProcess,
  exit: Promise<void>,
  signal: NodeJS.Signals,
): Promise<void> {
  if (hasExited(child)) return;
  child.kill(signal);
  await exit;
}

function waitForAddress(
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const settle = (error: Error | undefined, url?: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error === undefined && url !== undefined) resolve(url);
      else reject(error ?? new Error('no address'));
    };
    const onData = () => {
      const match = LISTENING.exec(output());
      if (match?.[1] !== undefined) settle(undefined, match[1]);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(
        new Error(`replica exited before listening (code ${code}, signal ${signal}):\n${output()}`),
      );
    const timer = setTimeout(
      () => settle(new Error(`replica did not listen within ${timeoutMs} ms:\n${output()}`)),
      timeoutMs,
    );
    // Registered after the shared `keep` listener, so output() already holds this chunk.
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

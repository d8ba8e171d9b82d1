// The server as `npm start` runs it (D60): `npm run build` in the tree, then
// `node dist/src/main.js` with the tree as working directory, the default configuration (no
// LOG_LEVEL: `info`, one line per request) and stdout and stderr appended to a log file, as an
// operator keeping logs in a file runs it. The only settings given are what a benchmark cannot
// do without: where the data lives, a free port, a known API key, the header carrying each
// request's client address, and a counter table large enough for a whole bench's addresses
// (bench-settings.ts). No variable of the harness's own environment reaches the server.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb, type ServerProcess } from './server-process.js';

/** Builds `tree` as `npm run build` does; returns the script `npm start` runs. */
export function buildShipped(tree: string): string {
  const started = performance.now();
  const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: tree, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build failed in ${tree} (${built.status})`);
  console.log(`built ${tree} (npm run build, ${Math.round(performance.now() - started)} ms)`);
  return path.join(tree, 'dist/src/main.js');
}

export interface ShippedServer extends ServerProcess {
  readonly logFile: string;
  /** Request lines (`msg: "request"`) written so far (D60: one per answered request). */
  requestLines(): number;
  /** Bytes of the log file so far. */
  logBytes(): number;
}

const LISTENING = /^cloudprice listening on (\S+)$/;

/**
 * Starts `main` (from buildShipped) on `dataDir` with `env` over the defaults; stdout and stderr
 * go to `<dataDir>/server-<n>.log`. Log lines other than request lines are kept for `logs`
 * (the harness reads `build_ms` there); request lines are only counted.
 */
export function startShipped(
  main: string,
  dataDir: string,
  env: Readonly<Record<string, string>>,
  nodeOptions: readonly string[] = [],
): ShippedServer {
  const tree = path.resolve(path.dirname(main), '../..');
  const logFile = path.join(dataDir, `server-${Date.now()}-${Math.floor(Math.random() * 1e6)}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeOptions, main], {
    cwd: tree,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? '/tmp',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const pid = child.pid!;
  const logs: Array<Record<string, unknown>> = [];
  let requests = 0;
  let offset = 0;
  let partial = '';
  /** Reads what the server appended since the last call. */
  const readLog = () => {
    const size = statSync(logFile).size;
    if (size <= offset) return;
    const input = openSync(logFile, 'r');
    try {
      const buffer = Buffer.alloc(size - offset);
      readSync(input, buffer, 0, buffer.length, offset);
      offset = size;
      const lines = (partial + buffer.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('"msg":"request"')) requests += 1;
        else if (line.startsWith('{')) logs.push(JSON.parse(line) as Record<string, unknown>);
        else if (line.trim() !== '') logs.push({ msg: line, raw: true });
      }
    } finally {
      closeSync(input);
    }
  };
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = (async () => {
    for (;;) {
      readLog();
      for (const line of logs) {
        const match = typeof line.msg === 'string' ? LISTENING.exec(line.msg) : null;
        if (match) return match[1]!;
      }
      if (exited) {
        const tail = logs
          .slice(-5)
          .map((l) => JSON.stringify(l))
          .join('\n');
        throw new Error(`${main} exited before listening; log ${logFile}:\n${tail}`);
      }
      await sleep(50);
    }
  })();
  return {
    url,
    pid,
    logFile,
    get logs() {
      readLog();
      return logs;
    },
    requestLines() {
      readLog();
      return requests;
    },
    logBytes: () => statSync(logFile).size,
    rssMb: () => rssMb(pid),
    alive: () => child.exitCode === null && child.signalCode === null,
    signal: (name) => child.kill(name),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

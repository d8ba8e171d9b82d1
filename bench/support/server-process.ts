// Servers under test run in their own processes (`node --import tsx <script>` for TypeScript,
// plain `node` for compiled JavaScript: see loaderFor), so the load
// generator, the harness and each server never share an event loop, and each one's memory is
// its own process's RSS.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` from the script's `listening <url>` line. */
  readonly url: Promise<string>;
  readonly pid: number;
  /** Lines the script printed after `LOG ` (JSON objects), in order. */
  readonly logs: ReadonlyArray<Record<string, unknown>>;
  /** Resident set size now, MB (10^6 bytes), from /proc. */
  rssMb(): number;
  /** True while the process runs. */
  alive(): boolean;
  signal(name: NodeJS.Signals): void;
  stop(): Promise<void>;
}

export function startServer(
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  nodeOptions: readonly string[] = [],
): ServerProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeOptions, ...loaderFor(script), script, ...args],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const logs: Array<Record<string, unknown>> = [];
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      let newline: number;
      while ((newline = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, newline);
        out = out.slice(newline + 1);
        const listening = /^listening (http:\/\/\S+)$/.exec(line);
        if (listening) resolve(listening[1]!);
        else if (line.startsWith('LOG ')) logs.push(JSON.parse(line.slice(4)) as never);
        else if (line.trim() !== '') console.log(`  [${script.split('/').pop()}] ${line}`);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before listening`)),
    );
  });
  const pid = child.pid!;
  return {
    url,
    pid,
    logs,
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

/** VmRSS of a process in MB (10^6 bytes). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return (Number(kb[1]) * 1024) / 1e6;
}

/** Runs a script to completion (e.g. filling a database), failing on a non-zero exit. */
export function runScript(
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  cwd?: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...loaderFor(script), script, ...args], {
      env: { ...process.env, ...env },
      ...(cwd !== undefined && { cwd }),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}

/** TypeScript sources run through tsx; compiled JavaScript (bench/.out) runs as production does. */
export function loaderFor(script: string): string[] {
  return script.endsWith('.ts') ? ['--import', 'tsx'] : [];
}

// npm run bench:start — how long a first start takes (issue 8 item 6: `npm start` on an empty
// data directory listens, with the catalogue filled, within 10 s), and where the time goes.
//   - `npm start` cold (no dist/: the TypeScript build and the web build both run) and warm
//     (dist/ built before), each on a new empty data directory, timed from the spawn to the
//     "cloudprice listening" log line;
//   - the steps alone: `npm run build`, the web build, and `node dist/src/main.js` to listening;
//   - a CPU profile of `node dist/src/main.js` on an empty data directory (every thread: the
//     provider_c parse workers too), summarised as the functions with the most self time.
// It removes and rebuilds this checkout's dist/. Writes its section of docs/performance.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { topFrames } from './support/cpu-profile.js';
import { machineLine, uptime, writeSection } from './support/report.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_START_RUNS ?? 2);

interface Timed {
  readonly ms: number;
  /** The time (epoch ms, from pino's ISO `time`) and msg of every log line printed. */
  readonly lines: ReadonlyArray<{ time: number; msg: string }>;
  readonly spawnedAt: number;
  /**
   * CPU time (user + system, all threads) of the spawned process when the line matched: the
   * server's own when it is `node`, only npm's own when it is `npm`.
   */
  readonly cpuMs: number | undefined;
}

/** utime + stime of a process, every thread included, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Runs `command` in ROOT; resolves when it exits (`until` undefined) or when a line matches
 * `until` (then the process group is stopped with SIGTERM).
 */
function timed(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  until?: RegExp,
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npm's child node is stopped with it
    });
    const lines: Array<{ time: number; msg: string }> = [];
    let out = '';
    let err = '';
    let listenedMs: number | undefined;
    let cpuMs: number | undefined;
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      let newline: number;
      while ((newline = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, newline);
        out = out.slice(newline + 1);
        try {
          const parsed = JSON.parse(line) as { time?: string; msg?: string };
          const time = Date.parse(parsed.time ?? '');
          if (!Number.isNaN(time)) lines.push({ time, msg: parsed.msg ?? '' });
        } catch {
          // npm's own lines
        }
        if (listenedMs === undefined && until?.test(line)) {
          listenedMs = performance.now() - started;
          cpuMs = cpuMsOf(child.pid!);
          process.kill(-child.pid!, 'SIGTERM');
        }
      }
    });
    child.stderr.on('data', (data: Buffer) => (err += data.toString()));
    // Resolves once the process has exited (a CPU profile is written as it exits).
    child.once('exit', (code) => {
      if (listenedMs !== undefined) resolve({ ms: listenedMs, lines, spawnedAt, cpuMs });
      else if (until === undefined && code === 0)
        resolve({ ms: performance.now() - started, lines, spawnedAt, cpuMs: undefined });
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${err}`));
    });
  });
}

const LISTENING = /cloudprice listening on/;

function startEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...extra };
}

async function firstStart(command: string, args: readonly string[], extra = {}): Promise<Timed> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-first-start-'));
  try {
    return await timed(command, args, startEnv(dataDir, extra), LISTENING);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where the time of one main.js start went, from its log lines' timestamps. */
function phases(run: Timed, showCpu = true): string {
  const at = (pattern: RegExp) => run.lines.find((l) => pattern.test(l.msg))?.time;
  const first = run.lines[0]?.time;
  const filled = at(/empty catalogue filled/);
  const listening = at(LISTENING);
  const parts = [
    showCpu && run.cpuMs !== undefined ? `CPU ${(run.cpuMs / 1000).toFixed(2)} s` : '',
    first !== undefined ? `first log line ${((first - run.spawnedAt) / 1000).toFixed(2)} s` : '',
    filled !== undefined
      ? `catalogue filled ${((filled - run.spawnedAt) / 1000).toFixed(2)} s`
      : '',
    listening !== undefined ? `listening ${((listening - run.spawnedAt) / 1000).toFixed(2)} s` : '',
  ];
  return parts.filter((p) => p !== '').join(', ');
}

const loadAtStart = uptime();
const results: string[] = [];
const npmStart = async (label: string) => {
  const run = await firstStart('npm', ['start', '--silent']);
  const line = `${label}: ${(run.ms / 1000).toFixed(2)} s (${phases(run, false)}; load ${uptime()})`;
  console.log(line);
  results.push(`- ${line}`);
};

// Cold: nothing built.
for (let i = 0; i < RUNS; i += 1) {
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  await npmStart(`\`npm start\`, cold (no dist/), run ${i + 1}`);
}
for (let i = 0; i < RUNS; i += 1) await npmStart(`\`npm start\`, warm (dist/ built), run ${i + 1}`);

// The steps alone.
const steps: string[] = [];
const step = async (label: string, command: string, args: readonly string[]) => {
  const run = await timed(command, args, {});
  steps.push(`- ${label}: ${(run.ms / 1000).toFixed(2)} s (load ${uptime()})`);
};
for (let i = 0; i < RUNS; i += 1) {
  await step('`npm run build` (tsc, always builds)', 'npm', ['run', 'build', '--silent']);
}
await step('prestart with both builds up to date (`node scripts/prestart.mjs`)', process.execPath, [
  'scripts/prestart.mjs',
]);
rmSync(path.join(ROOT, 'dist', 'web'), { recursive: true, force: true });
await step('web build alone (`node scripts/build-web.mjs`, no dist/web)', process.execPath, [
  'scripts/build-web.mjs',
]);
for (let i = 0; i < RUNS; i += 1) {
  const run = await firstStart(process.execPath, ['dist/src/main.js']);
  steps.push(
    `- \`node dist/src/main.js\` on an empty data directory, to listening: ${(run.ms / 1000).toFixed(2)} s (${phases(run)}; load ${uptime()})`,
  );
}
steps.forEach((s) => console.log(s));

// Profile of the server's own first start.
const profileDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-start-profile-'));
let profile: ReturnType<typeof topFrames>;
let profiled: Timed;
try {
  profiled = await firstStart(process.execPath, [
    '--cpu-prof',
    `--cpu-prof-dir=${profileDir}`,
    'dist/src/main.js',
  ]);
  // The profile is written as the process exits (firstStart waits for that).
  profile = topFrames(profileDir, 15, ROOT);
} finally {
  rmSync(profileDir, { recursive: true, force: true });
}
console.log([...profile.owners, ...profile.functions].join('\n'));

writeSection(
  'first-start',
  `## First start on an empty data directory (issue 8)

Command: \`npm run bench:start\` (bench/first-start.bench.ts). ${machineLine()}.
Load average (\`uptime\`) at the start: ${loadAtStart}; at the end: ${uptime()}.
Each start gets a new empty \`DATA_DIR\` (\`PORT=0\`): it generates a key, creates the SQLite
database, fills the catalogue from the bundled snapshots (all three providers, the real
catalogue) and then listens. Timed from the spawn to the "cloudprice listening" log line; the
phases come from the log lines' own timestamps. \`npm start\` runs \`prestart\` first (the
TypeScript build, then the web build when web/ changed).

${results.join('\n')}

The steps alone:

${steps.join('\n')}

CPU profile of \`node --cpu-prof dist/src/main.js\` on an empty data directory (every thread,
the snapshot parse workers included; ${(profiled.ms / 1000).toFixed(2)} s to listening, ${profile.totalMs.toFixed(0)} ms of
CPU not idle). Self time by where the code lives:

| self ms | share | code |
| ---: | ---: | --- |
${profile.owners.join('\n')}

Functions by self time:

| self ms | share | function |
| ---: | ---: | --- |
${profile.functions.join('\n')}`,
);

// Two servers measured side by side in one run: a warm-up run each, then rounds alternating
// A, B, A, B, ... so that whatever else loads the machine falls on both; each round's ratio is
// A's requests/s over B's, and the result is the median of the rounds' ratios. Given the
// servers' process ids, each round also reads their CPU time (user + system, /proc/<pid>/stat)
// around each run: CPU ms per request depends less on what else loads the machine than
// requests/s do (a server that waits for a core is slower, not costlier).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { AddressSpace, runWrk, type WrkOptions, type WrkResult } from './wrk.js';

export interface Contender {
  readonly name: string;
  readonly url: string;
  /** Extra wrk options for this contender only (e.g. nothing; both usually share one set). */
  readonly options?: Partial<WrkOptions>;
  /** The server's process id, to measure its CPU time per request (Linux /proc). */
  readonly pid?: number;
}

/** One run of wrk against one contender, with the server's CPU time when its pid is known. */
export interface Run extends WrkResult {
  /** The server's CPU time (user + system, all threads) over requests answered; NaN without pid. */
  readonly cpuMsPerRequest: number;
}

export interface Round {
  readonly a: Run;
  readonly b: Run;
  readonly ratio: number;
  /** A's CPU ms per request over B's (NaN without both pids). */
  readonly cpuRatio: number;
  /** 1-minute load average when the round started (os.loadavg, what `uptime` prints). */
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export interface SideBySide {
  readonly a: string;
  readonly b: string;
  readonly rounds: readonly Round[];
  readonly medianRatio: number;
  /** The median of the rounds' CPU-per-request ratios, A's over B's (NaN without both pids). */
  readonly medianCpuRatio: number;
  /**
   * The median of B's CPU per request over A's: with B the bare server, the share of bare's
   * efficiency A keeps (1 = as cheap as bare; the targets are on this figure).
   */
  readonly medianCpuShare: number;
  /** A's p99 in the round whose ratio is the median, and the worst of A's rounds. */
  readonly medianRoundP99Ms: number;
  readonly worstP99Ms: number;
  /** Requests A answered in its warm-up run. */
  readonly warmupRequests: number;
}

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
export const CONNECTIONS = 50;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function loadAverage(): number {
  return os.loadavg()[0]!;
}

/** utime + stime of a process, every thread included, in ms (clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Fails the bench when a run had error answers or more than 1 request in 1,000 failed at the
 * socket (a timeout under a loaded machine is reported in the table, not fatal): a ratio over
 * failed requests means nothing.
 */
function checked(name: string, result: WrkResult, allowNon2xx: boolean): WrkResult {
  if (result.socketErrors > result.requests / 1000 || (!allowNon2xx && result.non2xx > 0)) {
    throw new Error(
      `${name}: ${result.non2xx} responses >= 400 and ${result.socketErrors} socket errors in ${result.requests} requests`,
    );
  }
  return result;
}

export async function sideBySide(
  a: Contender,
  b: Contender,
  shared: Omit<WrkOptions, 'url' | 'seconds' | 'firstAddress'> & { path: string },
  addresses: AddressSpace = new AddressSpace(),
  log: (line: string) => void = console.log,
): Promise<SideBySide> {
  const { path, ...options } = shared;
  const run = async (who: Contender, seconds: number): Promise<Run> => {
    const cpuBefore = who.pid === undefined ? NaN : cpuMsOf(who.pid);
    const result = await runWrk({
      ...options,
      ...who.options,
      url: `${who.url}${path}`,
      seconds,
      firstAddress: addresses.take(),
    });
    const cpuMs = who.pid === undefined ? NaN : cpuMsOf(who.pid) - cpuBefore;
    addresses.used(result);
    return { ...checked(who.name, result, false), cpuMsPerRequest: cpuMs / result.requests };
  };
  const warmup = await run(a, WARMUP_SECONDS);
  await run(b, WARMUP_SECONDS);
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const loadBefore = loadAverage();
    const ra = await run(a, SECONDS);
    const rb = await run(b, SECONDS);
    const round = {
      a: ra,
      b: rb,
      ratio: ra.requestsPerSecond / rb.requestsPerSecond,
      cpuRatio: ra.cpuMsPerRequest / rb.cpuMsPerRequest,
      loadBefore,
      loadAfter: loadAverage(),
    };
    rounds.push(round);
    log(
      `  round ${i + 1}: ${a.name} ${Math.round(ra.requestsPerSecond)} req/s p99 ${ra.p99Ms.toFixed(1)} ms | ` +
        `${b.name} ${Math.round(rb.requestsPerSecond)} req/s p99 ${rb.p99Ms.toFixed(1)} ms | ` +
        `ratio ${round.ratio.toFixed(3)} | load ${loadBefore.toFixed(2)}` +
        (Number.isNaN(round.cpuRatio)
          ? ''
          : ` | CPU µs/request ${(ra.cpuMsPerRequest * 1000).toFixed(1)} / ${(rb.cpuMsPerRequest * 1000).toFixed(1)}, ${b.name} ÷ ${a.name} ${(1 / round.cpuRatio).toFixed(3)}`),
    );
  }
  const medianRatio = median(rounds.map((r) => r.ratio));
  const medianCpuRatio = median(rounds.map((r) => r.cpuRatio));
  const medianCpuShare = median(rounds.map((r) => 1 / r.cpuRatio));
  const medianRound = rounds.find((r) => r.ratio === medianRatio) ?? rounds[0]!;
  return {
    a: a.name,
    b: b.name,
    rounds,
    medianRatio,
    medianCpuRatio,
    medianCpuShare,
    medianRoundP99Ms: medianRound.a.p99Ms,
    worstP99Ms: Math.max(...rounds.map((r) => r.a.p99Ms)),
    warmupRequests: warmup.requests,
  };
}

/** A's or B's CPU µs per request in the round whose CPU ratio is the median, one decimal. */
export function cpuMicros(result: SideBySide, who: 'a' | 'b'): string {
  const byRatio = [...result.rounds].sort((x, y) => x.cpuRatio - y.cpuRatio);
  const round = byRatio[Math.floor((byRatio.length - 1) / 2)];
  return round === undefined ? 'n/a' : (round[who].cpuMsPerRequest * 1000).toFixed(1);
}

/** The rounds of one comparison as a markdown table (with CPU columns when it was measured). */
export function roundsTable(result: SideBySide): string {
  const cpu = !Number.isNaN(result.medianCpuRatio);
  const lines = [
    `| round | ${result.a} req/s | p50 ms | p99 ms | ${result.b} req/s | p50 ms | p99 ms | ratio | ` +
      (cpu ? `CPU µs/req ${result.a} | ${result.b} | CPU ${result.b} ÷ ${result.a} | ` : '') +
      'socket errors | load avg (1 min) |',
    `| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ${cpu ? '---: | ---: | ---: | ' : ''}---: | ---: |`,
  ];
  result.rounds.forEach((r, i) => {
    lines.push(
      `| ${i + 1} | ${Math.round(r.a.requestsPerSecond)} | ${r.a.p50Ms.toFixed(2)} | ${r.a.p99Ms.toFixed(2)} | ` +
        `${Math.round(r.b.requestsPerSecond)} | ${r.b.p50Ms.toFixed(2)} | ${r.b.p99Ms.toFixed(2)} | ` +
        `${r.ratio.toFixed(3)} | ` +
        (cpu
          ? `${(r.a.cpuMsPerRequest * 1000).toFixed(1)} | ${(r.b.cpuMsPerRequest * 1000).toFixed(1)} | ${(1 / r.cpuRatio).toFixed(3)} | `
          : '') +
        `${r.a.socketErrors}/${r.b.socketErrors} | ${r.loadBefore.toFixed(2)} → ${r.loadAfter.toFixed(2)} |`,
    );
  });
  return lines.join('\n');
}

export function verdict(value: number, target: number, atMost = false): string {
  const pass = atMost ? value <= target : value >= target;
  return `${pass ? 'PASS' : 'MISS'} (target ${atMost ? '≤' : '≥'} ${target})`;
}

// Two servers measured side by side in one run: a warm-up run each, then rounds alternating
// A, B, A, B, ... so that whatever else loads the machine falls on both; each round's ratio is
// A's requests/s over B's, and the result is the median of the rounds' ratios.
import os from 'node:os';
import { AddressSpace, runWrk, type WrkOptions, type WrkResult } from './wrk.js';

export interface Contender {
  readonly name: string;
  readonly url: string;
  /** Extra wrk options for this contender only (e.g. nothing; both usually share one set). */
  readonly options?: Partial<WrkOptions>;
}

export interface Round {
  readonly a: WrkResult;
  readonly b: WrkResult;
  readonly ratio: number;
  /** 1-minute load average when the round started (os.loadavg, what `uptime` prints). */
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export interface SideBySide {
  readonly a: string;
  readonly b: string;
  readonly rounds: readonly Round[];
  readonly medianRatio: number;
  /** A's p99 in the round whose ratio is the median, and the worst of A's rounds. */
  readonly medianRoundP99Ms: number;
  readonly worstP99Ms: number;
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
  const run = async (who: Contender, seconds: number): Promise<WrkResult> => {
    const result = await runWrk({
      ...options,
      ...who.options,
      url: `${who.url}${path}`,
      seconds,
      firstAddress: addresses.take(),
    });
    addresses.used(result);
    return checked(who.name, result, false);
  };
  await run(a, WARMUP_SECONDS);
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
      loadBefore,
      loadAfter: loadAverage(),
    };
    rounds.push(round);
    log(
      `  round ${i + 1}: ${a.name} ${Math.round(ra.requestsPerSecond)} req/s p99 ${ra.p99Ms.toFixed(1)} ms | ` +
        `${b.name} ${Math.round(rb.requestsPerSecond)} req/s p99 ${rb.p99Ms.toFixed(1)} ms | ` +
        `ratio ${round.ratio.toFixed(3)} | load ${loadBefore.toFixed(2)}`,
    );
  }
  const medianRatio = median(rounds.map((r) => r.ratio));
  const medianRound = rounds.find((r) => r.ratio === medianRatio) ?? rounds[0]!;
  return {
    a: a.name,
    b: b.name,
    rounds,
    medianRatio,
    medianRoundP99Ms: medianRound.a.p99Ms,
    worstP99Ms: Math.max(...rounds.map((r) => r.a.p99Ms)),
  };
}

/** The rounds of one comparison as a markdown table. */
export function roundsTable(result: SideBySide): string {
  const lines = [
    `| round | ${result.a} req/s | p50 ms | p99 ms | ${result.b} req/s | p50 ms | p99 ms | ratio | socket errors | load avg (1 min) |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  result.rounds.forEach((r, i) => {
    lines.push(
      `| ${i + 1} | ${Math.round(r.a.requestsPerSecond)} | ${r.a.p50Ms.toFixed(2)} | ${r.a.p99Ms.toFixed(2)} | ` +
        `${Math.round(r.b.requestsPerSecond)} | ${r.b.p50Ms.toFixed(2)} | ${r.b.p99Ms.toFixed(2)} | ` +
        `${r.ratio.toFixed(3)} | ${r.a.socketErrors}/${r.b.socketErrors} | ${r.loadBefore.toFixed(2)} → ${r.loadAfter.toFixed(2)} |`,
    );
  });
  return lines.join('\n');
}

export function verdict(value: number, target: number, atMost = false): string {
  const pass = atMost ? value <= target : value >= target;
  return `${pass ? 'PASS' : 'MISS'} (target ${atMost ? '≤' : '≥'} ${target})`;
}

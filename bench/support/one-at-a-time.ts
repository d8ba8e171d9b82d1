// Requests to the shipped server one after another on a keep-alive connection, so a request's
// latency is its own and not a queue's: client-side latencies, and the server's CPU per request
// from /proc over the run (less disturbed by the machine's other load than latency is).
import { KEY } from './app-bench.js';
import { CLIENT_HEADER } from './bench-settings.js';
import type { ShippedServer } from './shipped-server.js';
import { cpuMsOf, loadAverage } from './side-by-side.js';

/** One request: a GET of `path`, or a POST of `body` (JSON) to it. */
export interface BenchRequest {
  readonly path: string;
  readonly body?: string;
}

export interface Timed {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Server CPU (utime + stime) per request, µs; clock ticks are 10 ms, so runs of hundreds. */
  readonly cpuMicros: number;
  /** 1-minute load average at the end. */
  readonly load: number;
}

let clients = 0;

/**
 * What every request accepts: `identity` unless BENCH_ACCEPT_ENCODING says otherwise. fetch
 * would otherwise ask for gzip, deflate and br, and each answer of 1 KiB or more would be
 * compressed (src/http/compression.ts: ~0.5 ms of CPU for a 50-record page, in libuv's
 * threads), which the wrk benches never ask for; `br, gzip` measures what a browser gets.
 */
export const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'identity';

/** Sends one request and waits for its whole answer; throws unless it is a 200. */
export async function send(app: ShippedServer, request: BenchRequest): Promise<number> {
  const url = `${await app.url}${request.path}`;
  const started = performance.now();
  const response = await fetch(url, {
    method: request.body === undefined ? 'GET' : 'POST',
    headers: {
      'x-api-key': KEY,
      'accept-encoding': ACCEPT_ENCODING,
      // A new client address each time: each request pays its rate-limit counter, as with wrk.
      [CLIENT_HEADER]: `one-at-a-time-${clients++}`,
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(request.body !== undefined && { body: request.body }),
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) {
    throw new Error(`${request.path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return elapsed;
}

/** `count` requests, `next(i)` the i-th, one after another. */
export async function oneAtATime(
  app: ShippedServer,
  count: number,
  next: (i: number) => BenchRequest,
): Promise<Timed> {
  const latencies: number[] = [];
  const cpuBefore = cpuMsOf(app.pid);
  for (let i = 0; i < count; i++) latencies.push(await send(app, next(i)));
  const cpuMicros = ((cpuMsOf(app.pid) - cpuBefore) * 1000) / count;
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(count - 1, Math.floor(q * count))]!;
  return {
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[count - 1]!,
    cpuMicros,
    load: loadAverage(),
  };
}

// Runs wrk (the Debian package `wrk`) with bench/wrk/new-client.lua and reads back the one
// WRKJSON line the script prints. wrk is a C load generator: unlike a Node one it does not
// saturate before a bare node:http server does, so ratios against that server are honest.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const SCRIPT = path.resolve(import.meta.dirname, '../wrk/new-client.lua');

export interface WrkResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Responses with status >= 400 (wrk's "Non-2xx or 3xx responses"). */
  readonly non2xx: number;
  /** connect, read, write errors and timeouts. */
  readonly socketErrors: number;
  /** Responses per status; filled only with countStatus. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Client addresses this run used (the next run starts after them). */
  readonly addressesUsed: number;
}

export interface WrkOptions {
  /** Full URL; a path containing `{price}` gets a max_price never used before per request. */
  readonly url: string;
  readonly seconds: number;
  readonly connections: number;
  /** The header the server trusts for the client address (its CLIENT_IP_HEADER). */
  readonly clientHeader: string;
  /** First address number of this run (see AddressSpace). */
  readonly firstAddress: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly bodyFile?: string;
  /** HTTP/1.1 pipelining depth; 1 (none) unless a bench needs more requests than round trips. */
  readonly pipeline?: number;
  readonly countStatus?: boolean;
  readonly threads?: number;
}

/** Where wrk is, or a message saying how to install it. */
export function requireWrk(): string {
  for (const candidate of ['/usr/bin/wrk', '/usr/local/bin/wrk']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next one
    }
  }
  console.error('wrk is not installed: `sudo apt-get install wrk` (Debian/Ubuntu package wrk).');
  process.exit(1);
}

/**
 * wrk threads: 1 by default (issue 23's method, `wrk -t1 -c50`), so that on a 2-core machine the
 * load tool takes one core and the server under test the other.
 */
export const WRK_THREADS = Number(process.env.WRK_THREADS ?? 1);

export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const wrk = requireWrk();
  const url = new URL(options.url.replace('{price}', '__PRICE__'));
  const base = `${url.protocol}//${url.host}`;
  const pathTemplate = (url.pathname + url.search).replace('__PRICE__', '{price}');
  const threads = options.threads ?? WRK_THREADS;
  const args = [
    `-t${threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    SCRIPT,
    base,
    '--',
    options.clientHeader,
    String(options.firstAddress),
    pathTemplate,
    String(options.pipeline ?? 1),
  ];
  const env = {
    ...process.env,
    WRK_THREADS: String(threads),
    WRK_METHOD: options.method ?? 'GET',
    WRK_BODY_FILE: options.bodyFile ?? '',
    WRK_HEADERS: Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}:${value}`)
      .join('|'),
    WRK_COUNT_STATUS: options.countStatus === true ? '1' : '0',
  };
  return new Promise((resolve, reject) => {
    execFile(wrk, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk failed: ${error.message}\n${stderr}`));
      const line = /^WRKJSON (.*)$/m.exec(stdout);
      if (!line) return reject(new Error(`wrk printed no WRKJSON line:\n${stdout}\n${stderr}`));
      const raw = JSON.parse(line[1]!) as {
        requests: number;
        sent: number;
        duration_us: number;
        errors: { connect: number; read: number; write: number; status: number; timeout: number };
        p50_us: number;
        p90_us: number;
        p99_us: number;
        max_us: number;
        statuses: Record<string, number>;
      };
      const { connect, read, write, status, timeout } = raw.errors;
      resolve({
        requests: raw.requests,
        requestsPerSecond: raw.requests / (raw.duration_us / 1e6),
        p50Ms: raw.p50_us / 1000,
        p90Ms: raw.p90_us / 1000,
        p99Ms: raw.p99_us / 1000,
        maxMs: raw.max_us / 1000,
        non2xx: status,
        socketErrors: connect + read + write + timeout,
        statuses: raw.statuses,
        // Every address a thread generated, answered or not, times the thread stride.
        addressesUsed: (raw.sent + threads) * threads,
      });
    });
  });
}

/**
 * Hands each run a first address past every address earlier runs used: the rate-limit counters
 * of a server live for a minute, so reusing an address would count a second request.
 */
export class AddressSpace {
  #next = 0;
  take(): number {
    return this.#next;
  }
  used(result: WrkResult): void {
    this.#next += result.addressesUsed + 1;
  }
}

// A load run with autocannon (wrk is not installed on these machines) and child-process servers,
// so the load generator and the server under test do not share an event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  readonly label: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly label: string;
  readonly durationSeconds: number;
  readonly connections: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** A distinct client address per request (sent in the header the server trusts). */
  readonly clientHeader?: string;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let counter = 0;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    body: options.body,
    requests: options.clientHeader
      ? [
          {
            setupRequest: (request) => ({
              ...request,
              headers: {
                ...request.headers,
                [options.clientHeader!]: `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter++ & 255}`,
              },
            }),
          },
        ]
      : undefined,
  });
  return {
    label: options.label,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Starts `node --import tsx <script> <args>` and resolves with the URL it prints first. */
export function startServer(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /(http:\/\/[\d.:]+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before listening`)),
    );
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function ratioTable(
  rows: ReadonlyArray<{ name: string; ours: LoadResult; bare: LoadResult; target: number }>,
): string {
  const lines = [
    '| case | cloudprice req/s | p50 ms | p99 ms | bare node:http req/s | p50 ms | p99 ms | ratio | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { name, ours, bare, target } of rows) {
    const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
    lines.push(
      `| ${name} | ${Math.round(ours.requestsPerSecond)} | ${ours.p50Ms} | ${ours.p99Ms} | ${Math.round(bare.requestsPerSecond)} | ${bare.p50Ms} | ${bare.p99Ms} | **${ratio.toFixed(2)}** | ${target.toFixed(2)} ${ratio >= target ? '✓' : '✗'} |`,
    );
  }
  return lines.join('\n');
}

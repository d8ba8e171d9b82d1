// provider_c I/O, part 2: streams one region offer file (100-450 MB) through the scanner in a
// worker thread, so the API thread only moves bytes and stays responsive.
//
// Bytes travel in a fixed pool of POOL_BUFFERS buffers of POOL_BUFFER_BYTES that ping-pong
// between the threads: the API thread copies stream bytes into a free buffer and transfers it,
// the worker scans it and transfers it back with its acknowledgement. The pool is the flow
// control (no free buffer: the source is paused) and it keeps the worker from accumulating dead
// chunk buffers between garbage collections, which otherwise cost tens of MB of RSS.
//
// Every way this can end settles one promise once, and the worker is terminated before it does:
// the result; malformed data (UPSTREAM_INVALID_DATA from the scanner); a stream failure (the
// client's UpstreamError, passed on); a worker crash or unexpected exit (UPSTREAM_INVALID_DATA);
// the caller's abort (UPSTREAM_TIMEOUT with the abort reason as cause, as the client reports it).
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { RegionFileRef } from './fetch.js';
import type { OfferFileScanResult, OfferFileScannerOptions } from './offer-file-scanner.js';
import { isFromWorker } from './worker-protocol.js';
import type { ParseWorkerData, ToWorker } from './worker-protocol.js';

/** Buffers in the pool: at most this many are in flight to the worker. */
export const POOL_BUFFERS = 16;
/** Size of each pool buffer (a file stream's chunk size). */
export const POOL_BUFFER_BYTES = 64 * 1024;

export interface RegionScanOptions extends OfferFileScannerOptions {
  /** Old-generation heap cap of the worker, in MB: a hostile file crashes it, not the process. */
  readonly workerHeapMb?: number;
  /** Called with each worker as it starts (diagnostics and tests: its threadId, its exit). */
  readonly onWorker?: (worker: Worker) => void;
}

/**
 * Starts the worker entry beside this file: `parse-worker.js` when this module runs compiled
 * from dist/, `parse-worker.ts` when it runs as TypeScript (tsx, vitest). On Node 20, ESM loader
 * hooks (`--import tsx` in the worker's execArgv) do not reach worker threads ("Unknown file
 * extension .ts"), so a TypeScript worker starts from a CommonJS bootstrap that registers tsx's
 * require hook (tsx is a devDependency, present wherever the .ts sources run) and requires the
 * entry. The entry and what it imports therefore must not use top-level await or import.meta.
 */
function startWorker(workerData: ParseWorkerData, heapMb: number): Worker {
  const here = fileURLToPath(import.meta.url);
  const options = {
    workerData,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  };
  if (path.extname(here) !== '.ts') {
    return new Worker(new URL('./parse-worker.js', import.meta.url), options);
  }
  const entry = path.join(path.dirname(here), 'parse-worker.ts');
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsx)}).register();\nrequire(${JSON.stringify(entry)});\n`;
  return new Worker(bootstrap, { ...options, eval: true });
}

function cancelled(signal: AbortSignal, what: string): UpstreamError {
  return new UpstreamError('UPSTREAM_TIMEOUT', `${what}: cancelled by the caller`, {
    cause: signal.reason,
  });
}

/**
 * Scans `source` (an offer file's bytes) in a worker. `target` names the file in error messages
 * ("GET /offers/..."). Always destroys `source` and terminates the worker before settling;
 * never leaves a rejection unhandled.
 */
export function scanStreamInWorker(
  source: Readable,
  target: string,
  options: RegionScanOptions,
  signal: AbortSignal,
): Promise<OfferFileScanResult> {
  const what = `provider_c ${target}`;
  // Late errors from a destroyed source must not become uncaught exceptions.
  source.on('error', () => undefined);
  if (signal.aborted) {
    source.destroy();
    return Promise.reject(cancelled(signal, what));
  }
  const workerData: ParseWorkerData = {
    ...(options.upstreamRegionCode !== undefined
      ? { upstreamRegionCode: options.upstreamRegionCode }
      : {}),
    ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}),
    ...(options.retainRaw === true ? { retainRaw: true } : {}),
  };
  let worker: Worker;
  try {
    worker = startWorker(workerData, options.workerHeapMb ?? 256);
  } catch (err) {
    source.destroy();
    const text = err instanceof Error ? err.message : String(err);
    return Promise.reject(
      new UpstreamError(
        'UPSTREAM_INVALID_DATA',
        `${what}: offer file parser could not start: ${text}`,
        {
          cause: err,
        },
      ),
    );
  }
  worker.on('error', () => undefined);
  options.onWorker?.(worker);

  return new Promise<OfferFileScanResult>((resolve, reject) => {
    let settled = false;
    const free = Array.from({ length: POOL_BUFFERS }, () => new ArrayBuffer(POOL_BUFFER_BYTES));
    /** Stream bytes not yet copied into a pool buffer (at most the chunk or two that arrived). */
    const backlog: Uint8Array[] = [];
    let paused = false;
    let ended = false;
    let endSent = false;

    const send = (message: ToWorker, transfer?: ArrayBuffer[]): void => {
      worker.postMessage(message, transfer);
    };

    /** Moves backlog bytes into free buffers, pauses or resumes the source, ends when done. */
    const pump = () => {
      while (backlog.length > 0 && free.length > 0) {
        const head = backlog[0];
        const buffer = free.pop();
        if (head === undefined || buffer === undefined) break;
        const length = Math.min(head.length, buffer.byteLength);
        new Uint8Array(buffer, 0, length).set(head.subarray(0, length));
        send({ type: 'chunk', bytes: buffer, length }, [buffer]);
        if (length === head.length) backlog.shift();
        else backlog[0] = head.subarray(length);
      }
      if (backlog.length > 0 && !paused) {
        paused = true;
        source.pause();
      } else if (backlog.length === 0 && paused && !ended) {
        paused = false;
        source.resume();
      }
      if (ended && backlog.length === 0 && !endSent) {
        endSent = true;
        send({ type: 'end' });
      }
    };

    const finish = (outcome: { result: OfferFileScanResult } | { error: UpstreamError }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onSourceError);
      worker.off('message', onMessage);
      worker.off('error', onWorkerError);
      worker.off('exit', onExit);
      source.destroy();
      const settle = () => {
        if ('result' in outcome) resolve(outcome.result);
        else reject(outcome.error);
      };
      worker.terminate().then(settle, settle);
    };

    const onData = (chunk: unknown) => {
      if (settled) return;
      if (chunk instanceof Uint8Array) backlog.push(chunk);
      else if (typeof chunk === 'string') backlog.push(Buffer.from(chunk, 'utf8'));
      else {
        finish({ error: new UpstreamError('UPSTREAM_NETWORK_ERROR', `${what}: bad chunk`) });
        return;
      }
      pump();
    };
    const onEnd = () => {
      ended = true;
      pump();
    };
    const onSourceError = (err: unknown) => {
      const error =
        err instanceof UpstreamError
          ? err
          : new UpstreamError('UPSTREAM_NETWORK_ERROR', `${what}: the body could not be read`, {
              cause: err,
            });
      finish({ error });
    };
    const onMessage = (message: unknown) => {
      if (!isFromWorker(message)) {
        finish({
          error: new UpstreamError('UPSTREAM_INVALID_DATA', `${what}: bad worker message`),
        });
      } else if (message.type === 'ack') {
        free.push(message.bytes);
        pump();
      } else if (message.type === 'result') {
        finish({ result: message.result });
      } else {
        finish({
          error: new UpstreamError(message.code, `${what}: ${message.message}`),
        });
      }
    };
    const onWorkerError = (err: unknown) => {
      const text = err instanceof Error ? err.message : String(err);
      finish({
        error: new UpstreamError(
          'UPSTREAM_INVALID_DATA',
          `${what}: offer file parser failed: ${text}`,
          {
            cause: err,
          },
        ),
      });
    };
    const onExit = (code: number) => {
      finish({
        error: new UpstreamError(
          'UPSTREAM_INVALID_DATA',
          `${what}: offer file parser stopped (exit code ${code}) before its result`,
        ),
      });
    };
    const onAbort = () => finish({ error: cancelled(signal, what) });

    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onWorkerError);
    worker.on('exit', onExit);
    source.on('end', onEnd);
    source.on('error', onSourceError);
    source.on('data', onData);
  });
}

/** Opens `ref`'s offer file through `client` and scans it in a worker (see scanStreamInWorker). */
export async function scanRegionFile(
  client: UpstreamClient,
  ref: RegionFileRef,
  options: RegionScanOptions,
  signal: AbortSignal,
): Promise<OfferFileScanResult> {
  const source = await client.getStream(ref.path, signal);
  return scanStreamInWorker(
    source,
    `GET ${ref.path}`,
    { upstreamRegionCode: ref.upstreamId, ...options },
    signal,
  );
}

// The worker path: a real worker thread (started from the TypeScript source under vitest),
// real streams. Every test checks that the worker is gone once the promise settles.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import {
  REGION,
  entry,
  offerFileText,
  sampleLayout,
  sortBySku,
  typeSpec,
} from './fixtures/offer-file.js';
import { OfferFileScanner } from './offer-file-scanner.js';
import { moduleGraph, transpileFiles } from '../../../bench/support/transpile.js';
import { scanStreamInWorker, type RegionScanOptions } from './region-file-worker.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const sample = Buffer.from(offerFileText(sampleLayout()));

function direct(bytes: Uint8Array) {
  const scanner = new OfferFileScanner({ upstreamRegionCode: REGION });
  scanner.push(bytes);
  return scanner.end();
}

/** Splits `bytes` into chunks of `size`, as views into one shared buffer (not transferable). */
function chunksOf(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

function watched(options: RegionScanOptions = {}) {
  const workers: Worker[] = [];
  return {
    workers,
    options: { upstreamRegionCode: REGION, ...options, onWorker: (w: Worker) => workers.push(w) },
    /** threadId is -1 once a worker thread has stopped. */
    allStopped: () => workers.length > 0 && workers.every((w) => w.threadId === -1),
  };
}

async function rejection(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof UpstreamError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('scanStreamInWorker', () => {
  it('scans a stream in a worker and gets what the scanner finds in this thread', async () => {
    const w = watched();
    const source = Readable.from(chunksOf(sample, 777));
    const result = await scanStreamInWorker(
      source,
      'sample',
      w.options,
      AbortSignal.timeout(20_000),
    );
    expect(sortBySku(result.products)).toEqual(sortBySku(direct(sample).products));
    expect(result.bytes).toBe(sample.length);
    expect(w.allStopped()).toBe(true);
  });

  it('does not detach buffers it does not own: shared views are copied, not transferred', async () => {
    const chunks = chunksOf(sample, 1000);
    await scanStreamInWorker(
      Readable.from(chunks),
      'sample',
      { upstreamRegionCode: REGION },
      AbortSignal.timeout(20_000),
    );
    expect(sample.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.length > 0)).toBe(true);
  });

  it('keeps reading while the worker holds back: many small chunks through the credit window', async () => {
    const source = Readable.from(chunksOf(sample, 64));
    const result = await scanStreamInWorker(
      source,
      'sample',
      { upstreamRegionCode: REGION },
      AbortSignal.timeout(20_000),
    );
    expect(result.products).toHaveLength(5);
  });

  it('rejects malformed data with UPSTREAM_INVALID_DATA, stops reading and stops the worker', async () => {
    const w = watched();
    const source = new PassThrough();
    source.write('{"products" : {"A" : [}');
    const error = await rejection(
      scanStreamInWorker(source, 'bad', w.options, AbortSignal.timeout(20_000)),
    );
    expect(error.code).toBe('UPSTREAM_INVALID_DATA');
    expect(error.message).toMatch(/mismatched bracket/);
    expect(source.destroyed).toBe(true);
    expect(w.allStopped()).toBe(true);
  });

  it('rejects a truncated stream with UPSTREAM_INVALID_DATA', async () => {
    const w = watched();
    const source = Readable.from([sample.subarray(0, sample.length - 100)]);
    const error = await rejection(
      scanStreamInWorker(source, 'cut', w.options, AbortSignal.timeout(20_000)),
    );
    expect(error.code).toBe('UPSTREAM_INVALID_DATA');
    expect(error.message).toMatch(/truncated/);
    expect(w.allStopped()).toBe(true);
  });

  it('passes a stream failure on as the UpstreamError it is, and stops the worker', async () => {
    const w = watched();
    const source = new PassThrough();
    source.write(sample.subarray(0, 5000));
    setTimeout(() => source.destroy(new UpstreamError('UPSTREAM_TOO_LARGE', 'too big')), 50);
    const error = await rejection(
      scanStreamInWorker(source, 'big', w.options, AbortSignal.timeout(20_000)),
    );
    expect(error.code).toBe('UPSTREAM_TOO_LARGE');
    expect(w.allStopped()).toBe(true);
  });

  it('turns a plain stream error into UPSTREAM_NETWORK_ERROR', async () => {
    const source = new PassThrough();
    setTimeout(() => source.destroy(new Error('socket hang up')), 50);
    const error = await rejection(scanStreamInWorker(source, 'x', {}, AbortSignal.timeout(20_000)));
    expect(error.code).toBe('UPSTREAM_NETWORK_ERROR');
  });

  it('reports a worker crash (out of memory) as UPSTREAM_INVALID_DATA, never an unhandled error', async () => {
    const w = watched({ workerHeapMb: 16 });
    // 1,500 products we keep, each with its own 40 KB attribute: what the worker keeps grows
    // record by record far past its 16 MB heap, so the worker dies and this process does not.
    // (The memory must grow gradually, as a hostile file's would within maxRecordBytes: from
    // Node 22 one allocation larger than a worker's whole heap aborts the process instead.)
    const entries = Array.from({ length: 1_500 }, (_, i) =>
      entry(
        `OOM${String(i).padStart(13, '0')}`,
        typeSpec(`m5.${i}xlarge`, { networkPerformance: `${i} `.padEnd(40_000, 'x') }),
        'linux',
        100_000,
      ),
    );
    const source = Readable.from(chunksOf(Buffer.from(offerFileText({ entries })), 1 << 16));
    const error = await rejection(
      scanStreamInWorker(source, 'huge', w.options, AbortSignal.timeout(25_000)),
    );
    expect(error.code).toBe('UPSTREAM_INVALID_DATA');
    expect(error.message).toMatch(/parser (failed|stopped)/);
    expect(w.allStopped()).toBe(true);
  });

  it('stops on abort with UPSTREAM_TIMEOUT, destroys the source and stops the worker', async () => {
    const w = watched();
    const source = new PassThrough();
    source.write(sample.subarray(0, 1000));
    const controller = new AbortController();
    const pending = scanStreamInWorker(source, 'slow', w.options, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(new Error('shutting down'));
    const error = await rejection(pending);
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.cause).toEqual(new Error('shutting down'));
    expect(source.destroyed).toBe(true);
    expect(w.allStopped()).toBe(true);
  });

  it('does not start a worker when the signal has already aborted', async () => {
    const w = watched();
    const source = Readable.from([sample]);
    const error = await rejection(scanStreamInWorker(source, 'x', w.options, AbortSignal.abort()));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(w.workers).toHaveLength(0);
    expect(source.destroyed).toBe(true);
  });

  it('runs the worker from compiled JavaScript, as it runs from dist/', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'cloudprice-compiled-worker-'));
    try {
      const here = 'src/providers/provider-c';
      const files = await moduleGraph(ROOT, [
        `${here}/region-file-worker.ts`,
        `${here}/parse-worker.ts`,
      ]);
      await transpileFiles(ROOT, files, out);
      const compiled: unknown = await import(
        pathToFileURL(path.join(out, here, 'region-file-worker.js')).href
      );
      if (
        typeof compiled !== 'object' ||
        compiled === null ||
        !('scanStreamInWorker' in compiled) ||
        typeof compiled.scanStreamInWorker !== 'function'
      ) {
        throw new Error('compiled module lacks scanStreamInWorker');
      }
      const compiledScan = compiled.scanStreamInWorker as typeof scanStreamInWorker;
      const w = watched();
      const result = await compiledScan(
        Readable.from(chunksOf(sample, 4096)),
        'compiled',
        w.options,
        AbortSignal.timeout(20_000),
      );
      expect(sortBySku(result.products)).toEqual(sortBySku(direct(sample).products));
      expect(w.allStopped()).toBe(true);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

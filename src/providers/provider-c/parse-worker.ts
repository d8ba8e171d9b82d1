// Worker entry: runs the offer-file scanner off the API thread. The API thread sends the region
// file's bytes in pool buffers (transferred ArrayBuffers); each goes back with its `ack` once
// scanned, so the pool bounds how many chunks wait in this worker's queue. region-file-worker.ts starts it and always
// terminates it. Under tsx/vitest this file runs as TypeScript, from dist/ as JavaScript.
import { parentPort, workerData } from 'node:worker_threads';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { OfferFileScanner } from './offer-file-scanner.js';
import type { OfferFileScannerOptions } from './offer-file-scanner.js';
import { isToWorker } from './worker-protocol.js';
import type { FromWorker } from './worker-protocol.js';

function scannerOptions(data: unknown): OfferFileScannerOptions {
  if (typeof data !== 'object' || data === null) return {};
  const options: { -readonly [K in keyof OfferFileScannerOptions]: OfferFileScannerOptions[K] } =
    {};
  if ('upstreamRegionCode' in data && typeof data.upstreamRegionCode === 'string') {
    options.upstreamRegionCode = data.upstreamRegionCode;
  }
  if ('maxRecordBytes' in data && typeof data.maxRecordBytes === 'number') {
    options.maxRecordBytes = data.maxRecordBytes;
  }
  if ('retainRaw' in data && data.retainRaw === true) options.retainRaw = true;
  return options;
}

const port = parentPort;
if (port === null) throw new Error('parse-worker.ts must run in a worker thread');

const scanner = new OfferFileScanner(scannerOptions(workerData));
let failed = false;

function send(message: FromWorker): void {
  port?.postMessage(message);
}

port.on('message', (message: unknown) => {
  if (failed) return;
  try {
    if (!isToWorker(message)) throw new Error('unexpected message from the API thread');
    if (message.type === 'chunk') {
      // The scanner keeps no view of the chunk, so the buffer can go straight back.
      scanner.push(new Uint8Array(message.bytes, 0, message.length));
      port.postMessage({ type: 'ack', bytes: message.bytes } satisfies FromWorker, [message.bytes]);
    } else {
      send({ type: 'result', result: scanner.end() });
    }
  } catch (err) {
    failed = true;
    if (err instanceof UpstreamError) {
      send({ type: 'error', code: err.code, message: err.message });
    } else {
      // A bug of ours, not the upstream's: still reported, never left to crash silently.
      const text = err instanceof Error ? err.message : String(err);
      send({ type: 'error', code: 'UPSTREAM_INVALID_DATA', message: `offer file parser: ${text}` });
    }
  }
});

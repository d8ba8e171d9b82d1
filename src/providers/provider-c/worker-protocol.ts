// Messages between the API thread and the offer-file parse worker (parse-worker.ts). Both sides
// are our code, but a message still arrives as `unknown`: the guards keep a bug on one side from
// being read as something else on the other.
import type { UpstreamErrorCode } from '../../sync/upstream/upstream-error.js';
import { UPSTREAM_ERROR_CODES } from '../../sync/upstream/upstream-error.js';
import type { OfferFileScanResult, OfferFileScannerOptions } from './offer-file-scanner.js';

/** `workerData`: the scanner's options (plain data: they cross the thread boundary). */
export type ParseWorkerData = OfferFileScannerOptions;

/**
 * API thread -> worker. `bytes` is a pool buffer, transferred; its first `length` bytes are the
 * next bytes of the file.
 */
export type ToWorker =
  | { readonly type: 'chunk'; readonly bytes: ArrayBuffer; readonly length: number }
  | { readonly type: 'end' };

/** Worker -> API thread. `ack` transfers the scanned pool buffer back for reuse. */
export type FromWorker =
  | { readonly type: 'ack'; readonly bytes: ArrayBuffer }
  | { readonly type: 'result'; readonly result: OfferFileScanResult }
  | { readonly type: 'error'; readonly code: UpstreamErrorCode; readonly message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isToWorker(value: unknown): value is ToWorker {
  if (!isRecord(value)) return false;
  if (value.type === 'end') return true;
  return (
    value.type === 'chunk' &&
    value.bytes instanceof ArrayBuffer &&
    typeof value.length === 'number' &&
    Number.isInteger(value.length) &&
    value.length >= 0 &&
    value.length <= value.bytes.byteLength
  );
}

export function isFromWorker(value: unknown): value is FromWorker {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'ack':
      return value.bytes instanceof ArrayBuffer;
    case 'result':
      return isRecord(value.result) && Array.isArray(value.result.products);
    case 'error':
      return (
        typeof value.message === 'string' &&
        (UPSTREAM_ERROR_CODES as readonly unknown[]).includes(value.code)
      );
    default:
      return false;
  }
}

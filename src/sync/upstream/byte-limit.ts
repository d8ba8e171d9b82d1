// Counts body bytes as they arrive and stops the transfer the moment the configured maximum is
// passed, so an oversized or endless upstream body never fills memory or disk.

import { Transform, finished } from 'node:stream';
import type { Readable } from 'node:stream';
import { UpstreamError } from './upstream-error.js';

function asBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError('body stream yielded a non-byte chunk');
}

/**
 * Drops a response body we will not read. undici reports destroying an unfinished body as an
 * 'error' event (RequestAbortedError); the no-op listener keeps that from becoming an uncaught
 * exception. A body already complete leaves its keep-alive socket untouched.
 */
export function discardBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * Reads `source` to the end into one buffer of at most `maxBytes` bytes. Past the limit it throws
 * `tooLarge()`; leaving the loop early destroys a Node stream, which aborts its request.
 */
export async function readAllCapped(
  source: AsyncIterable<unknown>,
  maxBytes: number,
  tooLarge: () => UpstreamError,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    const bytes = asBuffer(chunk);
    total += bytes.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

export interface CappedStreamOptions {
  readonly maxBytes: number;
  readonly tooLarge: () => UpstreamError;
  /** Turns a source failure (socket reset, body timeout, abort) into an UpstreamError. */
  readonly mapError: (err: unknown) => UpstreamError;
  /** Runs once when the returned stream closes for any reason (end, error or destroy). */
  readonly onClose?: () => void;
}

/**
 * A byte stream that passes `source` through, errors with an UpstreamError on any failure
 * (and with `tooLarge()` past `maxBytes`), and destroys `source` when it closes, so a consumer
 * that stops reading early does not leave the socket or file open. Backpressure is kept.
 */
export function cappedStream(source: Readable, options: CappedStreamOptions): Readable {
  let total = 0;
  const out = new Transform({
    transform(chunk: unknown, _encoding, callback) {
      let bytes: Buffer;
      try {
        bytes = asBuffer(chunk);
      } catch (err) {
        callback(options.mapError(err));
        return;
      }
      total += bytes.length;
      if (total > options.maxBytes) callback(options.tooLarge());
      else callback(null, bytes);
    },
  });
  // `finished` reports an error, an abort or a close before the end (a truncated body).
  finished(source, (err) => {
    if (err) out.destroy(err instanceof UpstreamError ? err : options.mapError(err));
  });
  out.once('close', () => {
    discardBody(source);
    options.onClose?.();
  });
  source.pipe(out);
  return out;
}

// How the fake upstream writes its responses: documents with validators, conditional GET,
// and the slow or endless bodies some faults need. Used only by fake-upstream.ts.

import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

export interface Doc {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** The parts of a request record that response writers keep up to date. */
export interface ResponseProgress {
  status: number | undefined;
  bodyBytesSent: number;
}

export function jsonDoc(status: number, body: unknown, headers: Record<string, string> = {}): Doc {
  const bytes = Buffer.from(JSON.stringify(body));
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: bytes };
}

export function withValidators(doc: Doc, lastModified: Date): Doc {
  const etag = `"${createHash('sha1').update(doc.body).digest('hex')}"`;
  return {
    ...doc,
    headers: { etag, 'last-modified': lastModified.toUTCString(), ...doc.headers },
  };
}

export function notModified(req: IncomingMessage, doc: Doc): boolean {
  const etag = doc.headers.etag;
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
    return tags.includes('*') || (etag !== undefined && tags.includes(etag));
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  const modified = Date.parse(doc.headers['last-modified'] ?? '');
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

export async function fileDoc(root: string, urlPath: string): Promise<Doc | undefined> {
  let segments: string[];
  try {
    segments = urlPath
      .split('/')
      .map(decodeURIComponent)
      .filter((s) => s !== '' && s !== '.');
  } catch {
    return undefined;
  }
  const last = segments.at(-1);
  if (last === undefined || segments.some((s) => /[/\\\0]/.test(s))) return undefined;
  if (path.extname(last) === '') segments[segments.length - 1] = `${last}.json`;
  const file = path.resolve(root, ...segments);
  if (!file.startsWith(path.resolve(root) + path.sep)) return undefined;
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    const type = file.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    const doc = { status: 200, headers: { 'content-type': type }, body: await readFile(file) };
    return withValidators(doc, info.mtime);
  } catch {
    return undefined;
  }
}

export function sendDoc(res: ServerResponse, record: ResponseProgress, doc: Doc): void {
  record.status = doc.status;
  res.writeHead(doc.status, { ...doc.headers, 'content-length': String(doc.body.length) });
  res.end(doc.body, () => {
    record.bodyBytesSent = doc.body.length;
  });
}

/** Sends `doc` one byte every `intervalMs`; the interval is kept in `timers` until it stops. */
export function dripDoc(
  res: ServerResponse,
  record: ResponseProgress,
  doc: Doc,
  intervalMs: number,
  timers: Set<NodeJS.Timeout>,
): void {
  record.status = doc.status;
  res.writeHead(doc.status, { ...doc.headers, 'content-length': String(doc.body.length) });
  res.flushHeaders(); // headers now, body later: only the body is slow
  const timer = setInterval(() => {
    if (res.destroyed || record.bodyBytesSent >= doc.body.length) {
      clearInterval(timer);
      timers.delete(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(doc.body.subarray(record.bodyBytesSent, record.bodyBytesSent + 1));
    record.bodyBytesSent += 1;
  }, intervalMs);
  timers.add(timer);
}

/** Streams a JSON array of `total` bytes, generated lazily and written with backpressure. */
export function streamOversized(
  res: ServerResponse,
  record: ResponseProgress,
  total: number,
  declare: boolean,
): void {
  const unit = Buffer.from(',{"n":0}'.repeat(8192)); // 64 KiB of array elements
  record.status = 200;
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declare ? { 'content-length': String(total) } : {}),
  });
  const head = Buffer.from('[{"n":0}');
  const pump = (): void => {
    while (!res.destroyed) {
      const left = total - record.bodyBytesSent;
      let piece: Buffer;
      if (record.bodyBytesSent === 0) piece = head;
      else if (left <= 1) return void res.end(']', () => (record.bodyBytesSent = total));
      else piece = left - 1 >= unit.length ? unit : Buffer.alloc(left - 1, ' ');
      record.bodyBytesSent += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
  };
  pump();
}

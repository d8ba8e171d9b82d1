// A real HTTP server on 127.0.0.1 (port 0) that plays a provider's upstream in tests: it serves
// documents from a directory, answers conditional GETs, serves documents set by the test, and
// misbehaves on demand (see FakeFault). It records every request and, on close(), destroys
// every open socket, so a test that leaves a hanging request still finishes.
//
// File mapping (the same as the file:// upstream): the request path names a file under `root`,
// the query string is ignored, `.json` is added when the last segment has no extension. With
// the default root (test/fixtures/snapshots/, the test copy of data/snapshots/), `${fake.url}/provider_a` is a base URL for provider_a.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  dripDoc,
  fileDoc,
  jsonDoc,
  notModified,
  sendDoc,
  streamOversized,
  withValidators,
} from './fake-upstream-responses.js';
import type { Doc } from './fake-upstream-responses.js';

/** How the next matching requests go wrong. */
export type FakeFault =
  /** Drop the connection with a TCP reset, before any header or after part of the body. */
  | { readonly kind: 'reset'; readonly when?: 'before-headers' | 'mid-body' }
  /** Read the request and never answer. */
  | { readonly kind: 'hang' }
  /** Send the normal response one byte every `intervalMs`. */
  | { readonly kind: 'slow-drip'; readonly intervalMs: number }
  /** Declare a Content-Length larger than what is sent, then close the connection. */
  | { readonly kind: 'truncated' }
  /** Answer `status` (500, 502, 503, 429, 404...) with a small JSON error body. */
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  /** 200 application/json whose body is not JSON. */
  | { readonly kind: 'malformed-json' }
  /** 200 application/json `{"unexpected":true}`: valid JSON, wrong shape for every adapter. */
  | { readonly kind: 'wrong-shape' }
  /** 200 text/html. */
  | { readonly kind: 'wrong-content-type' }
  /** Redirect to `location` (a path, or a full URL such as `${fake.otherHostUrl}/x`). */
  | {
      readonly kind: 'redirect';
      readonly location: string;
      readonly status?: 301 | 302 | 303 | 307 | 308;
    }
  /**
   * Stream a JSON array of `bytes` bytes (default 200 MiB), generated lazily, with a matching
   * Content-Length when `declareLength` is true, else chunked.
   */
  | { readonly kind: 'oversized'; readonly bytes?: number; readonly declareLength?: boolean };

/** A fault and how many matching requests it applies to (default: until cleared). */
export type FakeFaultSetting = FakeFault & { readonly times?: number };

export interface FakeRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Date.now() when the request arrived, in ms. */
  readonly at: number;
  /** Status sent, once the headers went out; undefined for hang and reset before headers. */
  readonly status: number | undefined;
  /** Body bytes written so far (grows while a drip or an oversized body is being sent). */
  readonly bodyBytesSent: number;
  /** True once the connection closed before the response was complete (client hung up). */
  readonly closedEarly: boolean;
}

export interface FakeJsonOptions {
  /** Default 200. */
  readonly status?: number;
  /** Extra or replacement response headers (names in any case), e.g. a content-type. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** The same server under another host name (`http://localhost:<port>`): "another host". */
  readonly otherHostUrl: string;
  /** Every request received, oldest first (a live view). */
  readonly requests: readonly FakeRequest[];
  /**
   * Makes requests whose path starts with `pathPrefixOrAll` (or every request for `'*'`) fail;
   * `null` clears that prefix's fault. When several match, the one set last applies.
   */
  setFault(pathPrefixOrAll: string, fault: FakeFaultSetting | null): void;
  clearFaults(): void;
  /**
   * Serves `body` as JSON at `pathAndQuery`. A key with a query matches exactly that path and
   * query (for multi-page documents); a key without one matches the path with any query.
   * Such routes win over files; they get an ETag and answer If-None-Match with 304.
   */
  setJson(pathAndQuery: string, body: unknown, options?: FakeJsonOptions): void;
  clearRequests(): void;
  /** Stops the server and destroys every open socket. */
  close(): Promise<void>;
}

export interface FakeUpstreamOptions {
  /**
   * Directory served. Default: test/fixtures/snapshots/, the bundled snapshots with provider_c
   * cut to a few hundred records (npm run snapshots:generate writes both).
   */
  readonly root?: string;
}

const DEFAULT_ROOT = fileURLToPath(new URL('../fixtures/snapshots/', import.meta.url));

type MutableRequest = { -readonly [K in keyof FakeRequest]: FakeRequest[K] };

/** A URL on 127.0.0.1 where nothing listens (a port just bound and released): "refused". */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const root = options.root ?? DEFAULT_ROOT;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const faults = new Map<string, { fault: FakeFault; remaining: number }>();
  const routes = new Map<string, Doc>();
  const requests: MutableRequest[] = [];

  function takeFault(urlPath: string): FakeFault | undefined {
    for (const [prefix, state] of [...faults].reverse()) {
      if (prefix !== '*' && !urlPath.startsWith(prefix)) continue;
      state.remaining -= 1;
      if (state.remaining <= 0) faults.delete(prefix);
      return state.fault;
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, record: MutableRequest) {
    const pathAndQuery = req.url ?? '/';
    const urlPath = pathAndQuery.split('?', 1)[0] ?? '/';
    const fault = takeFault(urlPath);
    const socket = req.socket;
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'reset' && fault.when !== 'mid-body') return void socket.resetAndDestroy();
    if (fault?.kind === 'status') {
      const extra: Record<string, string> = fault.retryAfter
        ? { 'retry-after': fault.retryAfter }
        : {};
      return sendDoc(
        res,
        record,
        jsonDoc(fault.status, { errors: [{ reason: `fault ${fault.status}` }] }, extra),
      );
    }
    if (fault?.kind === 'malformed-json') {
      const doc = {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"data": [{"id": '),
      };
      return sendDoc(res, record, doc);
    }
    if (fault?.kind === 'wrong-shape')
      return sendDoc(res, record, jsonDoc(200, { unexpected: true }));
    if (fault?.kind === 'wrong-content-type') {
      const body = Buffer.from('<!doctype html><title>Gateway</title><p>Please log in</p>');
      return sendDoc(res, record, {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body,
      });
    }
    if (fault?.kind === 'redirect') {
      const doc = {
        status: fault.status ?? 302,
        headers: { location: fault.location },
        body: Buffer.alloc(0),
      };
      return sendDoc(res, record, doc);
    }
    if (fault?.kind === 'oversized') {
      return streamOversized(
        res,
        record,
        fault.bytes ?? 200 * 1024 * 1024,
        fault.declareLength ?? false,
      );
    }

    const found = routes.get(pathAndQuery) ?? routes.get(urlPath) ?? (await fileDoc(root, urlPath));
    const doc = found ?? jsonDoc(404, { errors: [{ reason: 'Not found' }] });
    if (fault === undefined) {
      if (found !== undefined && found.status === 200 && notModified(req, found)) {
        const { etag, 'last-modified': lastModified } = found.headers;
        const headers = {
          ...(etag ? { etag } : {}),
          ...(lastModified ? { 'last-modified': lastModified } : {}),
        };
        record.status = 304;
        res.writeHead(304, headers);
        return void res.end();
      }
      return sendDoc(res, record, doc);
    }
    if (fault.kind === 'slow-drip') return dripDoc(res, record, doc, fault.intervalMs, timers);
    // truncated, or reset mid-body: send about half of a body declared longer, then drop.
    record.status = doc.status;
    res.writeHead(doc.status, { ...doc.headers, 'content-length': String(doc.body.length + 1024) });
    const part = doc.body.subarray(0, Math.max(1, Math.floor(doc.body.length / 2)));
    record.bodyBytesSent = part.length;
    res.write(part, () => {
      if (fault.kind === 'reset') socket.resetAndDestroy();
      else socket.destroy();
    });
  }

  const server = createServer((req, res) => {
    const record: MutableRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      at: Date.now(),
      status: undefined,
      bodyBytesSent: 0,
      closedEarly: false,
    };
    requests.push(record);
    res.once('close', () => {
      record.closedEarly = !res.writableFinished;
    });
    handle(req, res, record).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    otherHostUrl: `http://localhost:${port}`,
    requests,
    setFault(pathPrefixOrAll, fault) {
      faults.delete(pathPrefixOrAll);
      if (fault !== null) {
        faults.set(pathPrefixOrAll, { fault, remaining: fault.times ?? Number.POSITIVE_INFINITY });
      }
    },
    clearFaults: () => faults.clear(),
    setJson(pathAndQuery, body, jsonOptions = {}) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(jsonOptions.headers ?? {})) {
        headers[name.toLowerCase()] = value;
      }
      const doc = jsonDoc(jsonOptions.status ?? 200, body, headers);
      routes.set(pathAndQuery, withValidators(doc, new Date()));
    },
    clearRequests: () => void requests.splice(0, requests.length),
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

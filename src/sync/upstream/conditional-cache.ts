// Remembers validators (ETag, Last-Modified) and the body of recent small JSON documents, so a
// repeated sync can send a conditional GET and reuse the body on 304 Not Modified. In memory,
// per client, bounded by entry count and total bytes. AWS bulk files answer If-None-Match with
// 304 (docs: ../shared/upstream-formats.md section 3.8); others simply always answer 200.

import { LRUCache } from 'lru-cache';
import type { IncomingHttpHeaders } from 'node:http';

export interface CachedDocument {
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** The raw body; parsed again on every hit so callers can never mutate a shared value. */
  readonly body: Buffer;
}

export interface ConditionalCacheLimits {
  /** Most URLs remembered; 0 disables conditional GET. */
  readonly maxEntries: number;
  /** Largest single body kept, in bytes; bigger documents are not cached. */
  readonly maxBodyBytes: number;
}

export interface ConditionalCache {
  get(url: string): CachedDocument | undefined;
  /** Keeps a 200 response's body if it carries a validator, is small and is cacheable. */
  remember(url: string, headers: IncomingHttpHeaders, body: Buffer): void;
}

/** If-None-Match / If-Modified-Since for a remembered document (none when there is none). */
export function validatorHeaders(doc: CachedDocument | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (doc?.etag !== undefined) headers['if-none-match'] = doc.etag;
  if (doc?.lastModified !== undefined) headers['if-modified-since'] = doc.lastModified;
  return headers;
}

function single(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

export function createConditionalCache(limits: ConditionalCacheLimits): ConditionalCache {
  if (limits.maxEntries <= 0) {
    return { get: () => undefined, remember: () => undefined };
  }
  const entries = new LRUCache<string, CachedDocument>({
    max: limits.maxEntries,
    // Total bytes held: every entry at its largest, so the bound is explicit.
    maxSize: limits.maxEntries * Math.max(1, limits.maxBodyBytes),
    sizeCalculation: (doc) => Math.max(1, doc.body.length),
  });
  return {
    get: (url) => entries.get(url),
    remember(url, headers, body) {
      const etag = single(headers.etag);
      const lastModified = single(headers['last-modified']);
      const cacheControl = single(headers['cache-control'])?.toLowerCase() ?? '';
      if (etag === undefined && lastModified === undefined) return;
      if (cacheControl.includes('no-store') || body.length > limits.maxBodyBytes) {
        entries.delete(url);
        return;
      }
      entries.set(url, { etag, lastModified, body });
    },
  };
}

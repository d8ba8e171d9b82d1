// Which response bodies we treat as JSON, and how we decode them. Upstream bytes are untrusted:
// invalid UTF-8 and malformed JSON are UPSTREAM_INVALID_DATA, never a crash or a silent
// replacement character.

import { UpstreamError } from './upstream-error.js';

/**
 * Media types accepted as a JSON document: `application/json`, any `+json` structured-syntax
 * type, and the two octet-stream types, because S3 and CloudFront serve AWS bulk offer files
 * as `application/octet-stream` or `binary/octet-stream` (whatever the uploader set).
 * Parameters such as `; charset=utf-8` are allowed. Anything else (an HTML error page from a
 * proxy, say) is refused.
 */
export function isAcceptedJsonContentType(header: string | readonly string[] | undefined): boolean {
  const raw = typeof header === 'string' ? header : header?.[0];
  if (raw === undefined) return false;
  const mediaType = (raw.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (mediaType === 'application/json') return true;
  if (mediaType === 'application/octet-stream' || mediaType === 'binary/octet-stream') return true;
  // RFC 6839 structured syntax suffix: type/subtype+json, such as application/problem+json.
  return /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

/**
 * Media types accepted as an XML document (the ECB rates file): `application/xml`, `text/xml`,
 * any `+xml` type, and the octet-stream types for files served from object storage.
 */
export function isAcceptedXmlContentType(header: string | readonly string[] | undefined): boolean {
  const raw = typeof header === 'string' ? header : header?.[0];
  if (raw === undefined) return false;
  const mediaType = (raw.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (mediaType === 'application/xml' || mediaType === 'text/xml') return true;
  if (mediaType === 'application/octet-stream' || mediaType === 'binary/octet-stream') return true;
  return /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+xml$/.test(mediaType);
}

/**
 * Media types accepted as a text document read by getText (a YAML file): any `text/*` (GitHub's
 * raw files are `text/plain`), the YAML types, and the octet-stream types.
 */
export function isAcceptedTextContentType(header: string | readonly string[] | undefined): boolean {
  const raw = typeof header === 'string' ? header : header?.[0];
  if (raw === undefined) return false;
  const mediaType = (raw.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (mediaType === 'text/html') return false;
  if (/^text\/[a-z0-9!#$&^_.+-]+$/.test(mediaType)) return true;
  if (mediaType === 'application/yaml' || mediaType === 'application/x-yaml') return true;
  return mediaType === 'application/octet-stream' || mediaType === 'binary/octet-stream';
}

/** Decodes UTF-8 (a leading BOM is dropped); `target` names the request. */
export function decodeUtf8Body(bytes: Uint8Array, target: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', `response is not valid UTF-8 (${target})`, {
      cause: err,
    });
  }
}

/** Decodes UTF-8 (a leading BOM is dropped) and parses JSON; `target` names the request. */
export function parseJsonBody(bytes: Uint8Array, target: string): unknown {
  const text = decodeUtf8Body(bytes, target);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', `response is not valid JSON (${target})`, {
      cause: err,
    });
  }
}

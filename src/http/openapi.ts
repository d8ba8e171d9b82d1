import type { SwaggerOptions } from '@fastify/swagger';
import { describeCsvExport } from './csv-export-openapi.js';

/**
 * The document's tags: every operation names one of these (`tags` in its route schema), and
 * `redocly lint` (test/http/openapi.lint.test.ts, rule operation-tag-defined) fails on a tag
 * that is not declared here. A new endpoint takes the tag of its capability or adds one.
 */
export const API_TAGS = [
  { name: 'instances', description: 'The catalogue of instance types and their prices.' },
  { name: 'recommendations', description: 'Instances recommended for a software stack.' },
  { name: 'sync', description: 'Fetching the providers’ latest catalogues.' },
  { name: 'history', description: 'Price history, the change feed and past catalogues.' },
  {
    name: 'webhooks',
    description: 'Subscriptions to sync and price-change events, delivered signed.',
  },
  { name: 'health', description: 'Health of the service and freshness of each provider’s data.' },
  { name: 'assistants', description: 'The Model Context Protocol server for AI assistants.' },
  { name: 'meta', description: 'This API description.' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

/** The OpenAPI 3.1 document, generated from the route schemas (GET /openapi.json). */
export function openApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'cloudprice',
        version: '1.0.0',
        description: [
          'Cloud compute instances and prices from three providers’ Asian regions (Seoul, Tokyo, Osaka, Singapore, Hong Kong).',
          '',
          'Every endpoint needs the `X-API-Key` header (a missing or invalid key: 401 UNAUTHORIZED). Rate limits per client address per clock minute: /instances 100, /sync 10, /recommend 60, /webhooks 10, /health unlimited; over the limit: 429 RATE_LIMIT_EXCEEDED with `Retry-After` and `RateLimit-*` headers. After 20 failed authentications in a minute, further unauthenticated requests get 429 until the minute ends. When the rate-limit store cannot be consulted: 503 SERVICE_UNAVAILABLE with `Retry-After: 5`.',
          '',
          'Order of checks: CORS preflight (answered 204 without a key), rate limit, authentication, body (10,240 bytes at most: 413 PAYLOAD_TOO_LARGE; `application/json` only: 400 INVALID_CONTENT_TYPE; valid JSON object: 400 INVALID_JSON), then parameters. Unknown paths: 404 NOT_FOUND; a known path with another method: 405 METHOD_NOT_ALLOWED with `Allow`. Before routing, on any path: a request not fully received within the request timeout gets 408 REQUEST_TIMEOUT, headers over 16 KiB 431 HEADERS_TOO_LARGE, bytes that are not HTTP/1.1 400 MALFORMED_REQUEST; the connection is then closed.',
          '',
          'Every error has the envelope `{ "success": false, "error": { "code", "message", "details"? } }`. Timestamps are ISO 8601 UTC with milliseconds, except /health `last_sync` (`YYYY-MM-DD HH:MM:SS` UTC). Prices are USD, hourly rounded to 4 decimals and monthly to 2, from exact upstream decimals; monthly = hourly × 730 where an upstream gives only hourly.',
        ].join('\n'),
        // No licence has been granted for cloudprice yet (package.json is private and there is no
        // LICENSE file): the document says so rather than inventing one (docs/adr/0008).
        license: {
          name: 'Proprietary: all rights reserved',
          identifier: 'LicenseRef-cloudprice-proprietary',
        },
      },
      // Relative to where the document was served: the same origin whatever host name, port or
      // scheme a client reached it on (docs/adr/0008).
      servers: [{ url: '/', description: 'The server that served this document' }],
      tags: API_TAGS.map((tag) => ({ ...tag })),
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      },
      security: [{ apiKey: [] }],
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? describeCsvExport(document.openapiObject)
        : document.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  };
}

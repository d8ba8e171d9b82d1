// Serves the built web UI (web/ -> dist/web, a static Vite build) under /ui/ (D48).
// The files hold no data, so they are served without a key and without a rate limit; every data
// call the page makes sends X-API-Key like any other client. The whole build is small (well
// under a megabyte), so it is read once at start, compressed once on first request, and served from memory.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { pickEncoding } from './compression.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-handler.js';
import { AppError } from '../api/errors.js';

/** D48: the UI's own pages may load their own scripts, styles and images, and nothing else. */
export const UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'";

export const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.webmanifest']);
/** A build larger than this is not a UI build: refuse to hold it in memory. */
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;

interface UiFile {
  readonly type: string;
  readonly body: Buffer;
  /** Whether the type is worth compressing; the compressed bodies are made on first request. */
  readonly compressible: boolean;
  gzip?: Buffer;
  brotli?: Buffer;
  readonly etag: string;
  /** Vite puts content-hashed files under assets/: they never change under one name. */
  readonly immutable: boolean;
}

/** Reads every file of `dir` (relative path with `/` -> file); empty when the UI is not built. */
export function loadUiFiles(dir: string): Map<string, UiFile> {
  const files = new Map<string, UiFile>();
  if (!existsSync(path.join(dir, 'index.html'))) return files;
  let total = 0;
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(relative);
        continue;
      }
      const ext = path.extname(entry.name).toLowerCase();
      const type = TYPES[ext];
      if (type === undefined || !entry.isFile()) continue;
      const full = path.join(dir, relative);
      total += statSync(full).size;
      if (total > MAX_TOTAL_BYTES) throw new Error(`web UI build in ${dir} is over 16 MB`);
      const body = readFileSync(full);
      files.set(relative, {
        type,
        body,
        compressible: COMPRESSIBLE.has(ext) && body.length > 256,
        etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        immutable: relative.startsWith('assets/'),
      });
    }
  };
  walk('');
  return files;
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: UiFile): FastifyReply {
  reply
    .header('content-security-policy', UI_CSP)
    .header('cache-control', file.immutable ? IMMUTABLE : 'no-cache')
    .header('content-type', file.type)
    .header('etag', file.etag);
  if (file.compressible) reply.header('vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const encoding = file.compressible ? pickEncoding(request.headers['accept-encoding']) : undefined;
  // Compressed once, on first request, so start-up does not pay for it (brotli 11 is slow).
  if (encoding === 'br') {
    file.brotli ??= brotliCompressSync(file.body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
    });
    return reply.header('content-encoding', 'br').send(file.brotli);
  }
  if (encoding === 'gzip') {
    file.gzip ??= gzipSync(file.body, { level: 9 });
    return reply.header('content-encoding', 'gzip').send(file.gzip);
  }
  return reply.send(file.body);
}

/** GET / -> /ui/, and the UI's files under /ui/, all public (no key, no rate limit). */
export function webUiRoutes(app: FastifyInstance, webDir: string): void {
  const files = loadUiFiles(webDir);
  const hide = { hide: true };
  const open = { public: true } as const;

  app.get('/', { schema: hide, config: open }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').redirect('/ui/', 302),
  );
  app.get('/ui', { schema: hide, config: open }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').redirect('/ui/', 302),
  );
  app.get('/ui/*', { schema: hide, config: open }, (request, reply) => {
    const wanted = (request.params as { '*': string })['*'];
    if (files.size === 0) {
      return sendError(
        reply,
        new AppError(
          'SERVICE_UNAVAILABLE',
          'The web UI is not built: run `npm run build:web` (npm start does it when needed)',
        ),
      );
    }
    const file = files.get(wanted === '' ? 'index.html' : wanted);
    if (file === undefined) {
      return sendError(reply, new AppError('NOT_FOUND', `No file /ui/${wanted.slice(0, 100)}`));
    }
    return sendFile(request, reply, file);
  });
}

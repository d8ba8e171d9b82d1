// Response compression for the API's JSON and CSV (docs/adr/page-0023): brotli or gzip when the
// client's Accept-Encoding asks for one, for bodies of COMPRESS_MIN_BYTES or more. A request
// that asks for neither returns from the hook at its first test: no header parsing beyond one
// lookup, no copy, no allocation, so such clients are answered exactly as before.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Below this a body is sent as it is: the saving would not pay for the work and the header. */
export const COMPRESS_MIN_BYTES = 1_024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// Quality 4 / level 6: about as fast as gzip's default while smaller; brotli's default 11 is
// meant for files compressed once (the web UI's), not for answers made per request.
const BROTLI_OPTIONS = {
  params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 },
};
const GZIP_OPTIONS = { level: 6 };

const COMPRESSIBLE = /^(application\/json|text\/csv)\b/i;

/** `br` or `gzip` when the client accepts it (a q=0 refusal counts as not accepted). */
export function pickEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (header === undefined) return undefined;
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(';', 1)[0]!.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const header = request.headers['accept-encoding'];
    // The common case for scripts and load tests: nothing asked, nothing done.
    if (header === undefined) return done(null, payload);
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined;
    if (body === undefined || Buffer.byteLength(body) < COMPRESS_MIN_BYTES) {
      return done(null, payload);
    }
    if (reply.hasHeader('content-encoding')) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return done(null, payload);
    const encoding = pickEncoding(header);
    // Caches must key the answer by what the client accepts, compressed or not.
    const vary = reply.getHeader('vary');
    reply.header('vary', typeof vary === 'string' ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    if (encoding === undefined) return done(null, payload);
    const compressed =
      encoding === 'br' ? brotli(body, BROTLI_OPTIONS) : gzipAsync(body, GZIP_OPTIONS);
    compressed.then(
      (bytes) => {
        reply.header('content-encoding', encoding);
        reply.removeHeader('content-length');
        done(null, bytes);
      },
      // Compression cannot fail on a string or a buffer short of memory; if it does, the body
      // goes out as it is rather than not at all.
      () => done(null, payload),
    );
    return undefined;
  });
}

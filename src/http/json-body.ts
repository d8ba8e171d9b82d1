import type { FastifyInstance } from 'fastify';
import { AppError } from '../api/errors.js';

/**
 * Our JSON body parser (D13, D14). An empty body parses to `undefined`, so each route decides
 * whether a body is required (POST /sync treats none as the defaults). Anything that is not a
 * JSON object is INVALID_JSON. Only `application/json` (with parameters) is accepted; Fastify
 * answers other media types with a 415 that the error handler turns into INVALID_CONTENT_TYPE.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(new AppError('INVALID_JSON', 'Request body is not valid JSON'), undefined);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return done(new AppError('INVALID_JSON', 'Request body must be a JSON object'), undefined);
    }
    done(null, value);
  });
}

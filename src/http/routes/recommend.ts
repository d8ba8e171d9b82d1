import type { FastifyInstance } from 'fastify';
import { recommendFor } from '../../recommend/recommend-service.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../errors.js';
import {
  ApiKeySecurity,
  commonErrorResponses,
  errorResponse,
  withExamples,
} from '../schemas/common.js';
import {
  INVALID_STACK_EXAMPLE,
  RECOMMEND_REQUEST_EXAMPLE,
  RECOMMEND_RESPONSE_EXAMPLE,
} from '../schemas/examples.js';
import { RecommendRequestSchema, RecommendResponse } from '../schemas/recommend.js';

export const RECOMMEND_RATE_LIMIT = 60;

export function recommendRoute(app: FastifyInstance, { catalog, rates }: AppServices): void {
  app.post(
    '/recommend',
    {
      config: { rateLimit: RECOMMEND_RATE_LIMIT },
      schema: {
        operationId: 'recommendInstances',
        tags: ['recommendations'],
        summary: 'Recommend instances for a stack and scale',
        description:
          'Needs a JSON body (no Content-Type: 400 INVALID_CONTENT_TYPE; empty body: 400 INVALID_JSON). Missing stack or scale: MISSING_PARAMETER (stack is checked first); stack not an array or over 20 entries: INVALID_PARAMETER; empty: EMPTY_STACK; unknown names: INVALID_STACK with details {invalid, supported}; scale other than small/medium/large: INVALID_PARAMETER with allowed; budget_max not a number > 0: INVALID_PARAMETER. See docs/recommend-scoring.md for the scoring.',
        security: ApiKeySecurity,
        body: withExamples(RecommendRequestSchema, RECOMMEND_REQUEST_EXAMPLE),
        response: {
          200: withExamples(RecommendResponse, RECOMMEND_RESPONSE_EXAMPLE),
          ...commonErrorResponses(413),
          400: errorResponse(400, INVALID_STACK_EXAMPLE),
        },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      if (request.body === undefined) {
        // Fastify skips the body parser for an empty body, so its content type is checked here.
        const mediaType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
        throw mediaType !== 'application/json'
          ? new AppError('INVALID_CONTENT_TYPE', 'Content-Type must be application/json')
          : new AppError('INVALID_JSON', 'Request body is empty; a JSON object is required');
      }
      const outcome = await recommendFor(request.body, { catalog, rates });
      if (!outcome.ok) {
        const { code, message, details } = outcome.error;
        throw new AppError(code, message, details);
      }
      return reply.send({
        success: true,
        data: outcome.data,
        meta: {
          query_time_ms: Math.round(performance.now() - started),
          ...(outcome.exchangeRate !== undefined && { exchange_rate: outcome.exchangeRate }),
        },
      });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { answerAround, RecommendMemo, recommendKey } from '../../recommend/recommend-memo.js';
import { computeRecommendations, prepareRecommend } from '../../recommend/recommend-service.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../../api/errors.js';
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

export function recommendRoute(app: FastifyInstance, services: AppServices): void {
  // Whole answers per (catalogue index, normalised request), kept from their second asking: a
  // repeat costs the body check, the validation and one lookup (src/recommend/recommend-memo.ts;
  // docs/performance.md).
  const memo = new RecommendMemo();
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
      const prepared = await prepareRecommend(request.body, services);
      if (!prepared.ok) {
        const { code, message, details } = prepared.error;
        throw new AppError(code, message, details);
      }
      // Which prices are stale (D57) changes with the clock, not with the index: its mark
      // completes the key.
      const key = `${recommendKey(prepared.request, prepared.money)}#${prepared.staleMark}`;
      let answer = memo.get(prepared.index, key);
      if (answer === undefined) {
        answer = answerAround(computeRecommendations(prepared), prepared.money.note);
        memo.offer(prepared.index, key, answer);
      }
      const elapsed = Math.round(performance.now() - started);
      return reply
        .type('application/json; charset=utf-8')
        .send(`${answer.head}${elapsed}${answer.tail}`);
    },
  );
}

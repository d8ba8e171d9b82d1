import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services.js';
import { Type } from 'typebox';
import { ApiKeySecurity, errorResponse, withExamples } from '../schemas/common.js';
import { HEALTH_DEGRADED_EXAMPLE, HEALTH_HEALTHY_EXAMPLE } from '../schemas/examples.js';
import { HealthResponse } from '../schemas/health-sync.js';

export function healthRoute(app: FastifyInstance, { health, drain }: AppServices): void {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Health of the database, the rate limiter and each provider’s data',
        description:
          'Not rate limited (only failed authentication is). While the process drains after SIGTERM/SIGINT: 503 with status shutting_down. 200 only when every component is healthy; 503 with the same body otherwise. A provider is healthy when its last successful sync is under 24 h old and its latest attempt succeeded; degraded at 24 to 48 h or after a failed attempt; unhealthy when never synced or over 48 h. Overall: unhealthy when the database fails or every provider is unhealthy; degraded when any component is not healthy.',
        security: ApiKeySecurity,
        response: {
          200: withExamples(HealthResponse, HEALTH_HEALTHY_EXAMPLE),
          503: withExamples(
            Type.Union([HealthResponse, Type.Ref('ErrorEnvelope')], {
              description: 'Some component is not healthy (or the service is shutting down).',
            }),
            HEALTH_DEGRADED_EXAMPLE,
          ),
          401: errorResponse(401),
          429: errorResponse(429),
        },
      },
    },
    async (_request, reply) => {
      const report = await health.check();
      // Draining after SIGTERM: a balancer checking /health takes the replica out.
      if (drain?.draining === true) {
        return reply.code(503).send({ ...report, status: 'shutting_down' as const });
      }
      return reply.code(report.status === 'healthy' ? 200 : 503).send(report);
    },
  );
}

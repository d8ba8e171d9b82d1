import type { FastifyInstance } from 'fastify';
import { parseSyncRequest } from '../../sync/sync-request.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../../api/errors.js';
import {
  ApiKeySecurity,
  commonErrorResponses,
  errorResponse,
  withExamples,
} from '../schemas/common.js';
import {
  SYNC_FAILED_EXAMPLE,
  SYNC_REQUEST_EXAMPLE,
  SYNC_RESPONSE_EXAMPLE,
  UNSUPPORTED_PROVIDERS_EXAMPLE,
} from '../schemas/examples.js';
import { FIRST_PROVIDER } from '../schemas/example-providers.js';
import { SyncRequest, SyncResponse } from '../schemas/health-sync.js';

export const SYNC_RATE_LIMIT = 10;

export function syncRoute(app: FastifyInstance, { sync }: AppServices): void {
  app.post(
    '/sync',
    {
      config: { rateLimit: SYNC_RATE_LIMIT },
      schema: {
        operationId: 'syncProviders',
        tags: ['sync'],
        summary: 'Fetch the latest catalogue from providers',
        description: `No body means the defaults ({"providers":["${FIRST_PROVIDER.name}"]}). Each provider is applied atomically; a failed provider keeps its previous catalogue. Some providers failing gives 200 with data.success false; all failing gives 500 SYNC_FAILED with the per-provider results in error.details.providers. A sync of a provider already running (on any replica) is waited for. Each provider is replaced region by region: a region whose upstream record failed validation keeps its records, and skipped records are counted in skipped_records. A catalogue that would leave a region of ours that had records with none fails that provider with UPSTREAM_INVALID_DATA and keeps its previous catalogue unless force is true (the only effect of force); one that would leave the provider with no available record always fails. One sync has one completed_at: on its run, its history, its feed items and its events.`,
        security: ApiKeySecurity,
        body: withExamples(SyncRequest, SYNC_REQUEST_EXAMPLE),
        response: {
          200: withExamples(SyncResponse, SYNC_RESPONSE_EXAMPLE),
          ...commonErrorResponses(413),
          400: errorResponse(400, UNSUPPORTED_PROVIDERS_EXAMPLE),
          500: errorResponse(500, SYNC_FAILED_EXAMPLE),
        },
      },
    },
    async (request, reply) => {
      const parsed = parseSyncRequest(request.body as Record<string, unknown> | undefined);
      if (!parsed.ok)
        throw new AppError(parsed.problem.code, parsed.problem.message, parsed.problem.details);
      const report = await sync.sync(parsed.providers, { force: parsed.force });
      if (report.summary.successful_providers === 0) {
        throw new AppError('SYNC_FAILED', 'Synchronisation failed for every requested provider', {
          sync_id: report.sync_id,
          providers: report.providers,
        });
      }
      return reply.send({ success: true, data: report });
    },
  );
}

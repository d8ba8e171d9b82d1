import type { FastifyInstance } from 'fastify';
import { parseWebhookRequest } from '../../events/webhook-request.js';
import { createWebhook, toWebhookJson } from '../../events/webhook-service.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../../api/errors.js';
import { queryFailure } from '../query-failure.js';
import { ApiKeySecurity, commonErrorResponses, errorResponse } from '../schemas/common.js';
import {
  CreateWebhookRequest,
  CreateWebhookResponse,
  ListWebhooksResponse,
  Webhook,
  WebhookParams,
} from '../schemas/webhooks.js';
import { errorBody } from '../../api/errors.js';

// POST/GET/DELETE /webhooks (D42): one budget of 10 requests a minute per client for all three.

export const WEBHOOKS_RATE_LIMIT = 10;
const limit = { rateLimit: WEBHOOKS_RATE_LIMIT, rateLimitScope: '/webhooks' };

const storeFailure = (request: { log: { error(obj: unknown, msg: string): void } }) => {
  return (error: unknown): never => {
    request.log.error({ err: error }, 'webhook store query failed');
    throw queryFailure(error);
  };
};

export function webhookRoutes(app: FastifyInstance, { store, config }: AppServices): void {
  app.addSchema(Webhook);

  app.post(
    '/webhooks',
    {
      config: limit,
      schema: {
        operationId: 'createWebhook',
        tags: ['webhooks'],
        summary: 'Subscribe a URL to sync and price-change events',
        description:
          'Creates a subscription (D42) and returns it with its signing `secret`, shown only here. Deliveries are POSTs signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`), retried with exponential backoff for 24 hours on a non-2xx answer or no answer within 10 s, and delivered at least once (deduplicate on `webhook-id`). Missing url or events: 400 MISSING_PARAMETER; a bad field, or a URL that is not http(s) or resolves to a loopback, link-local or private address: 400 INVALID_PARAMETER (link-local and cloud metadata addresses in every mode, even where the server allows private targets). At most 100 webhooks, also under concurrent creates. 10 requests a minute per client across the /webhooks endpoints. See docs/api.md for the event bodies and a receiver.',
        security: ApiKeySecurity,
        body: CreateWebhookRequest,
        response: { 201: CreateWebhookResponse, ...commonErrorResponses(400, 413) },
      },
    },
    async (request, reply) => {
      const parsed = parseWebhookRequest(request.body as Record<string, unknown> | undefined);
      if (!parsed.ok) {
        const { code, message, details } = parsed.problem;
        throw new AppError(code, message, details);
      }
      const created = await createWebhook(store.webhooks, parsed.value, config.webhooks).catch(
        storeFailure(request),
      );
      if (!created.ok) {
        const { code, message, details } = created.problem;
        throw new AppError(code, message, details);
      }
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ success: true, data: created.webhook });
    },
  );

  app.get(
    '/webhooks',
    {
      config: limit,
      schema: {
        operationId: 'listWebhooks',
        tags: ['webhooks'],
        summary: 'List the webhook subscriptions',
        description: 'Every subscription, oldest first, without secrets.',
        security: ApiKeySecurity,
        response: { 200: ListWebhooksResponse, ...commonErrorResponses() },
      },
    },
    async (request, reply) => {
      const hooks = await store.webhooks.list().catch(storeFailure(request));
      return reply
        .header('cache-control', 'no-store')
        .send({ success: true, data: { webhooks: hooks.map(toWebhookJson) } });
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: limit,
      schema: {
        operationId: 'deleteWebhook',
        tags: ['webhooks'],
        summary: 'Delete a webhook subscription',
        description:
          'Removes the subscription and its queued deliveries: 204. An unknown id: 404 NOT_FOUND.',
        security: ApiKeySecurity,
        params: WebhookParams,
        response: {
          204: { description: 'Deleted.', type: 'null' },
          ...commonErrorResponses(),
          404: errorResponse(
            404,
            errorBody('NOT_FOUND', 'No webhook with id wh_000000000000000000000000'),
          ),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      // Ids are short; anything longer cannot exist and is not worth a query.
      const deleted =
        id.length <= 64 && (await store.webhooks.delete(id).catch(storeFailure(request)));
      if (!deleted) {
        throw new AppError('NOT_FOUND', `No webhook with id ${id.slice(0, 64)}`);
      }
      return reply.code(204).send();
    },
  );
}

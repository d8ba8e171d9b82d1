import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services.js';
import { healthRoute } from './health.js';
import { historyRoutes } from './history.js';
import { instanceTypesRoute } from './instance-types.js';
import { instancesRoute } from './instances.js';
import { mcpRoute, type ChargeRateLimit } from './mcp.js';
import { openApiRoute } from './openapi.js';
import { recommendRoute } from './recommend.js';
import { regionsRoute } from './regions.js';
import { syncRoute } from './sync.js';
import { webUiRoutes } from '../web-ui.js';
import { webhookRoutes } from './webhooks.js';

export async function registerRoutes(
  app: FastifyInstance,
  services: AppServices,
  charge: ChargeRateLimit,
): Promise<void> {
  healthRoute(app, services);
  instancesRoute(app, services);
  instanceTypesRoute(app, services);
  regionsRoute(app, services);
  historyRoutes(app, services);
  syncRoute(app, services);
  recommendRoute(app, services);
  webhookRoutes(app, services);
  mcpRoute(app, services, charge);
  openApiRoute(app);
  webUiRoutes(app, services.config.webDir);
  await app.ready();
}

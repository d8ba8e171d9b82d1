import type { FastifyInstance } from 'fastify';

export function openApiRoute(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(app.swagger()),
  );
}

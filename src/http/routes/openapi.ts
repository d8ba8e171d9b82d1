import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiKeySecurity, commonErrorResponses, withExamples } from '../schemas/common.js';

const OpenApiDocument = withExamples(
  Type.Object(
    {
      openapi: Type.String(),
      info: Type.Object({}, { additionalProperties: true }),
      paths: Type.Object({}, { additionalProperties: true }),
    },
    { additionalProperties: true, description: 'This document (OpenAPI 3.1).' },
  ),
  { openapi: '3.1.0', info: { title: 'cloudprice', version: '1.0.0' }, paths: {} },
);

export function openApiRoute(app: FastifyInstance): void {
  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'getOpenApi',
        tags: ['meta'],
        summary: 'This API description (OpenAPI 3.1)',
        description:
          'Generated from the route schemas. Not rate limited (only failed authentication is). Generate a typed client from it: see docs/api.md.',
        security: ApiKeySecurity,
        response: { 200: OpenApiDocument, ...commonErrorResponses() },
      },
    },
    (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').send(app.swagger()),
  );
}

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { ApiConfig } from '../env.ts';

/** OpenAPI generated from the same zod schemas that validate requests; the UI at /api/docs. */
export async function registerDocs(app: FastifyInstance, config: ApiConfig): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Space Cadet API',
        description: 'REST API of the Space Cadet dashboard. Schemas come from @spacecadet/contract.',
        version: '0.1.0',
      },
      servers: [{ url: config.publicApiUrl }],
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', description: 'Space Cadet session token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
}

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { ApiConfig } from '../env.ts';
import { servesPages } from './security.ts';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The route table's entry of a route (routes/define.ts keeps it in the route's config). */
function mediaTypesOf(document: TransformInput): {
  body?: Readonly<Record<string, unknown>>;
  response?: string;
} {
  const route = (
    document as { route?: { config?: { bodyMediaTypes?: unknown; responseMediaType?: unknown } } }
  ).route;
  const response = route?.config?.responseMediaType;
  const body = (document.schema as { bodyMediaTypes?: Readonly<Record<string, unknown>> } | undefined)
    ?.bodyMediaTypes;
  return {
    ...(body ? { body } : {}),
    ...(typeof response === 'string' ? { response } : {}),
  };
}

/**
 * zod to OpenAPI, plus what JSON alone cannot say: a body taken as several content types (the
 * XP import's CSV or JSON) and a success body that is not JSON (the export's CSV).
 */
function transform(document: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const media = mediaTypesOf(document);
  const { bodyMediaTypes: _media, ...schema } = (document.schema ?? {}) as Record<string, unknown>;
  const plain = { ...document, schema } as TransformInput;
  if (!media.body && !media.response) return jsonSchemaTransform(plain);
  const out = jsonSchemaTransform({ ...plain, schema: { ...schema, body: undefined } } as TransformInput);
  const transformed = out.schema as Record<string, unknown>;
  if (media.body) {
    const content: Record<string, { schema: unknown }> = {};
    for (const [type, zodSchema] of Object.entries(media.body)) {
      const one = jsonSchemaTransform({ ...plain, schema: { body: zodSchema } } as TransformInput);
      content[type] = { schema: (one.schema as { body?: unknown }).body };
    }
    transformed.body = { content };
  }
  const responses = transformed.response as Record<string, unknown> | undefined;
  const success = responses?.['200'];
  if (media.response && responses && success) {
    responses['200'] = { description: 'OK', content: { [media.response]: { schema: success } } };
  }
  return out;
}

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
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  // Its own scope: the UI's pages carry the document headers too (plugins/security.ts).
  await app.register(async (pages) => {
    servesPages(pages);
    await pages.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });
  });
}

import { ERRORS } from '@gateway/core';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { apiErrorBodySchema } from './errors';
import { appRouter } from './root';
import type { Meta } from './trpc';

type Operation = { responses?: Record<string, unknown>; parameters?: unknown[] };

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The OpenAPI document of the REST API, generated from the procedures' Zod schemas and made true
 * where the generator cannot know: each route's real success code (201 for creations), the API's
 * own error body on every error status, and the Idempotency-Key header.
 */
export function openApiDocument(baseUrl: string): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Payment Gateway — Server API v1',
    version: '1.0.0',
    baseUrl,
    description: `REST API compatible with the Server API v1 client SDKs. Error codes: ${Object.keys(ERRORS).length} (see /errorcodes).`,
    securitySchemes: { secretKey: { type: 'apiKey', in: 'header', name: 'x-secretkey' } },
  });
  const { $schema: _dialect, ...errorSchema } = z.toJSONSchema(apiErrorBodySchema, { io: 'output' });
  // The generator adds schemas of tRPC's own error shape, which this API never answers with.
  const schemas = Object.fromEntries(Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  doc.components = {
    ...doc.components,
    schemas: { ...schemas, Error: errorSchema as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string] },
  };
  const procedures = Object.values(appRouter._def.procedures) as unknown as Array<{ _def: { meta?: Meta } }>;
  for (const procedure of procedures) {
    const meta = procedure._def.meta;
    const route = meta?.openapi;
    if (!route) continue;
    const path = route.path.replace(/\{(\w+)\}/g, '{$1}');
    const operation = (doc.paths?.[path] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (!operation?.responses) continue;
    const hasBody = route.method === 'POST' || route.method === 'PUT';
    const changes = route.method !== 'GET';
    operation.responses = {
      [String(meta.successStatus ?? 200)]: operation.responses['200'],
      '400': errorResponse('Invalid request or refused payment (see code)'),
      '401': errorResponse('Missing or wrong key'),
      ...(route.path.includes('{') ? { '404': errorResponse('Not found in this account') } : {}),
      ...(changes ? { '409': errorResponse('A conflicting operation is in progress; retry later') } : {}),
      ...(hasBody ? { '413': errorResponse('Request body too large') } : {}),
      ...(meta.idempotent ? { '422': errorResponse('Idempotency-Key already used with another request') } : {}),
      '500': errorResponse('Internal error'),
    };
    if (meta.idempotent) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Same key and body replays the first answer (409 with Retry-After while the first request runs or what it started is settled); same key with another body is refused (422).',
          schema: { type: 'string', maxLength: 255 },
        },
      ];
    }
  }
  return doc;
}

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
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, Error: errorSchema as NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string] },
  };
  const procedures = Object.values(appRouter._def.procedures) as unknown as Array<{ _def: { meta?: Meta } }>;
  for (const procedure of procedures) {
    const meta = procedure._def.meta;
    const route = meta?.openapi;
    if (!route) continue;
    const path = route.path.replace(/\{(\w+)\}/g, '{$1}');
    const operation = (doc.paths?.[path] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (!operation?.responses) continue;
    const success = operation.responses['200'];
    const { default: _generatorError, ...rest } = operation.responses;
    const errors = Object.fromEntries(
      Object.entries(rest)
        .filter(([code]) => code !== '200')
        .map(([code]) => [code, errorResponse(`Error ${code}`)]),
    );
    operation.responses = {
      [String(meta.successStatus ?? 200)]: success,
      '400': errorResponse('Invalid request or refused payment (see code)'),
      '401': errorResponse('Missing or wrong x-secretkey'),
      ...(route.path.includes('{') ? { '404': errorResponse('Not found in this account') } : {}),
      ...errors,
      '500': errorResponse('Internal error'),
    };
    if (meta.idempotent) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Same key and body replays the first answer; same key with another body is refused (422).',
          schema: { type: 'string', maxLength: 255 },
        },
      ];
    }
  }
  return doc;
}

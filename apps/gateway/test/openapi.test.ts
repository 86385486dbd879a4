import { appRouter } from '@gateway/api';
import { PROVIDER_TYPES } from '@gateway/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './harness';

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

type Operation = { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> };

describe('GET /openapi.json', () => {
  it('documents every route with its real success code and the API error body', async () => {
    const response = await fetch(`${t.url}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.components.schemas.Error).toBeDefined();

    // Procedures without OpenAPI meta are the dashboard's, served over tRPC only.
    const routes = Object.values(appRouter._def.procedures).flatMap((p) => {
      const meta = (p as unknown as { _def: { meta?: { openapi?: { method: string; path: string }; successStatus?: number } } })._def.meta;
      return meta?.openapi ? [{ openapi: meta.openapi, successStatus: meta.successStatus }] : [];
    });
    expect(routes.length).toBeGreaterThan(8);
    for (const { openapi, successStatus } of routes) {
      const operation = doc.paths[openapi.path]?.[openapi.method.toLowerCase()];
      expect(operation, `${openapi.method} ${openapi.path}`).toBeDefined();
      const codes = Object.keys(operation?.responses ?? {});
      expect(codes).toContain(String(successStatus ?? 200));
      expect(codes.filter((c) => c.startsWith('2'))).toHaveLength(1);
      for (const code of codes.filter((c) => Number(c) >= 400)) {
        expect(operation?.responses[code]?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/Error');
      }
    }
    expect(Object.keys(doc.paths['/charge/card']?.post?.responses ?? {})).toContain('201');
  });

  it('describes POST /provider with every registered provider type and its parameters', async () => {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    const body = JSON.stringify(doc.paths['/provider']?.post?.requestBody.content['application/json']?.schema);
    for (const type of PROVIDER_TYPES.values()) {
      expect(body).toContain(`${type.type} (${type.displayName})`);
      for (const parameter of type.parameters) expect(body, type.type).toContain(parameter.name);
    }
  });
});

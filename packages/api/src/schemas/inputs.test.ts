import { describe, expect, it } from 'vitest';
import { appRouter } from '../root';

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;

/** Mirrors how trpc-to-openapi looks for schemas to coerce (utils/zod.ts: coerceSchema). */
function coercedPaths(schema: unknown, path: string): string[] {
  let def = defOf(schema);
  while (['optional', 'nullable', 'default', 'prefault', 'array', 'lazy'].includes(def.type)) {
    const inner = def.type === 'array' ? def.element : def.type === 'lazy' ? (def.getter as () => unknown)() : def.innerType;
    def = defOf(inner);
  }
  if (['number', 'boolean', 'bigint', 'date'].includes(def.type)) return [path];
  if (def.type !== 'object') return [];
  return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, value]) => coercedPaths(value, `${path}.${key}`));
}

describe('procedure inputs', () => {
  it('declare no primitive that trpc-to-openapi would coerce (use uncoerced())', () => {
    const procedures = Object.entries(appRouter._def.procedures) as unknown as Array<
      [string, { _def: { inputs: unknown[]; meta?: { openapi?: unknown } } }]
    >;
    // Only REST routes are coerced; tRPC-only procedures (the dashboard's) receive JSON as typed.
    const rest = procedures.filter(([, procedure]) => procedure._def.meta?.openapi);
    const offenders = rest.flatMap(([name, procedure]) => procedure._def.inputs.flatMap((input) => coercedPaths(input, name)));
    expect(offenders).toEqual([]);
  });
});

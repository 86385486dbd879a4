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

/** Every number a REST input declares, with the bounds Zod checks (unions, the amounts' and dates' own types, are checked by their refinements). */
function numbers(schema: unknown, path: string): Array<{ path: string; minimum: number; maximum: number }> {
  const def = defOf(schema);
  const inner = (next: unknown, suffix = '') => numbers(next, `${path}${suffix}`);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return inner((def.getter as () => unknown)());
    case 'array':
      return inner(def.element, '[]');
    case 'record':
      return inner(def.valueType, '{}');
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, value]) => inner(value, `.${key}`));
    case 'number': {
      const bag = (schema as { _zod: { bag: { minimum?: number; maximum?: number } } })._zod.bag;
      return [{ path, minimum: bag.minimum ?? -Infinity, maximum: bag.maximum ?? Infinity }];
    }
    default:
      return [];
  }
}

describe('numeric inputs', () => {
  it('are all bounded within a 32-bit integer, so no database column or offset overflows', () => {
    const procedures = Object.entries(appRouter._def.procedures) as unknown as Array<[string, { _def: { inputs: unknown[] } }]>;
    const found = procedures.flatMap(([name, procedure]) => procedure._def.inputs.flatMap((input) => numbers(input, name)));
    expect(found.length).toBeGreaterThan(10);
    const LIMIT = 2 ** 31 - 1;
    // Seconds until a vault item expires are checked by services/vault/items.ts, with their own
    // error codes: the date they lead to must fall before 10000-01-01.
    const checkedByTheVault = (n: { path: string }) => /\.(vaultExpireSeconds|expireSeconds)$/.test(n.path);
    expect(found.filter((n) => !checkedByTheVault(n) && (n.minimum < -LIMIT || n.maximum > LIMIT))).toEqual([]);
  });
});

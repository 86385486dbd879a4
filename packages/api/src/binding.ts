import { ApiError } from '@gateway/core';
import { z } from 'zod';

/**
 * Binds raw wire input to a procedure's Zod input schema the way existing client SDKs need:
 * object keys match case-insensitively (PascalCase, camelCase, `cardHolder`, `metaData`) and
 * through the aliases below; explicit `null` and empty strings mean "absent" (an empty string is
 * a value to refuse for the schemas in `emptyIsAValue`); numeric text
 * becomes a number where the schema wants a number; "true"/"false" become booleans; enum values
 * match in any letter case or by their integer index (the .NET client sends enums as integers,
 * so enum options are declared in that client's order). Keys inside records (metadata) are
 * left exactly as sent. This is the only place where input is lenient; the schemas stay strict.
 * Text with a NUL character is refused here: no database column can hold it.
 */

const ALIASES: Readonly<Record<string, string>> = {
  checkouttransfer: 'transfer',
  webhookconfig: 'webhook',
};

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

/** Schemas for which an empty string is a value (to refuse), not absence: `?amount=` must not mean "all". */
export const emptyIsAValue = z.registry();

function keepsEmpty(schema: unknown): boolean {
  for (let current = schema; ; current = defOf(current).innerType) {
    if (emptyIsAValue.has(current as z.ZodType)) return true;
    if (defOf(current).innerType === undefined) return false;
  }
}

function defOf(schema: unknown): Def {
  return (schema as z.core.$ZodType)._zod.def as Def;
}

/** Strips wrappers that do not change the shape of the value. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (
      def.type === 'optional' ||
      def.type === 'nullable' ||
      def.type === 'default' ||
      def.type === 'prefault' ||
      def.type === 'readonly'
    ) {
      current = def.innerType;
    } else if (def.type === 'pipe') {
      current = def.in;
    } else if (def.type === 'lazy') {
      current = (def.getter as () => unknown)();
    } else {
      return current;
    }
  }
}

function bindObject(shape: Record<string, unknown>, value: Record<string, unknown>): Record<string, unknown> {
  const byLowerName = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]));
  const result: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const lower = key.toLowerCase();
    const name = byLowerName.get(lower) ?? byLowerName.get(ALIASES[lower] ?? '');
    if (name === undefined) continue;
    const bound = bindInput(shape[name], raw);
    // The canonical spelling wins over an alias if a client sends both.
    if (bound !== undefined && (result[name] === undefined || key === name)) result[name] = bound;
  }
  return result;
}

export function bindInput(schema: unknown, value: unknown): unknown {
  if (value === null || value === undefined || (value === '' && !keepsEmpty(schema))) return undefined;
  if (typeof value === 'string' && value.includes('\u0000')) {
    throw new ApiError('ValidationError', { message: 'Text must not contain NUL characters' });
  }
  const target = unwrap(schema);
  const def = defOf(target);
  switch (def.type) {
    case 'object':
      return typeof value === 'object' && !Array.isArray(value)
        ? bindObject(def.shape as Record<string, unknown>, value as Record<string, unknown>)
        : value;
    case 'record':
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .map(([k, v]) => [bindInput(def.keyType, k) ?? k, bindInput(def.valueType, v)] as const)
          .filter(([, v]) => v !== undefined),
      );
    case 'array':
      return Array.isArray(value) ? value.map((item) => bindInput(def.element, item)) : value;
    case 'number':
    case 'int':
      if (typeof value === 'string') {
        const text = value.trim();
        return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : value;
      }
      return value;
    case 'boolean':
      if (typeof value === 'string') {
        const text = value.trim().toLowerCase();
        return text === 'true' ? true : text === 'false' ? false : value;
      }
      return value;
    case 'enum': {
      const options = Object.values(def.entries as Record<string, string>);
      if (typeof value === 'number' && Number.isInteger(value)) return options[value] ?? value;
      if (typeof value === 'string') {
        return options.find((o) => o.toLowerCase() === value.toLowerCase()) ?? value;
      }
      return value;
    }
    default:
      return value;
  }
}

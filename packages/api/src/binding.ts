import { ApiError, containsCardNumber, isGatewayId } from '@gateway/core';
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
 * Text with a NUL character or a lone surrogate is refused here: no database column can hold it; so is free text that
 * holds a card number (refuseCardNumber).
 */

const ALIASES: Readonly<Record<string, string>> = {
  checkouttransfer: 'transfer',
  webhookconfig: 'webhook',
};

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

/** Schemas for which an empty string is a value (to refuse), not absence: `?amount=` must not mean "all". */
export const emptyIsAValue = z.registry();

/**
 * Schemas whose text is not free text, so may hold digits that look like a card number: card
 * numbers themselves, secrets stored sealed or hashed, base64 data, and CSV checked line by line
 * by its own reader. Everything else a client sends is refused when it holds a card number.
 */
export const notFreeText = z.registry();

/** Whether `schema`, or a schema it wraps, is in `registry` (register before `.optional()`/`.meta()`, or after both). */
function registered(registry: z.core.$ZodRegistry, schema: unknown): boolean {
  for (let current = schema; current !== undefined; ) {
    if (registry.has(current as z.ZodType)) return true;
    const def = defOf(current);
    current = def.type === 'pipe' ? def.in : def.innerType;
  }
  return false;
}

/**
 * Refuses text that holds a card number (core's containsCardNumber: a known scheme's prefix,
 * length and Luhn, in any disguise: separators, invisible characters, other scripts' digits, URL
 * and HTML escapes), naming the field but never quoting it: card numbers are taken in card fields
 * only, and free text is stored, searched, logged and answered in clear.
 */
export function refuseCardNumber(field: string, text: string): void {
  if (!containsCardNumber(text)) return;
  const reason = 'Looks like a card number: send card numbers only in card fields';
  throw new ApiError('ValidationError', { message: `${field}: ${reason}`, details: { [field]: reason } });
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

/** Each object schema's keys by their lower-case spelling, worked out once per shape. */
const lowerNamesOf = new WeakMap<object, Map<string, string>>();

function byLowerNameOf(shape: Record<string, unknown>): Map<string, string> {
  let names = lowerNamesOf.get(shape);
  if (!names) {
    names = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]));
    lowerNamesOf.set(shape, names);
  }
  return names;
}

function bindObject(shape: Record<string, unknown>, value: Record<string, unknown>, at: Place): Record<string, unknown> {
  const byLowerName = byLowerNameOf(shape);
  const result: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const lower = key.toLowerCase();
    const name = byLowerName.get(lower) ?? byLowerName.get(ALIASES[lower] ?? '');
    if (name === undefined) continue;
    const bound = bindInput(shape[name], raw, { ...at, path: at.path ? `${at.path}.${name}` : name, idField: name.endsWith('Id') });
    // The canonical spelling wins over an alias if a client sends both.
    if (bound !== undefined && (result[name] === undefined || key === name)) result[name] = bound;
  }
  return result;
}

/** Half of a UTF-16 pair without its other half (JSON's `"\ud800"`): PostgreSQL refuses it in text and JSON columns. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where a value is in the input (`order.items.0.description`), and whether its text is free text. */
interface Place {
  path: string;
  freeText: boolean;
  /**
   * A field named `…Id`. One that holds exactly an id of the gateway's shape is not free text: the
   * hex of about one random id in 1,000–3,000 holds a digit run that passes as a card number, and
   * refusing `paymentMethodId=<an id the gateway gave out>` would be a bug the merchant cannot avoid.
   */
  idField?: boolean;
}

export function bindInput(schema: unknown, value: unknown, place: Place = { path: '', freeText: true }): unknown {
  if (value === null || value === undefined || (value === '' && !registered(emptyIsAValue, schema))) return undefined;
  const at = { ...place, freeText: place.freeText && !registered(notFreeText, schema) };
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new ApiError('ValidationError', { message: 'Text must not contain NUL characters' });
    if (LONE_SURROGATE.test(value)) throw new ApiError('ValidationError', { message: 'Text must be valid Unicode (a lone surrogate)' });
    if (at.freeText && !(at.idField && isGatewayId(value))) refuseCardNumber(at.path || '(body)', value);
  }
  const target = unwrap(schema);
  const def = defOf(target);
  switch (def.type) {
    case 'object':
      return typeof value === 'object' && !Array.isArray(value)
        ? bindObject(def.shape as Record<string, unknown>, value as Record<string, unknown>, at)
        : value;
    case 'record':
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          // A key is named by its record only: a key that is a card number must not be echoed.
          .map(
            ([k, v]) =>
              [
                bindInput(def.keyType, k, { ...at, path: `${at.path} (a key)` }) ?? k,
                bindInput(def.valueType, v, { ...at, path: `${at.path}.${k}` }),
              ] as const,
          )
          .filter(([, v]) => v !== undefined),
      );
    case 'array':
      return Array.isArray(value) ? value.map((item, i) => bindInput(def.element, item, { ...at, path: `${at.path}.${i}` })) : value;
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

/**
 * The operations of a gateway's /openapi.json, with their inputs' JSON schemas resolved: what the
 * free-text and fuzz tests drive every operation from, so a new operation or field is covered
 * the day it is added.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  required?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** The path template, e.g. /charge/{chargeId}. */
  path: string;
  pathParameters: Array<{ name: string; schema: JsonSchema }>;
  queryParameters: Array<{ name: string; schema: JsonSchema; required: boolean }>;
  /** The JSON body's schema, with every $ref resolved; undefined when it takes none. */
  body: JsonSchema | undefined;
}

interface Document {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Replaces every $ref by the schema it names (input schemas are not recursive). */
function resolve(schema: JsonSchema, doc: Document, depth = 0): JsonSchema {
  if (depth > 20) throw new Error('The OpenAPI document has a recursive input schema');
  const next = (s: JsonSchema) => resolve(s, doc, depth + 1);
  if (schema.$ref) {
    const named = doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')];
    if (!named) throw new Error(`Unknown schema ${schema.$ref}`);
    return next(named);
  }
  const mapped: JsonSchema = { ...schema };
  if (schema.properties) mapped.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, next(v)]));
  if (typeof schema.additionalProperties === 'object') mapped.additionalProperties = next(schema.additionalProperties);
  if (schema.items) mapped.items = next(schema.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (schema[key]) mapped[key] = schema[key].map(next);
  return mapped;
}

export async function openApiOperations(baseUrl: string): Promise<Operation[]> {
  const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Document;
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const body = operation.requestBody?.content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: resolve(p.schema ?? {}, doc) })),
        queryParameters: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(p.schema ?? {}, doc), required: p.required === true })),
        body: body && resolve(body, doc),
      };
    }),
  );
}

/** Whether a schema takes text (alone or among other types). */
export function takesText(schema: JsonSchema): boolean {
  const types = [schema.type ?? []].flat();
  return types.includes('string') || [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(takesText);
}

/**
 * Every place of a body schema that takes text, as the path of keys leading to it (`k` standing
 * for any key of a dictionary, `0` for the first item of a list) and whether it is a dictionary's
 * key rather than a value.
 */
export function textPlaces(schema: JsonSchema, path: string[] = []): Array<{ path: string[]; key: boolean }> {
  const places: Array<{ path: string[]; key: boolean }> = [];
  if (takesText(schema) && path.length > 0) places.push({ path, key: false });
  for (const [name, property] of Object.entries(schema.properties ?? {})) places.push(...textPlaces(property, [...path, name]));
  if (typeof schema.additionalProperties === 'object') {
    places.push({ path: [...path, 'k'], key: true });
    places.push(...textPlaces(schema.additionalProperties, [...path, 'k']));
  }
  if (schema.items) places.push(...textPlaces(schema.items, [...path, '0']));
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    places.push(...textPlaces(member, path).filter((place) => place.path.length > path.length));
  }
  return places;
}

/** An object with `value` at `path` (a list for `0`, an object otherwise); as a key for a dictionary's key. */
export function placed(path: string[], value: string, key = false): unknown {
  const [first, ...rest] = path;
  if (first === undefined) return value;
  if (key && rest.length === 0) return { [value]: 'x' };
  const inner = placed(rest, value, key);
  return first === '0' ? [inner] : { [first]: inner };
}

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Holds HTTP exchanges to an OpenAPI 3.1 description: a request body, its query parameters and an
 * answer are checked against the operation's schemas with ajv. Compiled schemas are cached per
 * description, so many fakes in one test process compile each schema once.
 */
export interface ContractValidator {
  /** The operation's path template for a concrete path (`/payments/ABC/captures` → `/payments/{paymentPspReference}/captures`), if described. */
  operation(method: string, path: string): string | undefined;
  /** Problems with a request to a described operation (empty when it conforms). */
  request(method: string, template: string, exchange: { body?: unknown; query?: Record<string, string> }): string[];
  /** Problems with an answer to a described operation (empty when it conforms). */
  answer(method: string, template: string, status: number, body: unknown): string[];
  /** Compiles an operation's request and success schemas now rather than on its first call. */
  warm(method: string, template: string): void;
}

type Json = Record<string, unknown>;

interface Operation {
  parameters?: Json[];
  requestBody?: Json;
  responses?: Record<string, Json>;
}

const validators = new WeakMap<object, ContractValidator>();

export function contractValidator(description: Record<string, unknown>): ContractValidator {
  const known = validators.get(description);
  if (known) return known;
  const validator = createValidator(description);
  validators.set(description, validator);
  return validator;
}

function createValidator(description: Record<string, unknown>): ContractValidator {
  // The description's own keywords (x-*, example, discriminator) are annotations here: not strict.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const format of ['int32', 'int64']) ajv.addFormat(format, { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addSchema({ $id: 'description', components: description.components });

  const paths = description.paths as Record<string, Record<string, Operation>>;
  const templates = Object.keys(paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
  }));
  const compiled = new Map<string, ValidateFunction>();

  const resolve = (node: Json | undefined): Json | undefined => {
    const ref = node?.$ref;
    if (typeof ref !== 'string') return node;
    return resolve(
      ref
        .split('/')
        .slice(1)
        .reduce<Json | undefined>((at, key) => at?.[key] as Json | undefined, description),
    );
  };
  const compile = (key: string, schema: Json): ValidateFunction => {
    let check = compiled.get(key);
    if (!check) {
      check = ajv.compile(rewriteRefs(schema));
      compiled.set(key, check);
    }
    return check;
  };
  const validate = (key: string, schema: Json, value: unknown): string[] => {
    const check = compile(key, schema);
    if (check(value)) return [];
    return (check.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  };
  const jsonSchema = (content: unknown): Json | undefined =>
    (resolve(content as Json)?.content as Json | undefined)?.['application/json'] as Json | undefined;
  const operationOf = (method: string, template: string): Operation | undefined => paths[template]?.[method.toLowerCase()];

  return {
    operation(method, path) {
      return templates.find((t) => t.pattern.test(path) && operationOf(method, t.template))?.template;
    },

    request(method, template, { body, query = {} }) {
      const operation = operationOf(method, template);
      if (!operation) return [`${method} ${template} is not in the description`];
      const problems: string[] = [];
      for (const parameter of (operation.parameters ?? []).map((p) => resolve(p) ?? {})) {
        if (parameter.in !== 'query') continue;
        const name = String(parameter.name);
        const value = query[name];
        if (value === undefined) {
          if (parameter.required) problems.push(`query parameter ${name} is required`);
          continue;
        }
        const schema = (parameter.schema as Json | undefined) ?? {};
        problems.push(...validate(`${method} ${template} ?${name}`, schema, value).map((p) => `query ${name}: ${p}`));
      }
      for (const name of Object.keys(query)) {
        const declared = (operation.parameters ?? []).some((p) => resolve(p)?.name === name && resolve(p)?.in === 'query');
        if (!declared) problems.push(`query parameter ${name} is not in the description`);
      }
      const media = jsonSchema(operation.requestBody);
      if (body === undefined) {
        if (resolve(operation.requestBody)?.required) problems.push('a request body is required');
      } else if (!media?.schema) {
        problems.push('the operation takes no JSON body');
      } else {
        const schema = media.schema as Json;
        problems.push(...validate(`${method} ${template} request`, schema, body));
        problems.push(...undescribedFields(resolve(schema), body));
      }
      return problems;
    },

    answer(method, template, status, body) {
      const operation = operationOf(method, template);
      if (!operation) return [`${method} ${template} is not in the description`];
      const declared = operation.responses?.[String(status)] ?? operation.responses?.default;
      if (!declared) {
        // Adyen answers errors the description does not list for every call (401 on a GET, say):
        // those are held to its error schema; an undeclared success is a fault of the fake.
        if (status < 400) return [`status ${status} is not an answer of ${method} ${template}`];
        const error = (description.components as Json).schemas as Json;
        return error.ServiceError ? validate('ServiceError', { $ref: '#/components/schemas/ServiceError' }, body) : [];
      }
      const media = jsonSchema(declared);
      if (!media?.schema) return body === undefined ? [] : [`status ${status} of ${method} ${template} has no body`];
      return validate(`${method} ${template} ${status}`, media.schema as Json, body);
    },

    warm(method, template) {
      const operation = operationOf(method, template);
      const request = jsonSchema(operation?.requestBody)?.schema as Json | undefined;
      if (request) compile(`${method} ${template} request`, request);
      for (const [status, declared] of Object.entries(operation?.responses ?? {})) {
        const answer = jsonSchema(declared)?.schema as Json | undefined;
        if (answer && status.startsWith('2')) compile(`${method} ${template} ${status}`, answer);
      }
    },
  };
}

/**
 * Fields a request carries at its top level that the description does not name. The description
 * lets most objects take extra properties, but a field it does not know is a mistake in the
 * connector (a misspelt name would be silently ignored), so the fakes refuse it.
 */
function undescribedFields(schema: Json | undefined, body: unknown): string[] {
  const properties = schema?.properties as Json | undefined;
  if (!properties || typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  return Object.keys(body)
    .filter((name) => !Object.hasOwn(properties, name))
    .map((name) => `/${name} is not in the description`);
}

/** `#/components/…` references point into the schema registered as `description`. */
function rewriteRefs(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"description#/')) as Json;
}

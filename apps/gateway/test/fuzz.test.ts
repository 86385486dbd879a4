import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';
import { openApiOperations, type JsonSchema, type Operation } from './openapi-operations';

/**
 * Property: whatever a client sends to any operation of /openapi.json (bodies, query strings,
 * path parameters, headers), the answer is never a 5xx, and every error is the API's error body.
 * Inputs are generated from each operation's own schemas (so many get past validation into the
 * services) mixed with hostile values: huge and non-finite numbers, wrong types, deep nesting,
 * unicode, long strings, NaN-ish text, lists where one value is expected.
 * FUZZ_RUNS (default 15) sets the runs per operation, FUZZ_SEED replays a failure.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

let t: TestGateway;
let a: TestAccount;
let operations: Operation[];

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  operations = await openApiOperations(t.url);
});
afterAll(() => t.close());

const HOSTILE_NUMBERS = [
  1e308,
  -1e308,
  9999999999999999,
  -9999999999999999,
  2 ** 53,
  2 ** 31,
  -(2 ** 31) - 1,
  0,
  -0,
  -1,
  0.1 + 0.2,
  5e-324,
  123.456789,
];
const HOSTILE_TEXT = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1e999',
  '0x10',
  '9999999999999999',
  '99999999999999999999.999',
  '-0',
  '1,5',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '💳€\u202e\uFEFF',
  '\uD800',
  '%00',
  '../../etc/passwd',
  '\'; DROP TABLE "Charge"; --',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '2024-99-99',
  '+275760-09-13T00:00:00Z',
  'x'.repeat(5000),
];

/** Arrays and objects nested `depth` levels deep around a value. */
const nested = (depth: number) =>
  fc.constantFrom('[', '{"a":').map((open) => JSON.parse(`${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`));

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_TEXT),
  fc.constantFrom(null, true, false, [], {}),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
  nested(20),
);

/** A value of `schema`'s shape (mostly), or a hostile one. */
function valueOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: shaped(schema, depth), weight: 3 }, { arbitrary: hostile, weight: 1 });
}

function shaped(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return hostile;
  const members = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (members.length > 0) return fc.oneof(...members.map((member) => shaped(member, depth + 1)));
  if (schema.allOf?.[0]) return shaped(schema.allOf[0], depth);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = [schema.type ?? 'string'].flat()[0];
  switch (type) {
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, valueOf(v, depth + 1)]));
      const record = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      return fc
        .tuple(
          fc.record(properties, { requiredKeys: [] }),
          record ? fc.dictionary(fc.string({ maxLength: 20 }), valueOf(record, depth + 1), { maxKeys: 3 }) : fc.constant({}),
        )
        .map(([fields, extra]) => ({ ...extra, ...fields }));
    }
    case 'array':
      return fc.array(valueOf(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }), fc.constantFrom(...HOSTILE_NUMBERS));
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(...HOSTILE_NUMBERS));
    case 'boolean':
      return fc.boolean();
    default:
      return fc.oneof(
        fc.string({ maxLength: Math.min(schema.maxLength ?? 30, 60) }),
        fc.constantFrom(
          'AUD',
          'USD',
          'JPY',
          'AUS',
          'VISA',
          '15.5',
          '2026-11-23T10:00:00Z',
          '12/30',
          'https://example.com/hook',
          'a@example.com',
        ),
      );
  }
}

/** Text for a query string or a path: the value as a client would write it there. */
const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** A path segment; text with a lone surrogate becomes the invalid UTF-8 a careless client would send. */
function segment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** Header values fetch can send (Latin-1, no line breaks). */
const headerText = fc.oneof(
  fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom('x'.repeat(4000), 'null', '', '4111 1111 1111 1111'),
);

interface Request {
  path: string;
  body: string | undefined;
  headers: Record<string, string>;
}

function requests(operation: Operation): fc.Arbitrary<Request> {
  const pathValues = fc.tuple(...operation.pathParameters.map((p) => fc.oneof(valueOf(p.schema).map(asText), fc.constant('no-such-id'))));
  const query = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...operation.queryParameters.map((p) => p.name), 'unknown'),
        fc.constantFrom(...operation.queryParameters.map((p) => `${p.name}[]`), 'Limit'),
      ),
      fc.oneof(...operation.queryParameters.map((p) => valueOf(p.schema).map(asText)), fc.constantFrom(...HOSTILE_TEXT)),
    ),
    { maxLength: 4 },
  );
  const body = operation.body
    ? fc.oneof(
        { arbitrary: valueOf(operation.body).map((value) => JSON.stringify(value)), weight: 8 },
        {
          arbitrary: fc.constantFrom(
            '{',
            '[',
            'null',
            '"text"',
            '1e999',
            `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
            '{"amount":1,"amount":{',
          ),
          weight: 1,
        },
      )
    : fc.constant(undefined);
  const headers = fc.record(
    {
      'x-secretkey': fc.oneof({ arbitrary: fc.constant(a.secretKey), weight: 6 }, { arbitrary: headerText, weight: 1 }),
      'x-publickey': fc.oneof({ arbitrary: fc.constant(a.publicKey), weight: 6 }, { arbitrary: headerText, weight: 1 }),
      'idempotency-key': headerText,
      'content-type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-8',
      ),
      providerId: headerText,
    },
    { requiredKeys: ['x-secretkey', 'x-publickey'] },
  );
  return fc.record({ pathValues, query, body, headers }).map(({ pathValues, query, body, headers }) => {
    let path = operation.path;
    operation.pathParameters.forEach((p, i) => (path = path.replace(`{${p.name}}`, segment(pathValues[i] ?? ''))));
    const search = new URLSearchParams(query).toString();
    return { path: search ? `${path}?${search}` : path, body, headers };
  });
}

async function send(method: string, request: Request) {
  const response = await fetch(`${t.url}${request.path}`, { method, headers: request.headers, body: request.body });
  return { status: response.status, text: await response.text() };
}

describe('fuzzing every operation of /openapi.json', () => {
  it(
    'never answers a 5xx, and answers every error with the API error body',
    async () => {
      expect(operations.length).toBeGreaterThan(60);
      let sent = 0;
      // Operations side by side (a few at a time), the runs of each one after the other.
      const queue = [...operations];
      const worker = async () => {
        for (let operation = queue.shift(); operation; operation = queue.shift()) {
          const method = operation.method;
          await fc.assert(
            fc.asyncProperty(requests(operation), async (request) => {
              const withBody = method === 'GET' || method === 'DELETE' ? { ...request, body: undefined } : request;
              const { status, text } = await send(method, withBody);
              sent += 1;
              const where = `${method} ${request.path.slice(0, 200)} ${String(withBody.body).slice(0, 200)}`;
              expect(status, where).toBeLessThan(500);
              if (status >= 400) {
                const error = JSON.parse(text) as { code: unknown; message: unknown };
                expect(Number.isInteger(error.code) && (error.code as number) <= 107, where).toBe(true);
                expect(typeof error.message, where).toBe('string');
              }
            }),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          );
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      expect(sent).toBeGreaterThanOrEqual(operations.length * RUNS);
      // A 5xx is logged at error level: there must be none.
      expect(t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
    },
    RUNS * 16_000,
  );
});

import { appRouter } from '@gateway/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestGateway, type TestGateway } from './harness';

/**
 * Whatever `input` a client sends to any procedure of /trpc (the dashboard's API, open to anyone
 * for the public ones and the sign-in), in a GET query, a POST body or a batch, signed in or not,
 * the answer is a 4xx in tRPC's error shape carrying the API error body, never a 5xx.
 */
let t: TestGateway;
let cookie: string;

beforeAll(async () => {
  t = await startTestGateway();
  const a = await createAccount(t);
  await t.gateway.services.staff.create({ id: a.accountId }, { email: 'ann@example.com', name: 'Ann', password: 'correct horse battery' });
  const signIn = await fetch(`${t.url}/trpc/staff.signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ann@example.com', password: 'correct horse battery' }),
  });
  cookie = signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  expect(cookie).toMatch(/=./);
});
afterAll(() => t.close());

const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** Input texts no procedure accepts (none is valid JSON of any procedure's input). */
const ODD_INPUTS = [
  '{',
  '[',
  '{"a":1,"a":{',
  '1e999',
  'NaN',
  '"\\uD800"',
  '\u0000',
  deep(1300),
  `{"0":${deep(1300)}}`,
  `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
];

/** Query strings a URL-encoding helper would never make: broken percent-escapes. */
const RAW_QUERIES = ['input=%7B', 'input=%E0%A4%A', 'input=%ED%A0%80', 'input=%', 'batch=1&input=%E0%A4%A'];

/** The procedures, but the sign-out: it takes no input, so any input signs the session out. */
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([path]) => path !== 'staff.signOut')
  .map(([path, procedure]) => ({ path, type: procedure._def.type }));

interface Call {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
}

function callsOf(path: string, type: string): Call[] {
  const calls: Call[] = [];
  for (const input of ODD_INPUTS) {
    if (type === 'query') {
      // A URL this long is refused (431) before it reaches /trpc.
      if (input.length > 5000) continue;
      calls.push({ method: 'GET', url: `/trpc/${path}?input=${encodeURIComponent(input)}` });
      calls.push({ method: 'GET', url: `/trpc/${path}?batch=1&input=${encodeURIComponent(`{"0":${input}}`)}` });
    } else {
      calls.push({ method: 'POST', url: `/trpc/${path}`, body: input });
      calls.push({ method: 'POST', url: `/trpc/${path}?batch=1`, body: `{"0":${input}}` });
    }
  }
  if (type === 'query') for (const query of RAW_QUERIES) calls.push({ method: 'GET', url: `/trpc/${path}?${query}` });
  return calls;
}

describe('odd input to every tRPC procedure', () => {
  it('answers 4xx with the API error in tRPC’s error shape, never a 5xx, signed in or not', async () => {
    expect(procedures.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const queue = procedures.flatMap(({ path, type }) => callsOf(path, type)).flatMap((call) => [{ ...call, cookie }, call]);
    const worker = async () => {
      for (let call = queue.shift(); call; call = queue.shift()) {
        const response = await fetch(`${t.url}${call.url}`, {
          method: call.method,
          headers: {
            ...(call.body !== undefined && { 'content-type': 'application/json' }),
            ...('cookie' in call && { cookie: call.cookie }),
          },
          body: call.body,
        });
        const text = await response.text();
        const where = `${call.method} ${call.url.slice(0, 120)} ${call.body?.slice(0, 60) ?? ''} → ${response.status}`;
        if (response.status >= 500 || response.status < 400) failures.push(where);
        const answer = JSON.parse(text) as unknown;
        const errors = (Array.isArray(answer) ? answer : [answer]) as Array<{ error?: { data?: { apiError?: { code?: number } } } }>;
        for (const { error } of errors) {
          const code = error?.data?.apiError?.code;
          if (!(typeof code === 'number' && code <= 107)) failures.push(`${where}: ${text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(failures).toEqual([]);
    // A 5xx is logged at error level: there must be none.
    expect(t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
  }, 120_000);

  it('refuses input nested deeper than the REST body limit before parsing, as the REST API does', async () => {
    const response = await fetch(`${t.url}/trpc/paymentLink.getPublic?input=${encodeURIComponent(`{"paymentLinkId":${deep(40)}}`)}`);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { data: { code: string; apiError: { code: number; message: string } } } };
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(error.data.apiError).toMatchObject({ code: 90, message: expect.stringContaining('32 levels deep') as string });
  });
});

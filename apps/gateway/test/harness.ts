import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { expect, inject } from 'vitest';
import type { NewProvider } from '@gateway/api';
import type { Account } from '@gateway/db';
import { newMasterKey, parseKeyring } from '@gateway/core';
import { TEST_CARDS } from '@gateway/providers';
import { ADYEN_TEST_CARDS, CHECKOUT_TEST_CARDS, NAB_TEST_CARD, STRIPE_TEST_CARDS } from '@gateway/provider-fakes';
import { createLogger } from '../src/logger';
import { startGateway, type Gateway, type GatewayOptions } from '../src/gateway';
import { withServer } from './global-setup';

export interface TestGateway {
  gateway: Gateway;
  url: string;
  /** Every log line the gateway wrote, as text. */
  logs: string[];
  /** Its PostgreSQL database (for pg_dump); undefined on the embedded one. */
  databaseUrl: string | undefined;
  /** The embedded database's folder, if it has one (else in memory). */
  dataDir: string | undefined;
  close(): Promise<void>;
}

/**
 * A new PostgreSQL database for one test gateway: gateways share nothing, not even background
 * jobs (a worker would run another test's jobs with its own simulator). Undefined = embedded.
 */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const serverUrl = inject('databaseServerUrl');
  if (!serverUrl) return undefined;
  const name = `${inject('databasePrefix')}_${randomBytes(4).toString('hex')}`;
  await withServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** The card numbers tests send (the simulator's and the fake providers' test cards): no table or log line may hold one. */
const TEST_CARD_NUMBERS = [...TEST_CARDS, ...ADYEN_TEST_CARDS, ...STRIPE_TEST_CARDS, ...CHECKOUT_TEST_CARDS]
  .map((card) => card.number)
  .concat(NAB_TEST_CARD);

/**
 * A gateway on a random port, on a database of its own (PostgreSQL when the run has a server,
 * else in-memory embedded), with a random vault master key; `options` override the defaults.
 * Closing it fails if any table or log line holds a test card number in clear, whatever the
 * test did: every test file is a card-data scan too.
 */
export async function startTestGateway(options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const database = await createTestDatabase();
  const gateway = await startGateway({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: database?.url,
    seedDemo: false,
    logger: createLogger('debug', sink),
    keyring: parseKeyring(`test:${newMasterKey()}`),
    ccvRetentionSeconds: 300,
    // Test webhook receivers listen on 127.0.0.1.
    webhookAllowPrivate: true,
    metrics: { port: 0, host: '127.0.0.1' },
    ...options,
  });
  const t: TestGateway = {
    gateway,
    url: gateway.url,
    logs,
    databaseUrl: database?.url,
    dataDir: options.dataDir,
    close: async () => {
      try {
        await expectNoCardData(t, [], TEST_CARD_NUMBERS, []);
      } finally {
        await gateway.close();
        await database?.drop();
      }
    },
  };
  return t;
}

/** Every row of every table of the gateway's database, as JSON text: to look for what must not be stored. */
export async function dumpTables(t: TestGateway): Promise<Array<{ table: string; rows: string[] }>> {
  const prisma = t.gateway.database.prisma;
  const tables = await prisma.$queryRawUnsafe<Array<{ table_name: string }>>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const dumps = [];
  for (const { table_name: table } of tables) {
    const rows = await prisma.$queryRawUnsafe<Array<{ row: string }>>(`SELECT row_to_json(x)::text AS row FROM "${table}" x`);
    dumps.push({ table, rows: rows.map((r) => r.row) });
  }
  return dumps;
}

/** Which of these card numbers and CCVs `text` holds; a CCV is short, so only as a value of its own. */
export function cardDataIn(text: string, cardNumbers: string[], ccvs: string[]): string[] {
  const found = cardNumbers.filter((number) => text.includes(number));
  for (const ccv of ccvs) if (new RegExp(`["=:]\\s*"?${ccv}"?[,}&\\s]`).test(text)) found.push(`ccv ${ccv}`);
  return found;
}

/** Fails unless no table, log line or kept answer holds one of these card numbers or CCVs. */
export async function expectNoCardData(t: TestGateway, answers: string[], cardNumbers: string[], ccvs: string[]): Promise<void> {
  const leaks = (text: string) => cardDataIn(text, cardNumbers, ccvs);
  for (const { table, rows } of await dumpTables(t)) expect(leaks(rows.join('\n')), table).toEqual([]);
  expect(leaks(t.logs.join('')), 'logs').toEqual([]);
  expect(leaks(answers.join('\n')), 'answers').toEqual([]);
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** A REST client for one account's secret key. */
export function client(baseUrl: string, secretKey?: string) {
  async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(secretKey ? { 'x-secretkey': secretKey } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
  return {
    get: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>('POST', path, body ?? {}, headers),
    put: <T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) =>
      call<T>('PUT', path, body ?? {}, headers),
    delete: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) => call<T>('DELETE', path, undefined, headers),
  };
}

export type Client = ReturnType<typeof client>;

export interface TrpcAnswer<T> {
  status: number;
  data: T;
  /** The API error body, when the call was refused. */
  apiError?: { code: number; message: string; details: Record<string, string> | null };
}

/**
 * A staff member of the account, signed in, calling the dashboard's tRPC procedures as its pages
 * do (a query by GET, a mutation by POST with a JSON body, the session cookie).
 */
export async function staffOf(t: TestGateway, accountId: string) {
  const email = `staff-${accountId}@example.com`;
  const password = 'correct horse battery staple';
  await t.gateway.services.staff.create({ id: accountId }, { email, name: 'Staff', password });
  const signIn = await fetch(`${t.url}/trpc/staff.signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  async function call<T>(procedure: string, input: unknown, method: 'GET' | 'POST'): Promise<TrpcAnswer<T>> {
    const query = method === 'GET' ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
    const response = await fetch(`${t.url}/trpc/${procedure}${query}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(input) : undefined,
    });
    const body = (await response.json()) as { result?: { data: T }; error?: { data: { apiError: TrpcAnswer<T>['apiError'] } } };
    return { status: response.status, data: body.result?.data as T, apiError: body.error?.data.apiError };
  }
  return {
    query: <T = Record<string, unknown>>(procedure: string, input?: unknown) => call<T>(procedure, input, 'GET'),
    mutate: <T = Record<string, unknown>>(procedure: string, input?: unknown) => call<T>(procedure, input ?? {}, 'POST'),
  };
}

/** The same client, keeping every answer's body as text in `answers` (for scans of what answers hold). */
export function recording(api: Client, answers: string[]): Client {
  const keep = async <T>(response: Promise<ApiResponse<T>>) => {
    const answer = await response;
    answers.push(JSON.stringify(answer.body));
    return answer;
  };
  return {
    get: (path, headers) => keep(api.get(path, headers)),
    post: (path, body, headers) => keep(api.post(path, body, headers)),
    put: (path, body, headers) => keep(api.put(path, body, headers)),
    delete: (path, headers) => keep(api.delete(path, headers)),
  };
}

export const CHEAP_DOMESTIC: NewProvider = {
  type: 'dummy',
  name: 'Cheap domestic',
  currency: 'AUD',
  country: 'AUS',
  latency: { minMs: 0, maxMs: 0 },
  timeoutMs: 400,
  fees: [
    { isInternationalCard: false, transactionCost: '0.10', transactionPercentage: '1' },
    { isInternationalCard: true, transactionCost: '0.30', transactionPercentage: '3' },
  ],
};

export const CHEAP_INTERNATIONAL: NewProvider = {
  type: 'dummy',
  name: 'Cheap international',
  currency: 'AUD',
  country: 'AUS',
  latency: { minMs: 0, maxMs: 0 },
  timeoutMs: 400,
  fees: [
    { isInternationalCard: false, transactionCost: '0.20', transactionPercentage: '2' },
    { isInternationalCard: true, transactionCost: '0', transactionPercentage: '2' },
  ],
};

export interface TestAccount {
  accountId: string;
  secretKey: string;
  publicKey: string;
  providerIds: string[];
  api: Client;
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** `npm run -s account -- …`, the operators' command for merchant accounts, in a child process. */
export function accountCommand(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', 'account', '--', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What the account command needs to reach a test gateway's database; undefined for an in-memory one. */
function commandEnv(t: TestGateway): Record<string, string> | undefined {
  if (t.databaseUrl) return { DATABASE_URL: t.databaseUrl };
  return t.dataDir ? { DATABASE_URL: '', GATEWAY_DATA_DIR: t.dataDir } : undefined;
}

/**
 * A new account with its own providers: tests never see each other's data. `throughCommand`
 * creates it as operators do, with `npm run account` (slower: a process of its own); an
 * in-memory database is this process's alone, so there the services create it.
 */
export async function createAccount(
  t: TestGateway,
  providers: NewProvider[] = [CHEAP_DOMESTIC, CHEAP_INTERNATIONAL],
  { throughCommand = false } = {},
): Promise<TestAccount> {
  const { services } = t.gateway;
  const env = throughCommand ? commandEnv(t) : undefined;
  let account: Account;
  let secretKey: string;
  if (env) {
    const { code, stdout, stderr } = await accountCommand(env, 'create', '--name', `Test ${Date.now()}`);
    expect(code, stderr).toBe(0);
    const keys = JSON.parse(stdout) as { accountId: string; secretKey: string };
    account = await t.gateway.database.prisma.account.findUniqueOrThrow({ where: { id: keys.accountId } });
    secretKey = keys.secretKey;
  } else {
    ({ account, secretKey } = await services.accounts.create(`Test ${Date.now()}`));
  }
  const providerIds: string[] = [];
  for (const provider of providers) providerIds.push((await services.providers.create(account, provider)).id);
  return { accountId: account.id, secretKey, publicKey: account.publicKey, providerIds, api: client(t.url, secretKey) };
}

export const VISA = '4111111111111111';
export const VISA_AU = '4242424242424242';

export function card(cardNumber = VISA, extra: Record<string, unknown> = {}) {
  return { cardNumber, expiryDate: '12/30', ccv: '123', cardholder: 'Test Payer', ...extra };
}

/** What the simulated acquirer recorded for an attempt of a charge: the amount it was asked for (its minor units), and in what currency. */
export async function moneyAtAcquirer(t: TestGateway, chargeId: unknown, attempt = 1) {
  const response = await fetch(`${t.gateway.simulatorUrl}/v1/authorisations?idempotencyKey=${String(chargeId)}:${attempt}`);
  const { authorisations } = (await response.json()) as { authorisations: Array<{ amount: unknown; currency: string }> };
  return authorisations.map(({ amount, currency }) => ({ amount: String(amount), currency }));
}

/**
 * The simulated acquirer's own API, as a merchant's payment page (single-use tokens) or the
 * provider's dashboard (stored cards) would use it: for payment methods the merchant brings.
 */
export function acquirer(t: TestGateway) {
  async function call(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const response = await fetch(`${t.gateway.simulatorUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomBytes(8).toString('hex') },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const details = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2030, cvc: '468', cardholder: 'Brought Payer' });
  return {
    singleUseToken: async (number = VISA) => String((await call('POST', '/v1/single-use-tokens', { card: details(number) })).body.token),
    storedCard: async (number = VISA) =>
      String((await call('POST', '/v1/cards', { source: { type: 'card', card: details(number) } })).body.token),
    /** Whether the acquirer still keeps this stored card. */
    keeps: async (providerToken: string) => (await call('GET', `/v1/cards/${providerToken}`)).status === 200,
  };
}

/** An authentication a merchant ran with a 3-D Secure server of its own (externalThreeDsData): the payer authenticated, unless `changes` say otherwise. */
export const externalThreeDs = (changes: Record<string, string> = {}) => ({
  eci: '05',
  authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
  dsTransID: randomUUID(),
  threeDsVersion: '2.2.0',
  transStatus: 'Y',
  ...changes,
});

/** A browser's GET (or form POST) that does not follow redirects: its status, Location and body. */
export async function visit(url: string, form?: Record<string, string>) {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

/**
 * A payer through the simulated issuer's 3-D Secure challenge, as a browser goes: threeDsRedirectUrl
 * opened, `button` pressed on the issuer's page (its form posted), and the return followed to where
 * the gateway sends the browser last (the merchant's threeDSNotificationUrl).
 */
export async function authenticateAtSimulatedIssuer(threeDsRedirectUrl: string, button: 'complete' | 'fail' | 'cancel') {
  const toIssuer = await visit(threeDsRedirectUrl);
  expect(toIssuer.status).toBe(303);
  const issuerPage = await visit(toIssuer.location!);
  expect(issuerPage.status).toBe(200);
  const pressed = await visit(toIssuer.location!, { action: button });
  expect(pressed.status).toBe(303);
  const back = await visit(pressed.location!);
  expect(back.status).toBe(303);
  return { issuerPage: issuerPage.body, returnUrl: pressed.location!, landed: new URL(back.location!) };
}

/** Polls `check` until it holds; returns how long that took. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

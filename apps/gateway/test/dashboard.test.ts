import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, client, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

/** The dashboard's API: the core router over tRPC at /trpc, authorised by a staff session cookie. */
let t: TestGateway;
let a: TestAccount;
let other: TestAccount;
const password = 'correct horse battery staple';

interface TrpcAnswer<T> {
  status: number;
  data: T;
  error: { message: string; data: { apiError: { code: number; message: string } } } | undefined;
  setCookie: string[];
}

/** A browser of the dashboard: calls procedures as tRPC's http link does and keeps its cookie. */
function browser() {
  let cookie = '';
  async function call<T>(procedure: string, input: unknown, method: 'GET' | 'POST'): Promise<TrpcAnswer<T>> {
    const query = method === 'GET' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
    const response = await fetch(`${t.url}/trpc/${procedure}${query}`, {
      method,
      headers: { ...(cookie && { cookie }), ...(method === 'POST' && { 'content-type': 'application/json' }) },
      body: method === 'POST' ? JSON.stringify(input ?? {}) : undefined,
    });
    const setCookie = response.headers.getSetCookie();
    for (const header of setCookie) cookie = header.split(';')[0]?.endsWith('=') ? '' : (header.split(';')[0] ?? '');
    const body = (await response.json()) as { result?: { data: T }; error?: TrpcAnswer<T>['error'] };
    return { status: response.status, data: body.result?.data as T, error: body.error, setCookie };
  }
  return {
    query: <T = Record<string, unknown>>(procedure: string, input?: unknown) => call<T>(procedure, input, 'GET'),
    mutate: <T = Record<string, unknown>>(procedure: string, input?: unknown) => call<T>(procedure, input, 'POST'),
    get cookie() {
      return cookie;
    },
  };
}

async function signedIn(email: string) {
  const b = browser();
  expect((await b.mutate('staff.signIn', { email, password })).status).toBe(200);
  return b;
}

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  other = await createAccount(t);
  const { staff } = t.gateway.services;
  await staff.create({ id: a.accountId }, { email: 'Ann@Example.com', name: 'Ann', password });
  await staff.create({ id: other.accountId }, { email: 'bob@example.com', name: 'Bob', password });
  await staff.create({ id: other.accountId }, { email: 'carl@example.com', name: 'Carl', password });
});
afterAll(() => t.close());

describe('staff sign-in', () => {
  it('sets an http-only, SameSite=Lax session cookie whose token is stored only as a hash', async () => {
    const b = browser();
    const { status, data, setCookie } = await b.mutate('staff.signIn', { email: 'ann@example.com', password });
    expect(status).toBe(200);
    expect(data).toEqual({ email: 'ann@example.com', name: 'Ann', accountName: expect.any(String), defaultCurrency: 'AUD' });
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(/^gateway_session=[\w-]{43}; Expires=.+; Path=\/; HttpOnly; SameSite=Lax$/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(setCookie[0] ?? '')?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(11 * 3600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(12 * 3600_000);
    const token = b.cookie.split('=')[1] ?? '';
    const sessions = await t.gateway.database.prisma.$queryRawUnsafe<Array<{ row: string }>>(
      'SELECT row_to_json(s)::text AS row FROM "StaffSession" s',
    );
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.some((s) => s.row.includes(token))).toBe(false);
    const users = await t.gateway.database.prisma.$queryRawUnsafe<Array<{ row: string }>>(
      'SELECT row_to_json(u)::text AS row FROM "StaffUser" u',
    );
    expect(users.some((u) => u.row.includes(password))).toBe(false);
    expect(users.every((u) => /"passwordHash":"scrypt\$131072\$8\$1\$/.test(u.row))).toBe(true);
    expect((await b.query('staff.me')).data).toMatchObject({ email: 'ann@example.com', name: 'Ann' });
  });

  it('answers a wrong password and an unknown email alike, and sets no cookie', async () => {
    const wrongPassword = await browser().mutate('staff.signIn', { email: 'bob@example.com', password: 'nope' });
    const unknownEmail = await browser().mutate('staff.signIn', { email: 'nobody@example.com', password });
    for (const answer of [wrongPassword, unknownEmail]) {
      expect(answer.status).toBe(401);
      expect(answer.error?.message).toBe('Wrong email or password');
      expect(answer.setCookie).toEqual([]);
    }
  });

  it('stops guessing after five failures for an email, even with the right password', async () => {
    const b = browser();
    for (let i = 0; i < 5; i += 1)
      expect((await b.mutate('staff.signIn', { email: 'carl@example.com', password: `guess ${i}` })).status).toBe(401);
    const blocked = await b.mutate('staff.signIn', { email: 'carl@example.com', password });
    expect(blocked.status).toBe(429);
    expect(blocked.error?.data.apiError).toMatchObject({ code: 35 });
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const b = await signedIn('ann@example.com');
    const { setCookie } = await b.mutate('staff.signOut');
    expect(setCookie[0]).toMatch(/^gateway_session=; Expires=Thu, 01 Jan 1970/);
    expect((await b.query('staff.me')).status).toBe(401);
  });

  it('refuses dashboard procedures without a session, and a forged cookie', async () => {
    expect((await browser().query('dashboard.stats', { days: 7 })).status).toBe(401);
    const forged = await fetch(`${t.url}/trpc/account.keys`, { headers: { cookie: 'gateway_session=forged' } });
    expect(forged.status).toBe(401);
  });
});

describe('staff see their account only', () => {
  it('searches and refunds charges with the REST procedures, scoped to the account', async () => {
    const mine = await a.api.post('/charge/card', {
      amount: 20,
      providerId: a.providerIds[0],
      reference: 'dash-1',
      paymentInformation: card(),
    });
    const theirs = await other.api.post('/charge/card', {
      amount: 20,
      providerId: other.providerIds[0],
      reference: 'dash-1',
      paymentInformation: card(),
    });
    const b = await signedIn('ann@example.com');
    const found = await b.query<{ count: number; charges: Array<{ chargeId: string }> }>('charge.search', { reference: 'dash-1' });
    expect(found.data.charges.map((c) => c.chargeId)).toEqual([mine.body.chargeId]);
    expect((await b.query('charge.get', { chargeId: theirs.body.chargeId })).status).toBe(404);
    const refunded = await b.mutate('charge.refund', { chargeId: mine.body.chargeId, amount: '5', comment: 'from the dashboard' });
    expect(refunded.data).toMatchObject({
      status: 'PARTIAL_REFUND',
      refundedAmount: 5,
      refunds: [{ amount: 5, comment: 'from the dashboard' }],
    });
  });

  it('charts volume and success rate per provider and day from the charges', async () => {
    await a.api.post('/charge/card', { amount: 7.5, providerId: a.providerIds[1], paymentInformation: card() });
    await a.api.post('/charge/card', { amount: 9, providerId: a.providerIds[1], paymentInformation: card('4000000000000002') });
    const b = await signedIn('ann@example.com');
    const { data } = await b.query<{
      dates: string[];
      providers: Array<{ providerId: string; days: Array<{ date: string; volume: number; accepted: number; failed: number }> }>;
    }>('dashboard.stats', { days: 7 });
    expect(data.dates).toHaveLength(7);
    expect(data.dates.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(data.providers.map((p) => p.providerId)).toEqual(a.providerIds);
    const [first, second] = data.providers.map((p) => p.days.at(-1));
    expect(first).toMatchObject({ volume: 20, accepted: 1, failed: 0 });
    expect(second).toMatchObject({ volume: 7.5, accepted: 1, failed: 1 });
  });

  it('shows the public key and reveals a new secret key once; the old one stops working', async () => {
    const b = await signedIn('ann@example.com');
    const keys = await b.query('account.keys');
    expect(keys.data).toEqual({ accountName: expect.any(String), publicKey: a.publicKey, secretKeyHint: a.secretKey.slice(-4) });
    const rotated = await b.mutate<{ secretKey: string; secretKeyHint: string }>('account.rotateSecretKey');
    expect(rotated.data.secretKey).toMatch(/^sk_/);
    expect(rotated.data.secretKeyHint).toBe(rotated.data.secretKey.slice(-4));
    expect((await a.api.get('/charge')).status).toBe(401);
    expect((await client(t.url, rotated.data.secretKey).get('/charge')).status).toBe(200);
    expect((await b.query('account.keys')).data).not.toHaveProperty('secretKey');
    a = { ...a, secretKey: rotated.data.secretKey, api: client(t.url, rotated.data.secretKey) };
  });

  it('takes batch files of up to 10 MB, as the REST API does, and 1 MB bodies for everything else', async () => {
    const b = await signedIn('ann@example.com');
    const lines = 150_000; // about 2 MB
    const batch = `PaymentMethodId,Amount,Currency,Reference\n${'pm_1,1.5,AUD,r\n'.repeat(lines)}`;
    const checked = await b.mutate('batch.validate', { batch });
    expect(checked.status).toBe(200);
    expect(checked.data).toMatchObject({ valid: true, count: lines });
    const tooLarge = await b.mutate('paymentLink.create', { title: 'Big', amount: 1, description: 'x'.repeat(1_100_000) });
    expect(tooLarge.status).toBe(413);
  });

  it('keeps dashboard procedures off the REST API', async () => {
    expect((await a.api.get('/account/keys')).status).toBe(404);
    expect((await client(t.url).get('/trpc/account.keys', { 'x-secretkey': a.secretKey })).status).toBe(401);
  });
});

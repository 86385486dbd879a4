import { DEFAULT_LIMITS } from '@gateway/api';
import { ERRORS } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHEAP_DOMESTIC, card, client, createAccount, startTestGateway, type TestAccount, type TestGateway } from './harness';

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
function browser(gatewayUrl = t.url) {
  let cookie = '';
  async function call<T>(procedure: string, input: unknown, method: 'GET' | 'POST', headers = {}): Promise<TrpcAnswer<T>> {
    const query = method === 'GET' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
    const response = await fetch(`${gatewayUrl}/trpc/${procedure}${query}`, {
      method,
      headers: { ...(cookie && { cookie }), ...(method === 'POST' && { 'content-type': 'application/json' }), ...headers },
      body: method === 'POST' ? JSON.stringify(input ?? {}) : undefined,
    });
    const setCookie = response.headers.getSetCookie();
    for (const header of setCookie) cookie = header.split(';')[0]?.endsWith('=') ? '' : (header.split(';')[0] ?? '');
    const body = (await response.json()) as { result?: { data: T }; error?: TrpcAnswer<T>['error'] };
    return { status: response.status, data: body.result?.data as T, error: body.error, setCookie };
  }
  return {
    query: <T = Record<string, unknown>>(procedure: string, input?: unknown) => call<T>(procedure, input, 'GET'),
    mutate: <T = Record<string, unknown>>(procedure: string, input?: unknown, headers?: Record<string, string>) =>
      call<T>(procedure, input, 'POST', headers),
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
  await staff.create({ id: other.accountId }, { email: 'dana@example.com', name: 'Dana', password });
});
afterAll(() => t.close());

describe('staff sign-in', () => {
  it('sets an http-only, SameSite=Lax, Secure session cookie whose token is stored only as a hash', async () => {
    const b = browser();
    const { status, data, setCookie } = await b.mutate('staff.signIn', { email: 'ann@example.com', password });
    expect(status).toBe(200);
    expect(data).toEqual({ email: 'ann@example.com', name: 'Ann', accountName: expect.any(String), defaultCurrency: 'AUD' });
    expect(setCookie).toHaveLength(1);
    // Secure although the dashboard is http://127.0.0.1:3001: browsers keep Secure cookies on this machine.
    expect(setCookie[0]).toMatch(/^gateway_session=[\w-]{43}; Expires=.+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
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

  it('slows failures down per address and email: an attacker elsewhere cannot lock the owner out', async () => {
    // The gateway believes X-Forwarded-For from loopback (GATEWAY_TRUSTED_PROXIES' default), as from the dashboard.
    const attacker = { 'x-forwarded-for': '203.0.113.9' };
    const guesses = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        browser().mutate('staff.signIn', { email: 'carl@example.com', password: `guess ${i}` }, attacker),
      ),
    );
    expect(guesses.map((g) => g.status).sort()).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const blocked = await browser().mutate('staff.signIn', { email: 'carl@example.com', password }, attacker);
    expect(blocked.status).toBe(429);
    expect(blocked.error?.data.apiError).toMatchObject({ code: 35 });
    expect(blocked.setCookie).toEqual([]);
    const owner = await browser().mutate('staff.signIn', { email: 'carl@example.com', password }, { 'x-forwarded-for': '198.51.100.1' });
    expect(owner.status).toBe(200);
    expect(owner.setCookie).toHaveLength(1);
  });

  it('refuses sign-ins batched with other calls, before checking any password; a batch of one is a sign-in', async () => {
    const batch = (procedures: string, inputs: unknown[]) =>
      fetch(`${t.url}/trpc/${procedures}?batch=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(Object.fromEntries(inputs.map((input, i) => [i, input]))),
      });
    const refused = await batch('staff.signIn,staff.signIn', [
      { email: 'dana@example.com', password: 'nope' },
      { email: 'dana@example.com', password },
    ]);
    expect(refused.status).toBe(400);
    const answers = (await refused.json()) as Array<{ error: { message: string } }>;
    expect(answers.map((a) => a.error.message)).toEqual(Array(2).fill('Sign in with a call of its own, not in a batch'));
    expect(refused.headers.getSetCookie()).toEqual([]);
    // As the dashboard's batch link sends it.
    const alone = await batch('staff.signIn', [{ email: 'dana@example.com', password }]);
    expect(alone.status).toBe(200);
    expect(alone.headers.getSetCookie()).toHaveLength(1);
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

  it("answers the period's figures per currency and charts per provider, from this account only", async () => {
    const c = await createAccount(t);
    await t.gateway.services.staff.create({ id: c.accountId }, { email: 'gus@example.com', name: 'Gus', password });
    const [first, second] = c.providerIds;
    const charge = (amount: number, providerId = first, extra = {}, cardNumber?: string) =>
      c.api.post<{ chargeId: string }>('/charge/card', { amount, providerId, paymentInformation: card(cardNumber), ...extra });
    await charge(10.1);
    const refunded = await charge(20.2);
    expect((await c.api.delete(`/charge/${refunded.body.chargeId}?amount=5.05`)).status).toBe(200);
    await charge(3.25, first, { currency: 'USD' });
    await charge(7.5, second);
    await charge(9, second, {}, '4000000000000002');
    // Another account's payments count for it alone.
    await other.api.post('/charge/card', { amount: 1000, providerId: other.providerIds[0], paymentInformation: card() });

    const b = await signedIn('gus@example.com');
    const { status, data } = await b.query<{
      dates: string[];
      totals: unknown[];
      volume: Array<{ currency: string; series: Array<{ key: string; values: number[] }> }>;
      successRate: Array<{ key: string; values: Array<number | null> }>;
    }>('dashboard.stats', { days: 7 });
    expect(status).toBe(200);
    expect(data.dates).toHaveLength(7);
    expect(data.dates.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(data.totals).toEqual([
      // 10.10 + 20.20 + 7.50 captured; 3 accepted out of 4; 5.05 refunded.
      { currency: 'AUD', volume: 37.8, payments: 3, failed: 1, successRate: 75, refunds: 1, refunded: 5.05 },
      { currency: 'USD', volume: 3.25, payments: 1, failed: 0, successRate: 100, refunds: 0, refunded: 0 },
    ]);
    const today = (values: unknown[]) => values.at(-1);
    expect(data.volume.map((chart) => [chart.currency, chart.series.map((s) => [s.key, today(s.values)])])).toEqual([
      [
        'AUD',
        [
          [first, 30.3],
          [second, 7.5],
        ],
      ],
      ['USD', [[first, 3.25]]],
    ]);
    expect(data.successRate.map((s) => [s.key, today(s.values)])).toEqual([
      [first, 100],
      [second, 50],
    ]);
    expect(data.successRate[0]?.values.slice(0, -1)).toEqual([null, null, null, null, null, null]);
  });

  it('draws at most eight lines per chart: the seven largest providers, then the others added up as "Other"', async () => {
    const providers = Array.from({ length: 10 }, (_, n) => ({ ...CHEAP_DOMESTIC, name: `Acquirer ${n}` }));
    const c = await createAccount(t, providers);
    await t.gateway.services.staff.create({ id: c.accountId }, { email: 'hal@example.com', name: 'Hal', password });
    // Provider n takes n + 1 dollars and 1 cent: the three first are the smallest.
    for (const [n, providerId] of c.providerIds.entries()) {
      await c.api.post('/charge/card', { amount: n + 1.01, providerId, paymentInformation: card() });
    }
    await c.api.post('/charge/card', { amount: 5, providerId: c.providerIds[0], paymentInformation: card('4000000000000002') });
    const b = await signedIn('hal@example.com');
    const { data } = await b.query<{
      volume: Array<{ series: Array<{ key: string; name: string; values: number[] }> }>;
      successRate: Array<{ key: string; name: string; values: Array<number | null> }>;
    }>('dashboard.stats', { days: 1 });
    const [aud] = data.volume;
    expect(aud?.series.map((s) => [s.key, s.name, s.values])).toEqual([
      ...c.providerIds.slice(3).map((id, n) => [id, `Acquirer ${n + 3}`, [n + 4.01]]),
      // 1.01 + 2.01 + 3.01 added in minor units: exactly 6.03.
      ['other', 'Other (3 providers)', [6.03]],
    ]);
    // By attempts: provider 0 tried twice; the others once each, so the last three (a tie keeps their order) are Other.
    expect(data.successRate).toHaveLength(8);
    expect(data.successRate[0]).toMatchObject({ key: c.providerIds[0], values: [50] });
    expect(data.successRate.at(-1)).toMatchObject({ name: expect.stringMatching(/^Other \(3 providers\)$/), values: [100] });
  });

  it("counts days in the staff member's time zone, and refuses one that is not a known IANA name", async () => {
    const c = await createAccount(t);
    await t.gateway.services.staff.create({ id: c.accountId }, { email: 'fay@example.com', name: 'Fay', password });
    const paid = await c.api.post<{ chargeId: string }>('/charge/card', {
      amount: 12.5,
      providerId: c.providerIds[0],
      paymentInformation: card(),
    });
    // 22:00 UTC yesterday: yesterday in UTC and in New York (UTC−5 or −4), today in Sydney (UTC+10 or +11).
    const utcToday = new Date().toISOString().slice(0, 10);
    const at = new Date(Date.parse(utcToday) - 2 * 3600_000);
    await t.gateway.database.prisma.charge.update({ where: { id: paid.body.chargeId }, data: { dateAdded: at } });
    const b = await signedIn('fay@example.com');
    const volumeByDay = async (timeZone?: string) => {
      const { status, data } = await b.query<{ dates: string[]; volume: Array<{ series: Array<{ values: number[] }> }> }>(
        'dashboard.stats',
        { days: 7, ...(timeZone && { timeZone }) },
      );
      expect(status).toBe(200);
      const values = data.volume[0]?.series[0]?.values ?? [];
      return Object.fromEntries(data.dates.map((date, n) => [date, values[n]]).filter(([, amount]) => amount));
    };
    const yesterday = at.toISOString().slice(0, 10);
    expect(await volumeByDay()).toEqual({ [yesterday]: 12.5 });
    expect(await volumeByDay('America/New_York')).toEqual({ [yesterday]: 12.5 });
    expect(await volumeByDay('Australia/Sydney')).toEqual({ [utcToday]: 12.5 });
    expect((await b.query('dashboard.stats', { days: 1, timeZone: 'Australia/Sydney' })).data).toMatchObject({
      timeZone: 'Australia/Sydney',
    });
    expect((await b.query('dashboard.stats', { days: 1 })).data).toMatchObject({ timeZone: 'UTC' });

    for (const timeZone of ['Mars/Olympus_Mons', '+05:30', 'UTC; DROP TABLE "Charge"', '']) {
      const refused = await b.query('dashboard.stats', { days: 7, timeZone });
      expect(refused.status, timeZone).toBe(400);
      expect(refused.error?.data.apiError).toMatchObject({ code: ERRORS.ValidationError.code });
    }
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
    const lines = 100_000; // the most a batch takes: about 3 MB
    const batch = `PaymentMethodId,Amount,Currency,Reference\n${'pm_1,1.5,AUD,reference-of-a-row\n'.repeat(lines)}`;
    const checked = await b.mutate('batch.validate', { batch });
    expect(checked.status).toBe(200);
    // 100,000 × 1.50 counted in cents: exactly 150,000.
    expect(checked.data).toMatchObject({ valid: true, count: lines, totals: [{ currency: 'AUD', amount: 150_000 }] });
    const mixed = 'PaymentMethodId,Amount,Currency,Reference\npm_1,0.1,AUD,a\npm_1,0.2,AUD,b\npm_1,500,JPY,c\n';
    expect((await b.mutate('batch.validate', { batch: mixed })).data).toMatchObject({
      totals: [
        { currency: 'AUD', amount: 0.3 },
        { currency: 'JPY', amount: 500 },
      ],
    });
    const tooLarge = await b.mutate('paymentLink.create', { title: 'Big', amount: 1, description: 'x'.repeat(1_100_000) });
    expect(tooLarge.status).toBe(413);
  });

  it('keeps dashboard procedures off the REST API', async () => {
    expect((await a.api.get('/account/keys')).status).toBe(404);
    expect((await client(t.url).get('/trpc/account.keys', { 'x-secretkey': a.secretKey })).status).toBe(401);
  });
});

describe('another site cannot act with the staff session', () => {
  const batch = 'PaymentMethodId,Amount,Currency,Reference\npm_1,1.5,AUD,r\n';
  let b: ReturnType<typeof browser>;
  beforeAll(async () => {
    b = await signedIn('ann@example.com');
  });

  it('refuses calls that change something unless they are JSON, as an HTML form cannot send', async () => {
    const form = new FormData();
    form.set('x', '1');
    const bodies = [form, new Blob(['x'], { type: 'application/octet-stream' }), new Blob(['x'], { type: 'text/plain' })];
    for (const body of bodies) {
      // Even with the dashboard's own origin: only JSON is taken.
      const response = await fetch(`${t.url}/trpc/account.rotateSecretKey`, {
        method: 'POST',
        headers: { cookie: b.cookie, origin: 'http://127.0.0.1:3001' },
        body,
      });
      expect(response.status, String(body)).toBe(415);
      const answer = (await response.json()) as { error: { data: { apiError: { code: number } } } };
      expect(answer.error.data.apiError.code).toBe(ERRORS.ValidationError.code);
    }
    expect((await a.api.get('/charge')).status).toBe(200); // the secret key was not rotated
  });

  it('refuses calls from pages of another origin, as the browser tells in Sec-Fetch-Site or, older ones, in Origin', async () => {
    const others: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      // Another port of this machine is the same site: the SameSite=Lax cookie comes along.
      { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:8080' },
      { origin: 'http://127.0.0.1:8080' },
      { origin: 'null' },
    ];
    for (const headers of others) {
      const answer = await b.mutate('account.rotateSecretKey', {}, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.error?.data.apiError).toMatchObject({ code: ERRORS.AuthenticationAuthorizationError.code });
    }
    expect((await a.api.get('/charge')).status).toBe(200);
    // Nor can it sign a browser in to an account of its choosing.
    const signIn = await browser().mutate('staff.signIn', { email: 'ann@example.com', password }, { 'sec-fetch-site': 'cross-site' });
    expect(signIn.status).toBe(403);
    expect(signIn.setCookie).toEqual([]);
  });

  it("takes calls from the dashboard's pages, whatever name the browser reached it by, and from clients that are not browsers", async () => {
    const callers: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:3001' },
      { origin: 'http://127.0.0.1:3001' },
      {},
    ];
    for (const headers of callers) {
      expect((await b.mutate('batch.validate', { batch }, headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });
});

describe('failed sign-ins from one address', () => {
  it('are answered 429 with Retry-After past the limit, whatever the emails; X-Forwarded-For counts only from trusted proxies', async () => {
    const g = await startTestGateway({
      limits: { ...DEFAULT_LIMITS, 'sign-in-address-failures': { points: 3, seconds: 3600 } },
      trustedProxies: '192.0.2.1',
    });
    try {
      const account = await createAccount(g);
      await g.gateway.services.staff.create({ id: account.accountId }, { email: 'erin@example.com', name: 'Erin', password });
      // Loopback is no trusted proxy here: whatever address a caller forwards, it is 127.0.0.1.
      const signIn = (email: string, secret: string, i: number) =>
        browser(g.url).mutate('staff.signIn', { email, password: secret }, { 'x-forwarded-for': `203.0.113.${i}` });
      for (let i = 0; i < 3; i += 1) expect((await signIn(`guess${i}@example.com`, 'nope', i)).status).toBe(401);
      const response = await fetch(`${g.url}/trpc/staff.signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
        body: JSON.stringify({ email: 'erin@example.com', password }),
      });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(3000);
      const rows = await g.gateway.database.prisma.rateLimit.findMany();
      expect(rows.map((r) => r.key)).toContain('sign-in-address-failures:127.0.0.1');
      expect(JSON.stringify(rows)).not.toContain('example.com');
    } finally {
      await g.close();
    }
  });

  it('count an IPv6 /64 as one address, and an IPv4-mapped address as its IPv4 address', async () => {
    const g = await startTestGateway({
      limits: {
        ...DEFAULT_LIMITS,
        'sign-in-address-failures': { points: 3, seconds: 3600 },
        'sign-in-pair-failures': { points: 2, seconds: 900 },
      },
    });
    try {
      const account = await createAccount(g);
      await g.gateway.services.staff.create({ id: account.accountId }, { email: 'erin@example.com', name: 'Erin', password });
      // The test's loopback connection is a trusted proxy (the default): X-Forwarded-For names the client.
      const signIn = async (from: string, email: string, secret = 'nope') =>
        (await browser(g.url).mutate('staff.signIn', { email, password: secret }, { 'x-forwarded-for': from })).status;
      // Each guess from a new address of one /64: the email-and-address pair still counts them together.
      expect(await signIn('2001:db8:1:2::a', 'erin@example.com')).toBe(401);
      expect(await signIn('2001:db8:1:2:ffff:1:2:3', 'erin@example.com')).toBe(401);
      expect(await signIn('2001:db8:1:2::c', 'erin@example.com', password)).toBe(429);
      // The /64 next door is another client.
      expect(await signIn('2001:db8:1:3::1', 'erin@example.com', password)).toBe(200);
      expect(await signIn('198.51.100.7', 'a@example.com')).toBe(401);
      expect(await signIn('::ffff:198.51.100.7', 'b@example.com')).toBe(401);
      expect(await signIn('::ffff:c633:6407', 'c@example.com')).toBe(401);
      expect(await signIn('198.51.100.7', 'erin@example.com', password)).toBe(429);
      const keys = (await g.gateway.database.prisma.rateLimit.findMany()).map((r) => r.key);
      expect(keys).toContain('sign-in-address-failures:2001:db8:1:2::/64');
      expect(keys).toContain('sign-in-address-failures:198.51.100.7');
      expect(keys.filter((key) => key.includes('ffff'))).toEqual([]);
    } finally {
      await g.close();
    }
  });
});

describe('money moved from the dashboard', () => {
  // An account of its own: the charts above count every charge of theirs.
  let c: TestAccount;
  beforeAll(async () => {
    c = await createAccount(t);
    await t.gateway.services.staff.create({ id: c.accountId }, { email: 'cleo@example.com', name: 'Cleo', password });
  });

  it('refunds once for a repeated Idempotency-Key, and names the amount as the field at fault when it is too much', async () => {
    const paid = await c.api.post('/charge/card', { amount: 30, providerId: c.providerIds[0], paymentInformation: card() });
    const chargeId = paid.body.chargeId as string;
    const b = await signedIn('cleo@example.com');
    const key = { 'idempotency-key': `dashboard-refund-${chargeId}` };
    const [first, second] = await Promise.all([
      b.mutate('charge.refund', { chargeId, amount: '10' }, key),
      b.mutate('charge.refund', { chargeId, amount: '10' }, key),
    ]);
    // The second waits (409, the first still running) or gets the first's answer: never a second refund.
    expect([first.status, second.status]).toContain(200);
    const again = await b.mutate('charge.refund', { chargeId, amount: '10' }, key);
    expect(again.data).toMatchObject({ refundedAmount: 10 });
    const stored = await c.api.get(`/charge/${chargeId}`);
    expect(stored.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 10, refunds: [{ amount: 10 }] });

    const over = await b.mutate('charge.refund', { chargeId, amount: '20.01' }, { 'idempotency-key': `over-${chargeId}` });
    expect(over.status).toBe(400);
    expect(over.error?.data.apiError).toMatchObject({
      code: ERRORS.InvalidAmountMaximumAvailableRefund.code,
      details: { amount: expect.stringContaining('more than') },
    });
  });
});

import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAdyen, type FakeAdyen } from './server.js';

const ACCOUNT = {
  merchantAccount: 'FakeTestECOM',
  apiKey: 'AQE-fake-test-key',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

let fake: FakeAdyen;
let received: Array<{ body: string }> = [];
let receiver: ReturnType<typeof createServer>;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ body });
      res.end('[accepted]');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  fake = await startFakeAdyen({ ...ACCOUNT, notificationUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` });
});
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => receiver.close(resolve));
});

let counter = 0;
const key = () => `fake-test-${++counter}`;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': ACCOUNT.apiKey, 'idempotency-key': key(), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

const paymentBody = (changes: Record<string, unknown> = {}) => ({
  merchantAccount: ACCOUNT.merchantAccount,
  reference: `ref-${++counter}`,
  amount: { currency: 'EUR', value: 1000 },
  returnUrl: 'https://example.com/return',
  paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'A Holder' },
  additionalData: { manualCapture: 'true' },
  ...changes,
});

describe('the fake Adyen', () => {
  it('refuses a request without the API key', async () => {
    const { status, body } = await post('/payments', paymentBody(), { 'x-api-key': 'wrong' });
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 401, errorCode: '000', errorType: 'security' });
    expect(fake.violations).toEqual([]);
  });

  it('authorises a test card and answers as the description says', async () => {
    const { status, body } = await post('/payments', paymentBody());
    expect(status).toBe(200);
    expect(body).toMatchObject({ resultCode: 'Authorised', pspReference: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    expect(fake.violations).toEqual([]);
  });

  it('records a request the description does not allow, and refuses it', async () => {
    const before = fake.violations.length;
    const { returnUrl: _, ...withoutReturnUrl } = paymentBody();
    expect((await post('/payments', withoutReturnUrl)).status).toBe(422);
    expect((await post('/payments', paymentBody({ merchantOrderRef: 'typo' }))).status).toBe(422);
    expect((await post('/payments', paymentBody({ amount: { currency: 'EUR', value: 10.5 } }))).status).toBe(422);
    const problems = fake.violations.slice(before).map((v) => v.problems.join('; '));
    expect(problems).toEqual([
      expect.stringContaining('returnUrl'),
      expect.stringContaining('merchantOrderRef'),
      expect.stringContaining('/amount/value'),
    ]);
    fake.violations.splice(before);
  });

  it('records a call that moves money without an idempotency key', async () => {
    const before = fake.violations.length;
    const response = await fetch(`${fake.url}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ACCOUNT.apiKey },
      body: JSON.stringify(paymentBody()),
    });
    expect(response.status).toBe(422);
    expect(fake.violations.slice(before)).toEqual([expect.objectContaining({ problems: [expect.stringContaining('Idempotency-Key')] })]);
    fake.violations.splice(before);
  });

  it('replays the answer to a repeated key, and refuses the key for another request', async () => {
    const headers = { 'idempotency-key': key() };
    const first = await post('/payments', paymentBody({ reference: 'same' }), headers);
    const again = await post('/payments', paymentBody({ reference: 'same' }), headers);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotency-key')).toBe(headers['idempotency-key']);
    const other = await post('/payments', paymentBody({ reference: 'other' }), headers);
    expect(other).toMatchObject({ status: 422, body: { errorCode: '704' } });
    expect(other.headers.get('transient-error')).toBe('false');
    expect(fake.payments().filter((p) => p.reference === 'same')).toHaveLength(1);
  });

  it('answers modifications "received" and tells the outcome in a signed notification', async () => {
    const { body } = await post('/payments', paymentBody());
    const psp = String(body.pspReference);
    await fake.flushNotifications();
    received = [];
    const over = await post(`/payments/${psp}/captures`, {
      merchantAccount: ACCOUNT.merchantAccount,
      amount: { currency: 'EUR', value: 5000 },
    });
    expect(over).toMatchObject({ status: 201, body: { status: 'received', paymentPspReference: psp } });
    await fake.flushNotifications();
    const items = received.map(
      (r) =>
        (JSON.parse(r.body) as { notificationItems: Array<{ NotificationRequestItem: Record<string, unknown> }> }).notificationItems[0]!
          .NotificationRequestItem,
    );
    expect(items).toEqual([
      expect.objectContaining({
        eventCode: 'CAPTURE',
        success: 'false',
        originalReference: psp,
        merchantAccountCode: ACCOUNT.merchantAccount,
        amount: { currency: 'EUR', value: 5000 },
      }),
    ]);
    // Adyen's documented signing: HMAC-SHA256 over the signed fields joined by ":", with the key from hex.
    const item = items[0]!;
    const amount = item.amount as { value: number; currency: string };
    const signed = [
      item.pspReference,
      item.originalReference,
      item.merchantAccountCode,
      item.merchantReference,
      amount.value,
      amount.currency,
      item.eventCode,
      item.success,
    ].join(':');
    const expected = createHmac('sha256', Buffer.from(ACCOUNT.hmacKey, 'hex')).update(signed).digest('base64');
    expect((item.additionalData as Record<string, string>).hmacSignature).toBe(expected);
    expect(fake.payment(psp)).toMatchObject({ captured: 0, modifications: [{ kind: 'capture', status: 'failed' }] });
    expect(fake.violations).toEqual([]);
  });

  it('cancels by reference only an uncaptured payment', async () => {
    const captured = paymentBody({ additionalData: {} });
    await post('/payments', captured);
    const answer = await post('/cancels', { merchantAccount: ACCOUNT.merchantAccount, paymentReference: captured.reference });
    expect(answer).toMatchObject({ status: 201, body: { status: 'received', paymentReference: captured.reference } });
    expect(fake.payments().find((p) => p.reference === captured.reference)).toMatchObject({
      cancelled: false,
      modifications: [{ kind: 'technicalCancel', status: 'failed' }],
    });
    expect(fake.violations).toEqual([]);
  });
});

describe('3-D Secure at the fake Adyen', () => {
  const browserInfo = {
    acceptHeader: 'text/html',
    colorDepth: 24,
    javaEnabled: false,
    language: 'en-GB',
    screenHeight: 900,
    screenWidth: 1440,
    timeZoneOffset: 0,
    userAgent: 'Mozilla/5.0 (test)',
  };
  const web = (number: string, changes: Record<string, unknown> = {}) =>
    paymentBody({
      returnUrl: 'https://gateway.example/return/abc?x=1',
      channel: 'Web',
      origin: 'https://shop.example',
      browserInfo,
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' } },
      paymentMethod: { type: 'scheme', number, expiryMonth: '03', expiryYear: '2030', cvc: number.length === 15 ? '7373' : '737' },
      ...changes,
    });
  const redirectResultOf = (location: string) => new URL(location).searchParams.get('redirectResult')!;
  const details = (redirectResult: string) => post('/payments/details', { details: { redirectResult } });
  const itemsReceivedSince = async (count: number) => {
    await fake.flushNotifications();
    return received
      .slice(count)
      .map(
        (r) =>
          (JSON.parse(r.body) as { notificationItems: Array<{ NotificationRequestItem: Record<string, unknown> }> }).notificationItems[0]!
            .NotificationRequestItem,
      );
  };

  it('redirects a challenge card to its page on the fake, which sends the browser back with a redirectResult read once', async () => {
    const { body } = await post('/payments', web('4212345678901237'));
    const psp = String(body.pspReference);
    expect(body).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET' } });
    const action = body.action as { url: string };
    expect(action.url.startsWith(`${new URL(fake.url).origin}/fake/3ds/${psp}?creq=`)).toBe(true);
    expect(fake.payment(psp)).toMatchObject({ resultCode: 'RedirectShopper', captured: 0 });

    const page = await fetch(action.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    for (const label of ['Complete authentication', 'Fail authentication', 'Cancel', 'type="password"']) expect(html).toContain(label);
    expect(html).toContain('1237');
    expect(html).not.toContain('4212345678901237');
    // The page is reached only the way Adyen's redirect says: with its creq.
    expect((await fetch(action.url.replace(/creq=[^&]+/, 'creq=forged'))).status).toBe(400);

    await fake.flushNotifications();
    const before = received.length;
    const creq = new URL(action.url).searchParams.get('creq')!;
    const submitted = await fetch(`${new URL(fake.url).origin}/fake/3ds/${psp}/result`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ creq, password: 'password', outcome: 'complete' }).toString(),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    const location = submitted.headers.get('location')!;
    expect(location).toMatch(/^https:\/\/gateway\.example\/return\/abc\?x=1&redirectResult=/);
    expect(await itemsReceivedSince(before)).toEqual([
      expect.objectContaining({
        eventCode: 'AUTHORISATION',
        success: 'true',
        pspReference: psp,
        additionalData: expect.objectContaining({
          threeDAuthenticated: 'true',
          threeDOfferedResponse: 'C',
          liabilityShift: 'true',
          eci: '05',
        }),
      }),
    ]);
    // Back to the page (reload, back button): the challenge is over, the browser goes back again.
    const again = await fetch(action.url, { redirect: 'manual' });
    expect([again.status, again.headers.get('location')]).toEqual([303, location]);

    const first = await details(redirectResultOf(location));
    expect(first).toMatchObject({
      status: 200,
      body: { pspReference: psp, resultCode: 'Authorised', threeDS2Result: { transStatus: 'Y', eci: '05', messageVersion: '2.2.0' } },
    });
    const second = await details(redirectResultOf(location));
    expect(second).toMatchObject({ status: 422, body: { errorCode: '704' } });
    expect(fake.payment(psp)).toMatchObject({ resultCode: 'Authorised', threeDSecure: { flow: 'challenge', transStatus: 'Y' } });
    expect(fake.violations).toEqual([]);
  });

  it('takes the challenge by a POSTed form for the card that asks for it, and refuses a GET', async () => {
    const { body } = await post('/payments', web('5454545454545454'));
    const action = body.action as { url: string; method: string; data: Record<string, string> };
    expect(action).toMatchObject({ method: 'POST', data: { creq: expect.any(String) } });
    expect((await fetch(action.url)).status).toBe(400);
    const page = await fetch(action.url, { method: 'POST', body: new URLSearchParams(action.data) });
    expect(page.status).toBe(200);
    expect(fake.violations).toEqual([]);
  });

  it.each([
    ['fail', 'fail', undefined],
    ['a wrong password', 'complete', 'secret'],
    ['cancel', 'cancel', undefined],
  ] as const)('refuses the payment after %s (3D Not Authenticated)', async (_, outcome, password) => {
    const { body } = await post('/payments', web('4212345678901237'));
    const psp = String(body.pspReference);
    const creq = new URL((body.action as { url: string }).url).searchParams.get('creq')!;
    const submitted = await fetch(`${new URL(fake.url).origin}/fake/3ds/${psp}/result`, {
      method: 'POST',
      body: new URLSearchParams({ creq, outcome, ...(password && { password }) }),
      redirect: 'manual',
    });
    const answer = await details(redirectResultOf(submitted.headers.get('location')!));
    expect(answer.body).toMatchObject({
      resultCode: 'Refused',
      refusalReasonCode: '11',
      threeDS2Result: { transStatus: 'N', ...(outcome === 'cancel' && { challengeCancel: '01' }) },
    });
    expect(fake.violations).toEqual([]);
  });

  it('answers Cancelled for a payment cancelled while the shopper was away', async () => {
    const { body } = await post('/payments', web('4212345678901237'));
    const psp = String(body.pspReference);
    expect(await post(`/payments/${psp}/cancels`, { merchantAccount: ACCOUNT.merchantAccount })).toMatchObject({ status: 201 });
    const answer = await details(redirectResultOf(fake.completeChallenge(psp, 'complete')));
    expect(answer.body).toMatchObject({ pspReference: psp, resultCode: 'Cancelled' });
    expect(fake.payment(psp)).toMatchObject({ cancelled: true, captured: 0 });
    expect(fake.violations).toEqual([]);
  });

  it('authenticates the frictionless card without a challenge, on the web only', async () => {
    const frictionless = await post('/payments', web('4000000000003055'));
    expect(frictionless.body).toMatchObject({
      resultCode: 'Authorised',
      additionalData: { threeDAuthenticated: 'true', threeDOfferedResponse: 'Y', liabilityShift: 'true' },
    });
    const plain = await post(
      '/payments',
      paymentBody({ paymentMethod: { type: 'scheme', number: '4000000000003055', expiryMonth: '03', expiryYear: '2030', cvc: '737' } }),
    );
    expect(plain.body).toMatchObject({ resultCode: 'Authorised', additionalData: {} });
    // attemptAuthentication "always" has any card authenticated.
    const always = await post(
      '/payments',
      web('4111111111111111', {
        authenticationData: { attemptAuthentication: 'always', threeDSRequestData: { nativeThreeDS: 'disabled' } },
      }),
    );
    expect(always.body).toMatchObject({ resultCode: 'Authorised', additionalData: { threeDAuthenticated: 'true' } });
    expect(fake.violations).toEqual([]);
  });

  it('refuses the card whose issuer declines after a passed challenge', async () => {
    const { body } = await post('/payments', web('4000008400001629'));
    const answer = await details(redirectResultOf(fake.completeChallenge(String(body.pspReference), 'complete')));
    expect(answer.body).toMatchObject({ resultCode: 'Refused', refusalReasonCode: '2', threeDS2Result: { transStatus: 'Y' } });
  });

  it('takes a merchant-run authentication in mpiData and reflects it', async () => {
    const cavv = Buffer.alloc(20, 7).toString('base64');
    const mpiData = {
      cavv,
      eci: '05',
      dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      threeDSVersion: '2.2.0',
      directoryResponse: 'Y',
      authenticationResponse: 'Y',
    };
    const { body } = await post(
      '/payments',
      paymentBody({
        mpiData,
        paymentMethod: { type: 'scheme', number: '4212345678901237', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
      }),
    );
    expect(body).toMatchObject({
      resultCode: 'Authorised',
      additionalData: { threeDAuthenticated: 'true', eci: '05', cavv, threeDSVersion: '2.2.0' },
    });
    const rejected = await post(
      '/payments',
      paymentBody({ mpiData: { ...mpiData, directoryResponse: 'R', authenticationResponse: undefined } }),
    );
    expect(rejected.body).toMatchObject({ resultCode: 'Refused', refusalReasonCode: '11' });
    expect(fake.violations).toEqual([]);
  });

  it('holds 3-D Secure fields to Adyen’s current v71 description', async () => {
    const before = fake.violations.length;
    expect(
      (await post('/payments', web('4111111111111111', { authenticationData: { threeDSRequestData: { nativeThreeDS: 'never' } } }))).status,
    ).toBe(422);
    expect((await post('/payments', paymentBody({ mpiData: { cavv: 'not base64!', eci: '05' } }))).status).toBe(422);
    expect((await post('/payments', web('4111111111111111', { browserInfo: { ...browserInfo, userAgent: undefined } }))).status).toBe(422);
    expect(fake.violations.slice(before).map((v) => v.problems.join('; '))).toEqual([
      expect.stringContaining('nativeThreeDS'),
      expect.stringContaining('cavv'),
      expect.stringContaining('userAgent'),
    ]);
    fake.violations.splice(before);
  });
});

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

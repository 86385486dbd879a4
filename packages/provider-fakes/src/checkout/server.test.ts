import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCheckout, type FakeCheckout } from './server.js';

// The fake's own contract: what a connector test relies on it to refuse or record.
const SECRET_KEY = 'sk_sbox_fakeservertest000000001';
let fake: FakeCheckout;
beforeAll(async () => {
  fake = await startFakeCheckout({ secretKey: SECRET_KEY, webhookSecret: 'fake-server-webhook-secret' });
});
afterAll(() => fake.close());

const auth = { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' };
const pay = (body: Record<string, unknown>, key?: string, secret = SECRET_KEY) =>
  fetch(`${fake.url}/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...(key && { 'cko-idempotency-key': key }) },
    body: JSON.stringify(body),
  });
const payment = (amount = 1000) => ({
  source: { type: 'card', number: '4242424242424242', expiry_month: 12, expiry_year: 2030, cvv: '100' },
  amount,
  currency: 'EUR',
  capture: false,
  processing_channel_id: 'pc_fakeservertest',
  reference: 'order-1',
});

describe('the fake Checkout.com', () => {
  it('answers 401 to another key and records nothing as made', async () => {
    const before = fake.payments().length;
    expect((await pay(payment(), 'k-401', 'sk_sbox_someoneelse0000000000')).status).toBe(401);
    expect(fake.payments()).toHaveLength(before);
  });

  it('answers the same key and body with the first answer, another body with 409', async () => {
    const first = (await (await pay(payment(), 'k-same')).json()) as { id: string };
    const again = await (await pay(payment(), 'k-same')).json();
    expect(again).toEqual(first);
    expect((await pay(payment(999), 'k-same')).status).toBe(409);
    expect(fake.payments().filter((p) => p.id === first.id)).toHaveLength(1);
  });

  it('lists a payment by reference only once its search lag has passed', async () => {
    const list = async (reference: string) =>
      ((await (await fetch(`${fake.url}/payments?reference=${reference}`, { headers: auth })).json()) as { data: unknown[] }).data;
    fake.setSearchLag(60_000);
    await pay({ ...payment(), reference: 'order-lagging' }, 'k-lag');
    expect(await list('order-lagging')).toEqual([]);
    fake.setSearchLag(0);
    expect(await list('order-lagging')).toHaveLength(1);
  });

  it('holds accepted actions unmade until released; lists made ones; answers a second reversal 204', async () => {
    const { id } = (await (await pay(payment(), 'k-actions')).json()) as { id: string };
    const post = (kind: string, key: string) =>
      fetch(`${fake.url}/payments/${id}/${kind}`, { method: 'POST', headers: { ...auth, 'cko-idempotency-key': key }, body: '{}' });
    const actions = async () =>
      (await (await fetch(`${fake.url}/payments/${id}/actions`, { headers: auth })).json()) as Array<Record<string, unknown>>;
    fake.holdActions(true);
    const accepted = (await (await post('reversals', 'k-reverse-1')).json()) as { action_id: string };
    expect(fake.payment(id)).toMatchObject({ status: 'Authorized' });
    expect((await actions()).map((a) => a.type)).toEqual(['Authorization']);
    fake.holdActions(false);
    expect(await actions()).toMatchObject([{ id: accepted.action_id, type: 'Void', approved: true }, { type: 'Authorization' }]);
    expect((await post('reversals', 'k-reverse-2')).status).toBe(204);
  });

  it('records a request outside the schema as a violation (unknown field, string expiry, no idempotency key)', async () => {
    const violations = fake.violations.length;
    await pay({ ...payment(), shopper: 'x' }, 'k-v1');
    await pay({ ...payment(), source: { ...payment().source, expiry_month: '12' } }, 'k-v2');
    await pay(payment());
    expect(fake.violations.slice(violations).map((v) => v.problems.join('; '))).toEqual([
      expect.stringContaining('shopper'),
      expect.stringContaining('source.expiry_month'),
      expect.stringContaining('Cko-Idempotency-Key'),
    ]);
    fake.violations.length = violations;
  });
});

import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_PATH, startFakeStripe, type FakeStripe } from './server.js';

// The fake itself, over plain HTTP: what it refuses as Stripe would, and what it records.
let fake: FakeStripe;
let clock = Date.UTC(2026, 0, 1);
beforeAll(async () => {
  fake = await startFakeStripe({ now: () => clock });
});
afterAll(() => fake.close());

async function call(method: string, path: string, form?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${fake.secretKey}`,
      'stripe-version': '2022-11-15',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: form,
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as Record<string, any> };
}

const violationsSince = (count: number) => fake.violations.slice(count);
const intent = 'amount=1000&currency=usd&payment_method=pm_card_visa&confirm=true&capture_method=manual&payment_method_types[0]=card';

describe('requests Stripe would refuse', () => {
  it('answers 401 for another key', async () => {
    const answer = await call('GET', '/v1/balance', undefined, { authorization: 'Bearer sk_test_other' });
    expect(answer).toMatchObject({ status: 401, body: { error: { type: 'invalid_request_error' } } });
  });

  it('refuses, and records, a parameter the description does not have; nothing is kept under the key', async () => {
    const before = fake.violations.length;
    const refused = await call('POST', '/v1/payment_intents', `${intent}&amount_in_dollars=10`, { 'idempotency-key': 'k-unknown' });
    expect(refused).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid' } } });
    expect(violationsSince(before)).toEqual([
      { method: 'POST', path: '/v1/payment_intents', direction: 'request', problems: [expect.stringContaining('amount_in_dollars')] },
    ]);
    expect((await call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-unknown' })).status).toBe(200);
  });

  it('refuses a non-integer amount and a wrong enum, and records a path or version it does not know', async () => {
    const before = fake.violations.length;
    expect((await call('POST', '/v1/payment_intents', intent.replace('amount=1000', 'amount=10.5'))).status).toBe(400);
    expect((await call('POST', '/v1/payment_intents', intent.replace('capture_method=manual', 'capture_method=later'))).status).toBe(400);
    expect((await call('GET', '/v1/payments/123')).status).toBe(404);
    expect((await call('GET', '/v1/balance', undefined, { 'stripe-version': '2026-10-28.endive' })).status).toBe(200);
    expect(violationsSince(before).map((v) => v.problems[0])).toEqual([
      expect.stringContaining('/amount'),
      expect.stringContaining('/capture_method'),
      'no such operation in the description',
      expect.stringContaining('Stripe-Version 2026-10-28.endive'),
    ]);
  });
});

describe('idempotency', () => {
  it('replays the first answer for the same key and parameters, for 24 hours', async () => {
    const first = await call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-replay' });
    const again = await call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-replay' });
    expect(again).toEqual({ ...first, replayed: 'true' });
    const other = await call('POST', '/v1/payment_intents', intent.replace('1000', '2000'), { 'idempotency-key': 'k-replay' });
    expect(other).toMatchObject({ status: 400, body: { error: { type: 'idempotency_error' } } });
    clock += 24 * 60 * 60 * 1000;
    const later = await call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-replay' });
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('answers 409 while the first call with a key runs, then the first answer', async () => {
    fake.delayNext({ path: '/v1/payment_intents' }, 200);
    const [first, second] = await Promise.all([
      call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-flight' }),
      new Promise((r) => setTimeout(r, 50)).then(() => call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-flight' })),
    ]);
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 409, body: { error: { code: 'idempotency_key_in_use' } } });
    expect((await call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-flight' })).body.id).toBe(first.body.id);
  });

  it('does the work of a call it never answers, when asked to', async () => {
    fake.hangNext({ method: 'POST', path: '/v1/payment_intents' }, { process: true });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const hung = fetch(`${fake.url}/v1/payment_intents`, {
      method: 'POST',
      signal: abort.signal,
      headers: { authorization: `Bearer ${fake.secretKey}`, 'stripe-version': '2022-11-15', 'idempotency-key': 'k-hung' },
      body: intent,
    });
    await expect(hung).rejects.toThrow();
    const replay = await call('POST', '/v1/payment_intents', intent, { 'idempotency-key': 'k-hung' });
    expect(replay).toMatchObject({ status: 200, replayed: 'true', body: { status: 'requires_capture' } });
  });
});

describe('what the fake keeps and sends', () => {
  it('tells its state over HTTP, for tests in another process', async () => {
    const paid = await call('POST', '/v1/payment_intents', intent);
    const state = (await (await fetch(`${fake.url}${STATE_PATH}`)).json()) as { paymentIntents: { id: string }[]; requests: unknown[] };
    expect(state.paymentIntents.map((pi) => pi.id)).toContain(paid.body.id);
    expect(state.requests).toHaveLength(fake.requests.length);
  });

  it('journals card data masked, and spends a Stripe.js token once', async () => {
    await call(
      'POST',
      '/v1/payment_methods',
      'type=card&card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=2040&card[cvc]=123',
    );
    expect(fake.requests.at(-1)?.params).toEqual({
      type: 'card',
      card: { number: '424242******4242', exp_month: 12, exp_year: 2040, cvc: '***' },
    });
    expect(JSON.stringify(fake.requests)).not.toContain('4242424242424242');
    const token = fake.clientToken('4242424242424242');
    expect((await call('POST', '/v1/payment_methods', `type=card&card[token]=${token}`)).status).toBe(200);
    expect(await call('POST', '/v1/payment_methods', `type=card&card[token]=${token}`)).toMatchObject({
      status: 400,
      body: { error: { code: 'token_already_used' } },
    });
  });

  it('signs the events it sends as Stripe does', async () => {
    const before = fake.violations.length;
    const paid = await call('POST', '/v1/payment_intents', intent);
    const received: { signature?: string; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ signature: req.headers['stripe-signature'] as string, body });
        res.end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const event = fake.event('payment_intent.amount_capturable_updated', paid.body.id as string);
    const answer = await fake.sendEvent(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, event, 'whsec_abc', {
      timestamp: 1_700_000_000,
    });
    await new Promise((resolve) => receiver.close(resolve));
    expect(answer.status).toBe(200);
    const [{ signature, body }] = received as [{ signature: string; body: string }];
    expect(JSON.parse(body)).toMatchObject({
      id: event.id,
      type: 'payment_intent.amount_capturable_updated',
      data: { object: { id: paid.body.id, amount_capturable: 1000 } },
    });
    expect(signature).toBe(`t=1700000000,v1=${createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex')}`);
    expect(violationsSince(before)).toEqual([]);
  });
});

describe('3-D Secure', () => {
  const withCard = (pm: string, extra = '') =>
    `amount=1000&currency=usd&payment_method=${pm}&confirm=true&payment_method_types[0]=card&expand[0]=latest_charge${extra}`;
  const RETURN = 'https://gateway.example/3ds/return?charge=c1';
  const redirected = `&return_url=${encodeURIComponent(RETURN)}`;
  const threeDSecureOf = (intent: Record<string, any>) => intent.latest_charge?.payment_method_details?.card?.three_d_secure;
  const retrieve = async (id: string) => (await call('GET', `/v1/payment_intents/${id}?expand[0]=latest_charge`)).body;
  const press = (url: string, outcome: string) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `outcome=${outcome}`,
    });
  const returnOf = (id: string, secret: string) =>
    `${RETURN}&payment_intent=${id}&payment_intent_client_secret=${encodeURIComponent(secret)}`;

  it('sends a card that needs a challenge to the fake’s page, whose "Complete authentication" authorises it and sends the browser back', async () => {
    const before = fake.violations.length;
    const created = await call(
      'POST',
      '/v1/payment_intents',
      withCard('pm_card_threeDSecure2Required', `&capture_method=manual${redirected}`),
    );
    const { id, client_secret: secret } = created.body as { id: string; client_secret: string };
    expect(created.body).toMatchObject({
      status: 'requires_action',
      latest_charge: null,
      next_action: { type: 'redirect_to_url', redirect_to_url: { url: fake.challengeUrl(id), return_url: RETURN } },
    });
    expect(fake.challengeUrl(id)).toBe(`${fake.url}/_fake/3ds/${id}`);

    const shown = await fetch(fake.challengeUrl(id));
    const html = await shown.text();
    expect(shown.status).toBe(200);
    expect(html).toContain('>Complete authentication</button>');
    expect(html).toContain('>Fail authentication</button>');
    expect(html).not.toContain('Cancel');

    const pressed = await press(fake.challengeUrl(id), 'complete');
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(returnOf(id, secret));
    const intent = await retrieve(id);
    expect(intent).toMatchObject({ status: 'requires_capture', amount_capturable: 1000, next_action: null });
    expect(threeDSecureOf(intent)).toEqual({
      authentication_flow: 'challenge',
      result: 'authenticated',
      result_reason: null,
      version: '2.2.0',
    });
    expect(fake.events({ paymentIntent: id }).map((e) => e.type)).toEqual([
      'payment_intent.requires_action',
      'payment_intent.amount_capturable_updated',
    ]);

    // Pressed again (a double click, the back button): nothing changes, the browser goes back again.
    expect((await press(fake.challengeUrl(id), 'fail')).headers.get('location')).toBe(returnOf(id, secret));
    expect((await retrieve(id)).status).toBe('requires_capture');
    expect(await (await fetch(fake.challengeUrl(id))).text()).toContain('This authentication is over');
    expect(violationsSince(before)).toEqual([]);
  });

  it('fails the authentication with "Fail authentication": requires_payment_method, payment_intent_authentication_failure, no charge', async () => {
    const before = fake.violations.length;
    const { body } = await call('POST', '/v1/payment_intents', withCard('pm_card_authenticationRequired', redirected));
    const back = fake.completeChallenge(body.id as string, 'fail');
    expect(back).toBe(returnOf(body.id as string, body.client_secret as string));
    const intent = await retrieve(body.id as string);
    expect(intent).toMatchObject({
      status: 'requires_payment_method',
      latest_charge: null,
      last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure' },
    });
    expect(fake.events({ paymentIntent: body.id as string }).map((e) => e.type)).toEqual([
      'payment_intent.requires_action',
      'payment_intent.payment_failed',
    ]);
    expect(fake.completeChallenge(body.id as string, 'complete')).toBe(back);
    expect((await retrieve(body.id as string)).status).toBe('requires_payment_method');
    expect(violationsSince(before)).toEqual([]);
  });

  it('declines 4000008400001629 after its challenge is passed, and keeps the authentication on the failed charge', async () => {
    const pm = fake.clientPaymentMethod('4000008400001629');
    const { body } = await call('POST', '/v1/payment_intents', withCard(pm, redirected));
    expect(body.status).toBe('requires_action');
    fake.completeChallenge(body.id as string, 'complete');
    const intent = await retrieve(body.id as string);
    expect(intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' },
      latest_charge: { status: 'failed', paid: false },
    });
    expect(threeDSecureOf(intent)).toMatchObject({ authentication_flow: 'challenge', result: 'authenticated' });
    expect(fake.events({ paymentIntent: body.id as string, type: 'payment_intent.payment_failed' })).toHaveLength(1);
  });

  it('authenticates 4000000000003055 without a challenge when the browser can be redirected, and challenges it when 3-D Secure is requested', async () => {
    const frictionless = await call('POST', '/v1/payment_intents', withCard('pm_card_threeDSecureOptional', redirected));
    expect(frictionless.body).toMatchObject({ status: 'succeeded', amount_received: 1000 });
    expect(threeDSecureOf(frictionless.body)).toMatchObject({ authentication_flow: 'frictionless', result: 'authenticated' });
    const without = await call('POST', '/v1/payment_intents', withCard('pm_card_threeDSecureOptional'));
    expect(without.body.status).toBe('succeeded');
    expect(threeDSecureOf(without.body)).toBeNull();
    const requested = await call(
      'POST',
      '/v1/payment_intents',
      withCard('pm_card_threeDSecureOptional', `${redirected}&payment_method_options[card][request_three_d_secure]=any`),
    );
    expect(requested.body).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'redirect_to_url' },
      payment_method_options: { card: { request_three_d_secure: 'any' } },
    });
    fake.completeChallenge(requested.body.id as string, 'complete');
    expect(threeDSecureOf(await retrieve(requested.body.id as string))).toMatchObject({ authentication_flow: 'challenge' });
    // A card without 3-D Secure enrolment is not challenged even when asked.
    const visa = await call(
      'POST',
      '/v1/payment_intents',
      withCard('pm_card_visa', `${redirected}&payment_method_options[card][request_three_d_secure]=any`),
    );
    expect(visa.body.status).toBe('succeeded');
  });

  it('leaves a challenge to Stripe.js without a return_url, and answers authentication_required off session', async () => {
    const sdk = await call('POST', '/v1/payment_intents', withCard('pm_card_threeDSecure2Required'));
    expect(sdk.body).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
    expect(() => fake.completeChallenge(sdk.body.id as string, 'complete')).toThrow(/no challenge page/);
    expect((await fetch(fake.challengeUrl(sdk.body.id as string))).status).toBe(404);
    const offSession = await call(
      'POST',
      '/v1/payment_intents',
      withCard('pm_card_threeDSecure2Required', `${redirected}&off_session=true`),
    );
    expect(offSession).toMatchObject({ status: 402, body: { error: { code: 'authentication_required' } } });
  });

  it('closes the challenge of a cancelled payment intent: the page only sends the browser back', async () => {
    const { body } = await call('POST', '/v1/payment_intents', withCard('pm_card_threeDSecure2Required', redirected));
    const id = body.id as string;
    expect((await call('POST', `/v1/payment_intents/${id}/cancel`, '')).body.status).toBe('canceled');
    expect(await (await fetch(fake.challengeUrl(id))).text()).toContain('This authentication is over');
    expect((await press(fake.challengeUrl(id), 'complete')).status).toBe(303);
    expect((await retrieve(id)).status).toBe('canceled');
    expect(fake.events({ paymentIntent: id }).map((e) => e.type)).toEqual(['payment_intent.requires_action', 'payment_intent.canceled']);
    const [waiting] = fake.events({ paymentIntent: id });
    expect(waiting).toMatchObject({ data: { object: { status: 'requires_action' } } });
  });

  it('refuses a return_url without confirm=true, a return_url that is no URL, and an expansion it does not make', async () => {
    const intentOnly = 'amount=1000&currency=usd&payment_method=pm_card_visa&payment_method_types[0]=card';
    expect((await call('POST', '/v1/payment_intents', `${intentOnly}${redirected}`)).body.error).toMatchObject({ param: 'return_url' });
    expect((await call('POST', '/v1/payment_intents', `${intentOnly}&confirm=true&return_url=nowhere`)).body.error).toMatchObject({
      param: 'return_url',
    });
    expect((await call('POST', '/v1/payment_intents', `${intentOnly}&expand[0]=customer`)).body.error).toMatchObject({ param: 'expand' });
    expect((await press(`${fake.url}/_fake/3ds/pi_unknown`, 'complete')).status).toBe(404);
  });
});

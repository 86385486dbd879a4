import {
  notificationBody,
  notificationItem,
  startFakeAdyen,
  startFakeStripe,
  type FakeAdyen,
  type FakeStripe,
} from '@gateway/provider-fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../src/gateway';
import { createAccount, type TestAccount } from './harness';
import { webhookTestbed } from './webhook-receiver';

/**
 * POST /provider/{providerId}/notification over HTTP on the database, with the fake Adyen and the
 * fake Stripe signing as the providers do: captures, voids and refunds Adyen answers "received" show
 * on the charge at once and wait for their notification; a failure puts the charge back and fires
 * the Transaction webhook; forged, tampered, replayed and other-account notifications change nothing.
 */
const ADYEN = {
  ApiKey: 'AQEfake-api-key-for-notification-test',
  MerchantAccount: 'GatewayNotifyECOM',
  HmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};
const OTHER_HMAC_KEY = '0A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F9';
const STRIPE_KEY = 'sk_test_51FakeGatewayNotifications001';
const STRIPE_WEBHOOK_SECRET = 'whsec_notificationTestSecret0123456789';
const ADYEN_CARD = { cardNumber: '4111111111111111', expiryDate: '03/30', ccv: '737', cardholder: 'Test Payer' };

const options: Partial<GatewayOptions> = {};
let adyen: FakeAdyen;
let stripe: FakeStripe;
beforeAll(async () => {
  adyen = await startFakeAdyen({ apiKey: ADYEN.ApiKey, merchantAccount: ADYEN.MerchantAccount, hmacKey: ADYEN.HmacKey });
  stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
  // Read by the testbed's own beforeAll, which runs after this one.
  options.providerEndpoints = { adyen: new URL(adyen.url).origin, stripe: stripe.url };
});
const bed = webhookTestbed(options);
afterAll(async () => {
  // Every request the gateway sent and every answer the fakes gave matched the providers' descriptions.
  expect(adyen.violations).toEqual([]);
  expect(stripe.violations).toEqual([]);
  await adyen?.close();
  await stripe?.close();
});

let a: TestAccount;
let signingKeyPath: string;
let adyenId: string;
let stripeId: string;
const notificationUrl = (providerId: string) => `${bed.t.url}/provider/${providerId}/notification`;
const db = () => bed.t.gateway.database.prisma;

beforeAll(async () => {
  signingKeyPath = '/notifications';
  ({ a } = await bed.subscribedAccount(signingKeyPath, ['Transaction']));
  const created = await a.api.post('/provider', { type: 'adyen', name: 'Adyen', currency: 'EUR', authenticationParameters: ADYEN });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  adyenId = String(created.body.providerId);
  adyen.setNotificationUrl(notificationUrl(adyenId));
  const viaStripe = await a.api.post('/provider', {
    type: 'stripe',
    name: 'Stripe',
    currency: 'EUR',
    authenticationParameters: { SecretKey: STRIPE_KEY, WebhookSecret: STRIPE_WEBHOOK_SECRET },
  });
  expect(viaStripe.status, JSON.stringify(viaStripe.body)).toBe(200);
  stripeId = String(viaStripe.body.providerId);
});

/** The receiver's path of the charges' own webhooks (`webhook` given with the charge). */
const CHARGE_WEBHOOK_PATH = '/charge-webhook';

async function charge(
  providerId: string,
  capture: boolean,
  amount = 10,
  paymentInformation: Record<string, string> = ADYEN_CARD,
  extra: Record<string, unknown> = {},
) {
  const { status, body } = await a.api.post('/charge/card', { amount, currency: 'EUR', providerId, capture, paymentInformation, ...extra });
  expect(status, JSON.stringify(body)).toBe(201);
  return String(body.chargeId);
}

const modificationsOf = (chargeId: string) => db().providerModification.findMany({ where: { chargeId }, orderBy: { dateAdded: 'asc' } });

/** Waits for the fake's notifications, and until the gateway has settled every modification of the charge. */
async function settled(chargeId: string) {
  await adyen.flushNotifications();
  const deadline = Date.now() + 30_000;
  while ((await modificationsOf(chargeId)).some((m) => m.status === 'PENDING')) {
    if (Date.now() > deadline) throw new Error('a modification is still pending');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return modificationsOf(chargeId);
}

/** The Transaction events the account's subscription (or `path`) received about a charge, oldest first, after running due deliveries. */
async function eventsAbout(chargeId: string, path = signingKeyPath) {
  await bed.drain();
  return bed.receiver
    .at(path)
    .filter((r) => r.data.chargeId === chargeId)
    .map((r) => r.data.status);
}

/** What the fake Adyen's notification of a capture of `chargeId`'s payment would be, signed as given. */
async function captureItem(chargeId: string, hmacKey = ADYEN.HmacKey, merchantAccount = ADYEN.MerchantAccount) {
  const row = await db().charge.findUniqueOrThrow({ where: { id: chargeId } });
  const draft = {
    eventCode: 'CAPTURE',
    success: false,
    pspReference: 'FORGED0000000001',
    originalReference: row.providerChargeId!,
    merchantReference: 'forged',
    amount: { currency: 'EUR', value: 1000 },
  };
  return notificationItem(draft, merchantAccount, hmacKey);
}

/** Runs `act` with the fake's own notifications held back (the test tells the outcome itself, in its own time). */
async function withheld<T>(act: () => Promise<T>): Promise<T> {
  adyen.setNotificationUrl(undefined);
  try {
    return await act();
  } finally {
    adyen.setNotificationUrl(notificationUrl(adyenId));
  }
}

/**
 * Adyen's notification about the charge's latest modification of `kind` in `status`, signed by the
 * fake and delivered; for the modification's amount (in EUR) unless `amount` says otherwise.
 */
async function tell(chargeId: string, kind: string, eventCode: string, success: boolean, status = 'PENDING', amount?: AdyenAmount) {
  const row = await db().charge.findUniqueOrThrow({ where: { id: chargeId } });
  const modification = (await modificationsOf(chargeId)).findLast((m) => m.kind === kind && m.status === status);
  const draft = {
    eventCode,
    success,
    pspReference: modification!.providerReference!,
    originalReference: row.providerChargeId!,
    merchantReference: `${chargeId}-${kind}`,
    amount: amount ?? { currency: 'EUR', value: Number(modification!.amount) },
  };
  return adyen.sendNotifications(notificationUrl(adyenId), [draft]);
}

type AdyenAmount = { currency: string; value: number };

const STAFF_PASSWORD = 'notification staff password';
let staffCookie = '';

/** A dashboard procedure over tRPC, signed in as the account's staff member. */
async function asStaff<T>(procedure: string, input: unknown, method: 'GET' | 'POST' = 'GET'): Promise<T> {
  if (!staffCookie) {
    await bed.t.gateway.services.staff.create({ id: a.accountId }, { email: 'ops@example.com', name: 'Ops', password: STAFF_PASSWORD });
    const signIn = await fetch(`${bed.t.url}/trpc/staff.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: STAFF_PASSWORD }),
    });
    staffCookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  }
  const query = method === 'GET' ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
  const response = await fetch(`${bed.t.url}/trpc/${procedure}${query}`, {
    method,
    headers: { cookie: staffCookie, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify(input) : undefined,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** What the dashboard lists for staff: modifications failed by a provider, notified with other figures or overdue, and how many wait. */
const staffList = (input: { providerId?: string } = {}) =>
  asStaff<{ pending: unknown[]; modifications: Array<Record<string, unknown>> }>('dashboard.providerNotifications', input);

/** The staff list's line about a modification, if it has one. */
const listedLine = async (modificationId: string) => (await staffList()).modifications.find((m) => m.modificationId === modificationId);

async function post(providerId: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(notificationUrl(providerId), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: await response.text() };
}

describe('an adyen provider: modifications answered "received"', () => {
  it('shows a capture at once and confirms it by notification, answered [accepted]', async () => {
    const chargeId = await charge(adyenId, false);
    const captured = await a.api.post(`/charge/${chargeId}/capture`, { amount: 6 });
    expect(captured.body).toMatchObject({ status: 'SUCCESS', amount: 6 });
    const [pending] = await modificationsOf(chargeId);
    expect(pending).toMatchObject({ kind: 'capture', amount: 600n, providerId: adyenId });
    const [modification] = await settled(chargeId);
    expect(modification?.status).toBe('CONFIRMED');
    expect(adyen.deliveries.at(-1)).toMatchObject({ status: 200, body: '[accepted]' });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', amount: 6 });
  });

  it('puts a charge back when its capture fails, fires the webhook and lists it for staff', async () => {
    const chargeId = await charge(adyenId, false);
    const captured = await withheld(() => a.api.post(`/charge/${chargeId}/capture`, {}));
    expect(captured.body).toMatchObject({ status: 'SUCCESS' });
    expect(await tell(chargeId, 'capture', 'CAPTURE', false)).toEqual({ status: 200, body: '[accepted]' });
    const [modification] = await settled(chargeId);
    expect(modification).toMatchObject({ status: 'FAILED', gatewayCode: expect.any(String) });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'AUTHORISE', amount: 10 });
    const row = await db().charge.findUniqueOrThrow({ where: { id: chargeId } });
    expect(row).toMatchObject({ capturedAmount: 0n, successDate: null });
    expect(await eventsAbout(chargeId)).toEqual(['AUTHORISE', 'SUCCESS', 'AUTHORISE']);
    const listed = await staffList({ providerId: adyenId });
    expect(listed.modifications).toContainEqual(
      expect.objectContaining({
        chargeId,
        kind: 'capture',
        status: 'FAILED',
        amount: 10,
        currency: 'EUR',
        providerName: 'Adyen',
        notified: null,
        reversedAfterConfirmation: false,
      }),
    );
  });

  it('voids at once and confirms it; a failed void puts the authorisation back', async () => {
    const confirmed = await charge(adyenId, false);
    expect((await a.api.delete(`/charge/${confirmed}`)).body).toMatchObject({ status: 'AUTHORISE_CANCELLED' });
    expect((await settled(confirmed)).map((m) => [m.kind, m.status])).toEqual([['void', 'CONFIRMED']]);

    const failed = await charge(adyenId, false);
    expect((await withheld(() => a.api.delete(`/charge/${failed}`))).body).toMatchObject({ status: 'AUTHORISE_CANCELLED' });
    await tell(failed, 'void', 'CANCELLATION', false);
    expect((await settled(failed)).map((m) => m.status)).toEqual(['FAILED']);
    expect((await a.api.get(`/charge/${failed}`)).body).toMatchObject({ status: 'AUTHORISE' });
    expect(await eventsAbout(failed)).toEqual(['AUTHORISE', 'AUTHORISE_CANCELLED', 'AUTHORISE']);
  });

  it('refunds in part at once and confirms it; a failed refund gives the amount back', async () => {
    const chargeId = await charge(adyenId, true);
    await settled(chargeId);
    const partial = await a.api.delete(`/charge/${chargeId}?amount=4`);
    expect(partial.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 4 });
    await settled(chargeId);
    const rest = await withheld(() => a.api.delete(`/charge/${chargeId}`));
    expect(rest.body).toMatchObject({ status: 'REFUND', refundedAmount: 10 });
    await tell(chargeId, 'refund', 'REFUND_FAILED', true);
    const modifications = await settled(chargeId);
    expect(modifications.map((m) => [m.kind, m.amount, m.status])).toEqual([
      ['capture', 1000n, 'CONFIRMED'],
      ['refund', 400n, 'CONFIRMED'],
      ['refund', 600n, 'FAILED'],
    ]);
    const after = await a.api.get(`/charge/${chargeId}`);
    expect(after.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 4, refunds: [{ amount: 4 }] });
    expect(await eventsAbout(chargeId)).toEqual(['SUCCESS', 'PARTIAL_REFUND', 'REFUND', 'PARTIAL_REFUND']);
  });

  it('settles a modification with the notification that came before the gateway wrote it down', async () => {
    const chargeId = await charge(adyenId, false);
    const payment = (await db().charge.findUniqueOrThrow({ where: { id: chargeId } })).providerChargeId!;
    const early = 'EARLY00000000001';
    const amount = { currency: 'EUR', value: 1000 };
    const failure = {
      eventCode: 'CAPTURE',
      success: false,
      pspReference: early,
      originalReference: payment,
      merchantReference: 'c',
      amount,
    };
    expect(await adyen.sendNotifications(notificationUrl(adyenId), [failure])).toEqual({ status: 200, body: '[accepted]' });
    // The capture Adyen answers is the one that notification was about.
    const answer = {
      status: 'received',
      pspReference: early,
      paymentPspReference: payment,
      merchantAccount: ADYEN.MerchantAccount,
      amount,
    };
    adyen.injectFault({ kind: 'answer', status: 201, body: answer }, { path: '/payments/{paymentPspReference}/captures' });
    // Known to have failed by the time it is written down: the charge is put back at once.
    expect((await a.api.post(`/charge/${chargeId}/capture`, {})).body).toMatchObject({ status: 'AUTHORISE' });
    const [modification] = await modificationsOf(chargeId);
    expect(modification).toMatchObject({ status: 'FAILED', providerReference: early });
    const notification = await db().providerNotification.findFirstOrThrow({ where: { providerId: adyenId, providerReference: early } });
    expect(notification.modificationId).toBe(modification!.id);
  });

  it.each([
    {
      kind: 'refund',
      eventCode: 'REFUND_FAILED',
      sale: true,
      act: (chargeId: string) => a.api.delete(`/charge/${chargeId}?amount=2.5`),
      confirmed: { status: 'PARTIAL_REFUND', refundedAmount: 2.5 },
      reversed: { status: 'SUCCESS', refundedAmount: 0, refunds: [] },
      events: ['SUCCESS', 'PARTIAL_REFUND', 'SUCCESS'],
    },
    {
      kind: 'capture',
      eventCode: 'CAPTURE_FAILED',
      sale: false,
      act: (chargeId: string) => a.api.post(`/charge/${chargeId}/capture`, {}),
      confirmed: { status: 'SUCCESS', amount: 10 },
      reversed: { status: 'AUTHORISE', amount: 10 },
      events: ['AUTHORISE', 'SUCCESS', 'AUTHORISE'],
    },
  ])(
    'puts the charge back when Adyen sends $eventCode after confirming the $kind, fires its webhooks, lists it as a reversal',
    async ({ kind, eventCode, sale, act, confirmed, reversed, events }) => {
      const chargeId = await charge(adyenId, sale, 10, ADYEN_CARD, { webhook: { url: bed.receiver.url(CHARGE_WEBHOOK_PATH) } });
      await settled(chargeId);
      expect((await act(chargeId)).body).toMatchObject(confirmed);
      const modification = (await settled(chargeId)).findLast((m) => m.kind === kind)!;
      expect(modification.status).toBe('CONFIRMED');
      expect(await tell(chargeId, kind, eventCode, true, 'CONFIRMED')).toEqual({ status: 200, body: '[accepted]' });
      expect(await db().providerModification.findUniqueOrThrow({ where: { id: modification.id } })).toMatchObject({
        status: 'FAILED',
        dateConfirmed: modification.dateConfirmed,
      });
      expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject(reversed);
      // The change reaches the account's subscription and the charge's own webhook, like any other.
      expect(await eventsAbout(chargeId)).toEqual(events);
      expect(await eventsAbout(chargeId, CHARGE_WEBHOOK_PATH)).toEqual(events);
      expect(await listedLine(modification.id)).toMatchObject({ chargeId, kind, status: 'FAILED', reversedAfterConfirmation: true });
    },
  );

  it('lists a modification still waiting past the timeout for staff', async () => {
    const chargeId = await charge(adyenId, false);
    await withheld(() => a.api.post(`/charge/${chargeId}/capture`, {}));
    expect((await staffList()).modifications.map((m) => m.chargeId)).not.toContain(chargeId);
    expect((await staffList()).pending).toContainEqual({ providerId: adyenId, count: 1 });
    // GATEWAY_NOTIFICATION_TIMEOUT_MINUTES is 60 by default.
    await bed.advance(61 * 60_000);
    expect((await staffList()).modifications).toContainEqual(expect.objectContaining({ chargeId, status: 'PENDING', kind: 'capture' }));
    await tell(chargeId, 'capture', 'CAPTURE', true);
    expect((await staffList()).pending).toEqual([]);
  });
});

describe('a notification for another amount or currency than the modification it names', () => {
  const accepted = { status: 200, body: '[accepted]' };

  /** A charge of 15.00 EUR with a `kind` waiting for its notification: the capture of it all, or a refund of 5.00 after the sale. */
  async function waiting(kind: 'capture' | 'refund') {
    const chargeId = await charge(adyenId, kind === 'refund', 15);
    await settled(chargeId);
    await withheld(() =>
      kind === 'capture' ? a.api.post(`/charge/${chargeId}/capture`, {}) : a.api.delete(`/charge/${chargeId}?amount=5`),
    );
    return chargeId;
  }

  it.each([
    { kind: 'capture', eventCode: 'CAPTURE', other: 'amount', notified: { currency: 'EUR', value: 1200 } },
    { kind: 'capture', eventCode: 'CAPTURE', other: 'currency', notified: { currency: 'USD', value: 1500 } },
    { kind: 'refund', eventCode: 'REFUND', other: 'amount', notified: { currency: 'EUR', value: 400 } },
    { kind: 'refund', eventCode: 'REFUND', other: 'currency', notified: { currency: 'GBP', value: 500 } },
  ] as const)(
    'leaves the $kind pending when $eventCode has another $other, kept and listed with both figures; the right one confirms it',
    async ({ kind, eventCode, notified }) => {
      const chargeId = await waiting(kind);
      const pending = (await modificationsOf(chargeId)).find((m) => m.kind === kind && m.status === 'PENDING')!;
      const before = await db().charge.findUniqueOrThrow({ where: { id: chargeId } });
      expect(await tell(chargeId, kind, eventCode, true, 'PENDING', notified)).toEqual(accepted);

      // Kept with what Adyen said, tied to the modification it named, which stays pending; the charge is as it was.
      const kept = await db().providerNotification.findFirstOrThrow({
        where: { providerId: adyenId, providerReference: pending.providerReference },
      });
      expect(kept).toMatchObject({ event: kind, success: true, amount: BigInt(notified.value), currency: notified.currency });
      expect(kept).toMatchObject({ mismatch: true, modificationId: pending.id });
      expect(await db().providerModification.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({
        status: 'PENDING',
        notifiedAmount: BigInt(notified.value),
        notifiedCurrency: notified.currency,
        dateSettled: null,
      });
      expect(await db().charge.findUniqueOrThrow({ where: { id: chargeId } })).toEqual(before);
      expect(await listedLine(pending.id)).toMatchObject({
        chargeId,
        kind,
        status: 'PENDING',
        amount: Number(pending.amount) / 100,
        currency: 'EUR',
        notified: { amount: notified.value / 100, currency: notified.currency },
        reversedAfterConfirmation: false,
      });
      expect(
        bed.t.logs.filter((line) => line.includes('does not match its pending modification') && line.includes(pending.id)),
      ).toHaveLength(1);

      // The notification Adyen should have sent confirms it, and staff no longer need to look.
      expect(await tell(chargeId, kind, eventCode, true)).toEqual(accepted);
      expect(await db().providerModification.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({ status: 'CONFIRMED' });
      expect(await listedLine(pending.id)).toBeUndefined();
      expect((await db().charge.findUniqueOrThrow({ where: { id: chargeId } })).status).toBe(before.status);
    },
  );
});

describe('notifications that change nothing', () => {
  /** The charge and its modifications as they stand. */
  const snapshot = async (chargeId: string) => ({
    charge: await db().charge.findUniqueOrThrow({ where: { id: chargeId }, select: { status: true, capturedAmount: true } }),
    modifications: (await modificationsOf(chargeId)).map((m) => m.status),
    notifications: await db().providerNotification.count(),
  });

  it('refuses a forged, a tampered, another account’s and another provider’s notification, logged without secrets', async () => {
    const chargeId = await charge(adyenId, false);
    await a.api.post(`/charge/${chargeId}/capture`, {});
    await settled(chargeId);
    const before = await snapshot(chargeId);
    const genuine = await captureItem(chargeId);

    const forged = await post(adyenId, notificationBody([await captureItem(chargeId, OTHER_HMAC_KEY)]));
    const tampered = await post(adyenId, notificationBody([{ ...genuine, amount: { currency: 'EUR', value: 1 } }]));
    const otherAccount = await post(adyenId, notificationBody([await captureItem(chargeId, ADYEN.HmacKey, 'SomeoneElseECOM')]));
    const unsigned = await post(adyenId, notificationBody([{ ...genuine, additionalData: {} }]));
    // Signed with this provider's key, but sent to another provider (whose key differs, or that is not adyen).
    const other = await a.api.post('/provider', {
      type: 'adyen',
      name: 'Adyen 2',
      currency: 'EUR',
      authenticationParameters: { ...ADYEN, HmacKey: OTHER_HMAC_KEY },
    });
    const otherProvider = await post(String(other.body.providerId), notificationBody([genuine]));
    const stripeProvider = await post(stripeId, notificationBody([genuine]));
    const unknownProvider = await post('no-such-provider', notificationBody([genuine]));
    const malformedIds = await Promise.all(
      ['%E0%A4%A', '%00', 'a%00b', '4111111111111111', `${adyenId}x`].map((id) => post(id, notificationBody([genuine]))),
    );
    for (const answer of [forged, tampered, otherAccount, unsigned, otherProvider, stripeProvider]) {
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 40, message: 'The notification could not be verified' });
    }
    // Not a provider id (a UUID): 404 before the database, which refuses a NUL byte.
    expect([unknownProvider, ...malformedIds].map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(await snapshot(chargeId)).toEqual(before);
    const refusals = bed.t.logs.filter((line) => line.includes('provider notification refused'));
    expect(refusals.length).toBeGreaterThanOrEqual(7);
    const logs = bed.t.logs.join('');
    for (const secret of [ADYEN.HmacKey, OTHER_HMAC_KEY, ADYEN.ApiKey, STRIPE_WEBHOOK_SECRET]) expect(logs).not.toContain(secret);
    expect(logs).not.toContain(String(genuine.additionalData?.hmacSignature));
    expect(logs).not.toContain('4111111111111111');
  });

  it('takes a notification delivered again once: the replay is accepted and changes nothing', async () => {
    const chargeId = await charge(adyenId, false);
    adyen.failNextModification('capture');
    await a.api.post(`/charge/${chargeId}/capture`, {});
    await settled(chargeId);
    const failure = adyen.deliveries.findLast((d) => d.items[0]?.eventCode === 'CAPTURE' && d.items[0].success === 'false');
    expect(failure).toBeDefined();
    // Still authorised at Adyen: captured again (under a new idempotency key), successfully. The old
    // failure, delivered again, must not put the charge back.
    expect((await a.api.post(`/charge/${chargeId}/capture`, {})).body).toMatchObject({ status: 'SUCCESS' });
    expect((await settled(chargeId)).map((m) => m.status)).toEqual(['FAILED', 'CONFIRMED']);
    const before = await snapshot(chargeId);
    const replay = await post(adyenId, notificationBody(failure!.items));
    expect(replay).toEqual({ status: 200, body: '[accepted]' });
    expect(await snapshot(chargeId)).toEqual(before);
    expect(before.charge.status).toBe('SUCCESS');
    expect(bed.t.logs.some((line) => line.includes('provider notification repeated'))).toBe(true);
  });
});

describe('a stripe provider', () => {
  const STRIPE_CARD = { cardNumber: '4242424242424242', expiryDate: '12/30', ccv: '123', cardholder: 'Test Payer' };

  it('keeps a pending refund until Stripe’s signed event settles it; a failed one gives the amount back', async () => {
    const chargeId = await charge(stripeId, true, 20, STRIPE_CARD);
    stripe.setRefundStatus('pending');
    try {
      const refunded = await a.api.delete(`/charge/${chargeId}?amount=5`);
      expect(refunded.body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 5 });
    } finally {
      stripe.setRefundStatus('succeeded');
    }
    const [modification] = await modificationsOf(chargeId);
    expect(modification).toMatchObject({ kind: 'refund', status: 'PENDING', amount: 500n });
    const refundId = modification!.providerReference!;
    stripe.settleRefund(refundId, 'failed');
    const event = stripe.event('refund.updated', refundId);
    const url = notificationUrl(stripeId);

    // Signed by the gateway's clock, which an earlier test moved on.
    const timestamp = Math.floor(bed.clock.now().getTime() / 1000);
    const stale = await stripe.sendEvent(url, event, STRIPE_WEBHOOK_SECRET, { timestamp: timestamp - 600 });
    const wrongSecret = await stripe.sendEvent(url, event, 'whsec_someoneElsesSecret0123456789', { timestamp });
    expect([stale.status, wrongSecret.status]).toEqual([401, 401]);
    expect((await modificationsOf(chargeId))[0]?.status).toBe('PENDING');

    const taken = await stripe.sendEvent(url, event, STRIPE_WEBHOOK_SECRET, { timestamp });
    expect(taken).toEqual({ status: 200, body: '{"received":true}' });
    expect((await modificationsOf(chargeId))[0]).toMatchObject({ status: 'FAILED' });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0, refunds: [] });
    expect(await eventsAbout(chargeId)).toEqual(['SUCCESS', 'PARTIAL_REFUND', 'SUCCESS']);

    const again = await stripe.sendEvent(url, event, STRIPE_WEBHOOK_SECRET, { timestamp });
    expect(again.status).toBe(200);
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0 });
  });

  it('gives back a refund Stripe answered succeeded and failed later', async () => {
    const chargeId = await charge(stripeId, true, 20, STRIPE_CARD);
    expect((await a.api.delete(`/charge/${chargeId}?amount=8`)).body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 8 });
    // Done when answered: nothing waits.
    expect(await modificationsOf(chargeId)).toEqual([]);
    const refundId = (await db().refund.findFirstOrThrow({ where: { chargeId } })).providerRefundId!;
    // Stripe can fail a refund after it succeeded; the fake fails only pending ones, so the event says it.
    const event = stripe.event('refund.updated', refundId) as { data: { object: Record<string, unknown> } };
    event.data.object.status = 'failed';
    const timestamp = Math.floor(bed.clock.now().getTime() / 1000);
    expect(await stripe.sendEvent(notificationUrl(stripeId), event, STRIPE_WEBHOOK_SECRET, { timestamp })).toEqual({
      status: 200,
      body: '{"received":true}',
    });
    const [reversal] = await modificationsOf(chargeId);
    expect(reversal).toMatchObject({ kind: 'refund', status: 'FAILED', amount: 800n, dateConfirmed: expect.any(Date) });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'SUCCESS', refundedAmount: 0, refunds: [] });
    expect(await eventsAbout(chargeId)).toEqual(['SUCCESS', 'PARTIAL_REFUND', 'SUCCESS']);
    expect(await listedLine(reversal!.id)).toMatchObject({ chargeId, status: 'FAILED', reversedAfterConfirmation: true });
  });

  it('leaves a pending refund pending when its event has another amount; an event with no amount is not a mismatch', async () => {
    const chargeId = await charge(stripeId, true, 20, STRIPE_CARD);
    stripe.setRefundStatus('pending');
    try {
      await a.api.delete(`/charge/${chargeId}?amount=5`);
    } finally {
      stripe.setRefundStatus('succeeded');
    }
    const [pending] = await modificationsOf(chargeId);
    stripe.settleRefund(pending!.providerReference!, 'succeeded');
    const timestamp = Math.floor(bed.clock.now().getTime() / 1000);
    const send = (event: Record<string, unknown>) =>
      stripe.sendEvent(notificationUrl(stripeId), event, STRIPE_WEBHOOK_SECRET, { timestamp });
    const refundEvent = () =>
      stripe.event('refund.updated', pending!.providerReference!) as { id: string; data: { object: Record<string, unknown> } };

    const other = refundEvent();
    other.data.object.amount = 400;
    expect((await send(other)).status).toBe(200);
    expect(await db().providerModification.findUniqueOrThrow({ where: { id: pending!.id } })).toMatchObject({
      status: 'PENDING',
      notifiedAmount: 400n,
      notifiedCurrency: 'EUR',
    });
    expect(await listedLine(pending!.id)).toMatchObject({ amount: 5, currency: 'EUR', notified: { amount: 4, currency: 'EUR' } });
    expect((await a.api.get(`/charge/${chargeId}`)).body).toMatchObject({ status: 'PARTIAL_REFUND', refundedAmount: 5 });

    const none = refundEvent();
    delete none.data.object.amount;
    expect((await send(none)).status).toBe(200);
    expect(await db().providerModification.findUniqueOrThrow({ where: { id: pending!.id } })).toMatchObject({ status: 'CONFIRMED' });
    expect(await db().providerNotification.findFirstOrThrow({ where: { notificationId: none.id } })).toMatchObject({
      amount: null,
      currency: null,
      mismatch: false,
    });
  });
});

describe('the dashboard', () => {
  it('checks a provider’s credentials with one harmless call, never echoing them', async () => {
    const check = (providerId: string) => asStaff<Record<string, unknown>>('dashboard.checkProviderCredentials', { providerId }, 'POST');
    expect(await check(adyenId)).toEqual({ ok: true, message: 'Adyen accepted the credentials.' });
    expect(await check(stripeId)).toEqual({ ok: true, message: 'Stripe accepted the credentials.' });
    const wrong = await a.api.post('/provider', {
      type: 'stripe',
      name: 'Stripe, wrong key',
      currency: 'EUR',
      authenticationParameters: { SecretKey: 'sk_test_51FakeGatewayNotSoRight0001' },
    });
    const refused = await check(String(wrong.body.providerId));
    expect(refused).toEqual({
      ok: false,
      cause: 'refused',
      httpStatus: 401,
      message: 'Stripe refused the credentials (HTTP 401): check the key and the account they belong to.',
    });
    expect(JSON.stringify(refused)).not.toContain('NotSoRight');
    expect(stripe.requests.filter((r) => r.path === '/v1/balance').map((r) => r.status)).toEqual([200, 401]);
  });
});

describe('housekeeping', () => {
  it('forgets notification ids once no provider redelivers them (35 days)', async () => {
    const count = () => db().providerNotification.count();
    const kept = await count();
    expect(kept).toBeGreaterThan(0);
    // Moving the clock runs what fell due, the maintenance sweep among it.
    await bed.advance(34 * 24 * 60 * 60_000);
    await bed.t.gateway.services.notifications.sweep();
    expect(await count()).toBe(kept);
    await bed.advance(2 * 24 * 60 * 60_000);
    await bed.t.gateway.services.notifications.sweep();
    expect(await count()).toBe(0);
  });
});

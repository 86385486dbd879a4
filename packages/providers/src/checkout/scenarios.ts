/**
 * The Checkout.com connector's scenarios, run against the fake (connector.test.ts) and against
 * Checkout.com's sandbox (checkout.sandbox.test.ts): the same calls, the same expectations.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { CardDetails, PaymentSource, ProviderConnector, ProviderResult } from '../connector.js';
import { failureOf, kept, valueOf } from '../testing.js';

export const APPROVED = '4242424242424242';
export const INSUFFICIENT_FUNDS = '4544249167673670';
export const THREE_D_SECURE = '4543474002249996';

export const card = (number = APPROVED, changes: Partial<CardDetails> = {}): CardDetails => ({
  number,
  expiryMonth: 12,
  expiryYear: 2030,
  cvc: number === THREE_D_SECURE ? '956' : '100',
  cardholder: 'Test Payer',
  ...changes,
});
const cardSource = (number = APPROVED): PaymentSource => ({ type: 'card', card: card(number) });
export const attemptKey = () => `${randomUUID()}:1`;
const payment = (source: PaymentSource, capture = false, amount = 1000n) => ({
  idempotencyKey: attemptKey(),
  amount,
  currency: 'EUR',
  capture,
  source,
  reference: 'order-1042',
});

/** A call asked again, as the gateway's jobs would, while its outcome is not known yet (Checkout.com makes actions later). */
async function settled<T>(call: () => Promise<ProviderResult<T>>, timeoutMs = 30_000): Promise<ProviderResult<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await call();
    if (result.ok || !result.failure.retryable || Date.now() > deadline) return result;
    await sleep(1_000);
  }
}

/** The scenarios of a connector of a provider with webhooks (a WebhookSecret): captures, voids and refunds answer pending. */
export function checkoutScenarios(context: () => { connector: ProviderConnector; wrongKey: ProviderConnector }) {
  it('authorises a card, captures part of it, refunds part of the capture: each answered pending with its action id', async () => {
    const { connector } = context();
    const auth = valueOf(await connector.authorise(payment(cardSource())));
    expect(auth).toMatchObject({ captured: false, amount: 1000n, card: { iin: '424242', last4: '4242', length: 16 } });
    expect(auth.providerChargeId).toMatch(/^pay_/);
    const key = attemptKey();
    const capture = valueOf(
      await connector.capture({ providerChargeId: auth.providerChargeId, amount: 600n, currency: 'EUR', idempotencyKey: key }),
    );
    expect(capture).toMatchObject({ amount: 600n, pending: true });
    expect(capture.providerReference).toMatch(/^act_/);
    // The same key again: the same action, not a second capture.
    const again = valueOf(
      await connector.capture({ providerChargeId: auth.providerChargeId, amount: 600n, currency: 'EUR', idempotencyKey: key }),
    );
    expect(again.providerReference).toBe(capture.providerReference);
    const refund = valueOf(
      await connector.refund({ providerChargeId: auth.providerChargeId, amount: 250n, currency: 'EUR', idempotencyKey: attemptKey() }),
    );
    expect(refund).toMatchObject({ pending: true, providerRefundId: refund.providerReference });
  });

  it('makes a sale as an authorisation and a capture pending until its notification', async () => {
    const { connector } = context();
    const sale = valueOf(await connector.authorise(payment(cardSource(), true)));
    expect(sale).toMatchObject({ captured: true, capture: { pending: true } });
    expect(sale.capture?.providerReference).toMatch(/^act_/);
  });

  it('voids an authorisation', async () => {
    const { connector } = context();
    const auth = valueOf(await connector.authorise(payment(cardSource())));
    const voided = valueOf(await connector.void({ providerChargeId: auth.providerChargeId, idempotencyKey: attemptKey() }));
    expect(voided).toMatchObject({ pending: true });
  });

  it('declines with the response code of the card (20051 insufficient funds)', async () => {
    const { connector } = context();
    const declined = failureOf(await connector.authorise(payment(cardSource(INSUFFICIENT_FUNDS))));
    expect(declined).toMatchObject({ category: 'insufficient_funds', gatewayCode: '20051', retryable: false });
  });

  it('declines a card whose issuer needs 3-D Secure when the payer cannot be asked (20154)', async () => {
    const { connector } = context();
    const declined = failureOf(await connector.authorise(payment(cardSource(THREE_D_SECURE))));
    expect(declined).toMatchObject({ category: 'authentication_required', gatewayCode: '20154' });
  });

  it('verifies a card with a zero amount; its void has nothing to undo', async () => {
    const { connector } = context();
    const verified = valueOf(await connector.authorise(payment(cardSource(), false, 0n)));
    expect(verified).toMatchObject({ amount: 0n, captured: false });
    expect(valueOf(await connector.void({ providerChargeId: verified.providerChargeId, idempotencyKey: attemptKey() }))).toEqual({});
  });

  it('stores a card, charges it merchant-initiated, describes, updates and deletes it', async () => {
    const { connector } = context();
    const stored = valueOf(await connector.storeCard({ idempotencyKey: attemptKey(), source: { type: 'card', card: card() } }));
    expect(stored.providerToken).toMatch(/^src_/);
    expect(stored.providerData?.paymentId).toMatch(/^pay_/);
    const repeat = valueOf(
      await connector.authorise({
        ...payment({ type: 'stored_card', providerToken: stored.providerToken, providerData: stored.providerData }),
        recurring: true,
      }),
    );
    expect(repeat.card).toMatchObject({ last4: '4242', length: 16 });
    const described = valueOf(await connector.describeStoredCard(stored));
    expect(described.card).toMatchObject({ last4: '4242', expiryMonth: 12, expiryYear: 2030 });
    const updated = valueOf(await connector.updateStoredCard({ ...stored, expiryYear: 2031 }));
    expect(updated.card.expiryYear).toBe(2031);
    valueOf(await connector.deleteStoredCard(stored));
    expect(failureOf(await connector.describeStoredCard(stored)).category).toBe('not_found');
  });

  it('reverses an attempt whose answer was lost, found by its reference', async () => {
    const { connector } = context();
    const { req, reverse } = kept(payment(cardSource()));
    valueOf(await connector.authorise(req));
    // As if the answer never came: the gateway knows the attempt's key only.
    valueOf(await settled(() => connector.reverse({ ...reverse(), providerData: undefined })));
  });

  it('checks credentials: good ones pass, a wrong key is refused', async () => {
    const { connector, wrongKey } = context();
    expect(await connector.checkCredentials()).toEqual({ ok: true });
    expect(await wrongKey.checkCredentials()).toEqual({ ok: false, cause: 'refused', httpStatus: 401 });
  });
}

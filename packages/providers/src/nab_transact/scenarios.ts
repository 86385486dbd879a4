import { expect, it } from 'vitest';
import type { AuthoriseRequest, CardDetails, ProviderConnector } from '../connector.js';
import { failureOf, kept, valueOf } from '../testing.js';

/**
 * What a NAB Transact connector must do, against the fake (connector.test.ts) or NAB's test gateway
 * (nab_transact.sandbox.test.ts). NAB's test system picks the bank response code by the cents of the
 * amount: x.00 approves, x.51 is insufficient funds, x.05 do not honour.
 */
export const TEST_CARD: CardDetails = {
  number: '4444333322221111',
  expiryMonth: 12,
  expiryYear: 2030,
  cvc: '123',
  cardholder: 'Test Payer',
};

let sequence = 0;
/** A key per call, unique across runs (the sandbox keeps every purchase order number). */
export const key = (name: string) => `${name}-${Date.now().toString(36)}-${++sequence}:1`;

export const payment = (fields: Partial<AuthoriseRequest> = {}): AuthoriseRequest => ({
  idempotencyKey: key('pay'),
  amount: 1000n,
  currency: 'AUD',
  capture: true,
  source: { type: 'card', card: TEST_CARD },
  ...fields,
});

export function nabScenarios(setup: () => { connector: ProviderConnector }) {
  const connector = () => setup().connector;

  it('takes a purchase, refunds part of it, then the rest, and no more', async () => {
    const sale = valueOf(await connector().authorise(payment({ amount: 1000n })));
    expect(sale).toMatchObject({ captured: true, amount: 1000n, card: { iin: '444433', last4: '1111', length: 16 } });
    valueOf(await connector().refund({ providerChargeId: sale.providerChargeId, amount: 400n, idempotencyKey: key('refund') }));
    valueOf(await connector().refund({ providerChargeId: sale.providerChargeId, amount: 600n, idempotencyKey: key('refund') }));
    const tooMuch = failureOf(
      await connector().refund({ providerChargeId: sale.providerChargeId, amount: 100n, idempotencyKey: key('refund') }),
    );
    expect(tooMuch).toMatchObject({ category: 'invalid_amount', gatewayCode: '134', retryable: false });
  });

  it('pre-authorises, then completes part of it', async () => {
    const authorised = valueOf(await connector().authorise(payment({ amount: 2000n, capture: false })));
    expect(authorised).toMatchObject({ captured: false, amount: 2000n });
    const captured = valueOf(
      await connector().capture({ providerChargeId: authorised.providerChargeId, amount: 1500n, idempotencyKey: key('capture') }),
    );
    // The completion is a transaction of its own: the payment is named by it from now on, and refunds quote it.
    expect(captured).toEqual({ amount: 1500n, providerChargeId: expect.any(String) });
    expect(captured.providerChargeId?.split('*')[0]).not.toBe(authorised.providerChargeId.split('*')[0]);
    const refunded = await connector().refund({
      providerChargeId: captured.providerChargeId ?? '',
      amount: 500n,
      idempotencyKey: key('refund'),
    });
    expect(refunded.ok).toBe(true);
    // The pre-authorisation itself is no payment to refund.
    const byPreauth = await connector().refund({
      providerChargeId: authorised.providerChargeId,
      amount: 500n,
      idempotencyKey: key('refund-2'),
    });
    expect(byPreauth.ok).toBe(false);
  });

  it('voids a pre-authorisation by reversing it', async () => {
    const authorised = valueOf(await connector().authorise(payment({ capture: false })));
    valueOf(await connector().void({ providerChargeId: authorised.providerChargeId, idempotencyKey: key('void') }));
  });

  it('answers declines by their response code, never NAB’s text', async () => {
    expect(failureOf(await connector().authorise(payment({ amount: 1051n })))).toEqual({
      category: 'insufficient_funds',
      retryable: false,
      gatewayCode: '51',
      gatewayMessage: 'Insufficient funds',
    });
    expect(failureOf(await connector().authorise(payment({ amount: 1005n })))).toMatchObject({
      category: 'do_not_honour',
      gatewayCode: '05',
    });
  });

  it('keeps a card under a customer reference number, pays with it merchant-initiated, and forgets it', async () => {
    const stored = valueOf(await connector().storeCard({ idempotencyKey: key('store'), source: { type: 'card', card: TEST_CARD } }));
    expect(stored).toMatchObject({ providerToken: expect.stringMatching(/^[A-Z0-9]{20}$/), card: { last4: '1111' } });
    const source = { type: 'stored_card' as const, providerToken: stored.providerToken };
    const repeat = valueOf(await connector().authorise(payment({ source, recurring: true, amount: 700n })));
    expect(repeat).toMatchObject({ captured: true, amount: 700n });
    valueOf(await connector().refund({ providerChargeId: repeat.providerChargeId, amount: 700n, idempotencyKey: key('refund') }));
    expect(failureOf(await connector().authorise(payment({ source, capture: false })))).toMatchObject({ category: 'unsupported' });
    valueOf(await connector().deleteStoredCard({ providerToken: stored.providerToken }));
    expect(failureOf(await connector().authorise(payment({ source })))).toMatchObject({ retryable: false });
  });

  it('reverses an attempt by the transaction id kept as soon as NAB answered', async () => {
    const { req, reverse } = kept(payment());
    valueOf(await connector().authorise(req));
    valueOf(await connector().reverse(reverse()));
  });

  it('answers outcome unknown, not retryable, for an attempt NAB never answered', async () => {
    const failure = failureOf(await connector().reverse({ idempotencyKey: key('lost'), amount: 1000n, currency: 'AUD', capture: true }));
    expect(failure).toMatchObject({ gatewayCode: 'OUTCOME_UNKNOWN', retryable: false });
  });

  it('takes the credentials', async () => {
    expect(await connector().checkCredentials()).toEqual({ ok: true });
  });
}

/**
 * The Adyen connector's scenarios, written once: contract tests run them against the fake
 * (connector.test.ts, which also looks at what the fake received), sandbox tests against Adyen's
 * test endpoint (connector.sandbox.test.ts).
 */
import type { FakeAdyen } from '@gateway/provider-fakes';
import { describe, expect, it } from 'vitest';
import type { PaymentSource, ProviderConnector } from '../connector.js';
import { failureOf, kept, valueOf } from '../testing.js';
import { REFUSALS } from './codes.js';
import { attemptKey, authentication, card, cardSource, payment, resultRequest, THREE_D_SECURE_CARD, VISA } from './testing.js';

export interface ScenarioContext {
  connector: ProviderConnector;
  /** The same endpoint with a wrong API key. */
  wrongKey: ProviderConnector;
  /** The fake, in contract tests: scenarios then also check what it holds. */
  fake?: FakeAdyen;
  /** A stored payment method id the merchant brings, with its shopperReference. */
  broughtToken(): Promise<{ providerToken: string; shopperReference: string }>;
}

const DECLINES = [
  ['DECLINED', 'do_not_honour', '2'],
  ['NOT_ENOUGH_BALANCE', 'insufficient_funds', '12'],
  ['CARD_EXPIRED', 'expired_card', '6'],
  ['CVC_DECLINED', 'invalid_cvc', '24'],
  ['FRAUD', 'suspected_fraud', '20'],
  ['BLOCK_CARD', 'stolen_card', '5'],
] as const;

export function adyenScenarios(context: () => ScenarioContext): void {
  const ctx = () => context();
  const authorised = async (extra: Parameters<typeof payment>[1] = {}, source: PaymentSource = cardSource()) => {
    const req = payment(source, extra);
    return { req, value: valueOf(await ctx().connector.authorise(req)) };
  };

  describe('credentials', () => {
    it('checks them with one harmless call', async () => {
      expect(await ctx().connector.checkCredentials()).toEqual({ ok: true });
    });

    it('says when Adyen refuses the API key', async () => {
      expect(await ctx().wrongKey.checkCredentials()).toEqual({ ok: false, cause: 'refused', httpStatus: 401 });
    });
  });

  describe('authorise', () => {
    it('authorises only, under the attempt key as reference', async () => {
      const { req, value } = await authorised();
      expect(value).toEqual({
        providerChargeId: expect.any(String),
        captured: false,
        amount: 1000n,
        card: { iin: '411111', last4: '1111', length: 16, expiryMonth: 3, expiryYear: 2030, cardholder: 'Test Holder' },
      });
      if (ctx().fake) {
        expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({
          reference: req.idempotencyKey,
          merchantOrderReference: 'order-1042',
          currency: 'EUR',
          value: 1000,
          manualCapture: true,
          captured: 0,
        });
      }
    });

    it('takes a sale: authorises, then captures (pending until Adyen confirms)', async () => {
      const { value } = await authorised({ capture: true });
      expect(value).toMatchObject({ captured: true, amount: 1000n, capture: { pending: true, providerReference: expect.any(String) } });
      if (ctx().fake)
        expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({
          captured: 1000,
          modifications: [{ kind: 'capture', value: 1000 }],
        });
    });

    it.each(DECLINES)('declines a card held by %s as %s', async (holderName, category, code) => {
      const failure = failureOf(await ctx().connector.authorise(payment(cardSource(VISA, { cardholder: holderName }))));
      expect(failure).toEqual({ category, retryable: false, gatewayCode: `REFUSED_${code}`, gatewayMessage: REFUSALS[code]!.message });
      expect(JSON.stringify(failure)).not.toContain(VISA);
    });

    it('answers that 3-D Secure is needed for a card whose issuer asks for it, when the payer cannot be asked', async () => {
      const req = payment(cardSource(THREE_D_SECURE_CARD));
      const failure = failureOf(await ctx().connector.authorise(req));
      expect(failure).toMatchObject({ category: 'authentication_required', retryable: false, gatewayCode: 'RedirectShopper' });
      // Nothing stays pending at Adyen.
      if (ctx().fake)
        expect(
          ctx()
            .fake!.payments()
            .filter((p) => p.reference === req.idempotencyKey),
        ).toMatchObject([{ cancelled: true }]);
    });

    it('sends yen as whole yen', async () => {
      const { req, value } = await authorised({ currency: 'JPY', amount: 1500n });
      expect(value.amount).toBe(1500n);
      if (ctx().fake)
        expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({ reference: req.idempotencyKey, currency: 'JPY', value: 1500 });
    });

    it('refuses an amount Adyen cannot express without calling it', async () => {
      const req = payment(cardSource(), { currency: 'IDR', amount: 1050n });
      expect(failureOf(await ctx().connector.authorise(req))).toMatchObject({ category: 'invalid_amount', retryable: false });
      if (ctx().fake)
        expect(
          ctx()
            .fake!.payments()
            .filter((p) => p.reference === req.idempotencyKey),
        ).toEqual([]);
    });
  });

  describe('3-D Secure through Adyen’s redirect', () => {
    it('asks for a challenge, waits for the payer, and the reversal of the abandoned payment cancels it', async () => {
      const { req, reverse } = kept(payment(cardSource(THREE_D_SECURE_CARD), { authentication: authentication() }));
      const value = valueOf(await ctx().connector.authorise(req));
      expect(value).toMatchObject({ providerChargeId: expect.any(String), captured: false, amount: 1000n });
      expect(value.challenge?.redirect.url).toMatch(/^https?:\/\//);
      const asked = {
        providerChargeId: value.providerChargeId,
        idempotencyKey: req.idempotencyKey,
        amount: 1000n,
        currency: 'EUR',
        capture: false,
      };
      expect(valueOf(await ctx().connector.authenticationResult(asked))).toEqual({ state: 'waiting' });
      valueOf(await ctx().connector.reverse(reverse({ providerChargeId: value.providerChargeId })));
      if (ctx().fake) expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({ resultCode: 'RedirectShopper', cancelled: true });
    });
  });

  describe('captures, voids and refunds', () => {
    it('captures part of an authorisation', async () => {
      const { value } = await authorised();
      const capture = valueOf(
        await ctx().connector.capture({
          providerChargeId: value.providerChargeId,
          amount: 600n,
          currency: 'EUR',
          idempotencyKey: attemptKey(),
        }),
      );
      expect(capture).toEqual({ amount: 600n, pending: true, providerReference: expect.any(String) });
      if (ctx().fake) expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({ captured: 600 });
    });

    it('voids an authorisation', async () => {
      const { value } = await authorised();
      expect(valueOf(await ctx().connector.void({ providerChargeId: value.providerChargeId, idempotencyKey: attemptKey() }))).toEqual({
        pending: true,
        providerReference: expect.any(String),
      });
      if (ctx().fake) expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({ cancelled: true });
    });

    it('refunds part of a sale', async () => {
      const { value } = await authorised({ capture: true });
      const refund = valueOf(
        await ctx().connector.refund({
          providerChargeId: value.providerChargeId,
          amount: 400n,
          currency: 'EUR',
          idempotencyKey: attemptKey(),
        }),
      );
      expect(refund).toEqual({ providerRefundId: expect.any(String), pending: true, providerReference: refund.providerRefundId });
      if (ctx().fake) expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({ captured: 1000, refunded: 400 });
    });

    it('needs the currency with an amount', async () => {
      const { value } = await authorised();
      const failure = failureOf(
        await ctx().connector.capture({ providerChargeId: value.providerChargeId, amount: 600n, idempotencyKey: attemptKey() }),
      );
      expect(failure).toMatchObject({ category: 'invalid_request', gatewayCode: 'NO_CURRENCY' });
    });
  });

  describe('reverse (an authorise call whose outcome the gateway does not know)', () => {
    // Sandbox-safe: each reverses a payment made just before, as the gateway would after a timeout.
    const attempt = async (extra: Parameters<typeof payment>[1] = {}) => {
      const { req, reverse } = kept(payment(cardSource(), extra));
      return { reverse, value: valueOf(await ctx().connector.authorise(req)) };
    };

    it('cancels an authorisation by its pspReference', async () => {
      const { reverse, value } = await attempt();
      valueOf(await ctx().connector.reverse(reverse({ providerChargeId: value.providerChargeId })));
      if (ctx().fake)
        expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({
          cancelled: true,
          modifications: [{ kind: 'reversal', action: 'cancel', status: 'succeeded' }],
        });
    });

    it('refunds a sale by its pspReference', async () => {
      const { reverse, value } = await attempt({ capture: true });
      valueOf(await ctx().connector.reverse(reverse({ providerChargeId: value.providerChargeId })));
      if (ctx().fake) expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({ captured: 1000, refunded: 1000 });
    });

    it('cancels by the attempt key as reference when Adyen gave no pspReference (technical cancel)', async () => {
      const { reverse, value } = await attempt();
      valueOf(await ctx().connector.reverse(reverse()));
      if (ctx().fake)
        expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({
          cancelled: true,
          modifications: [{ kind: 'technicalCancel', status: 'succeeded' }],
        });
    });
  });

  describe('stored cards', () => {
    const owner = () => `pm_${attemptKey().slice(0, 18)}`;
    const store = async (ownerReference = owner()) =>
      valueOf(await ctx().connector.storeCard({ idempotencyKey: attemptKey(), source: { type: 'card', card: card() }, ownerReference }));
    const storedSource = (stored: { providerToken: string; providerData?: Record<string, string> }, cvc?: string): PaymentSource => ({
      type: 'stored_card',
      providerToken: stored.providerToken,
      providerData: stored.providerData,
      ...(cvc !== undefined && { cvc }),
    });

    it('stores a card for its owner and describes it', async () => {
      const ownerReference = owner();
      const stored = await store(ownerReference);
      const summary = { iin: '411111', last4: '1111', length: 16, expiryMonth: 3, expiryYear: 2030, cardholder: 'Test Holder' };
      expect(stored).toEqual({ providerToken: expect.any(String), providerData: { shopperReference: ownerReference }, card: summary });
      expect(valueOf(await ctx().connector.describeStoredCard(stored))).toEqual(stored);
    });

    it.each([
      ['with its CVC', '737', false, 'Ecommerce', 'CardOnFile'],
      ['without a CVC', undefined, false, 'ContAuth', 'CardOnFile'],
      ['as a merchant-initiated repeat', undefined, true, 'ContAuth', 'UnscheduledCardOnFile'],
    ] as const)('charges a stored card %s', async (_, cvc, recurring, shopperInteraction, recurringProcessingModel) => {
      const stored = await store();
      const { value } = await authorised({ capture: true, recurring }, storedSource(stored, cvc));
      expect(value).toMatchObject({ captured: true, amount: 1000n });
      if (ctx().fake) {
        expect(ctx().fake!.payment(value.providerChargeId)).toMatchObject({
          storedPaymentMethodId: stored.providerToken,
          shopperReference: stored.providerData!.shopperReference,
          shopperInteraction,
          recurringProcessingModel,
          cvcSent: cvc !== undefined,
        });
      }
    });

    it('describes and charges a stored payment method id the merchant brings', async () => {
      const { providerToken, shopperReference } = await ctx().broughtToken();
      const described = valueOf(await ctx().connector.describeStoredCard({ providerToken, providerData: { shopperReference } }));
      expect(described.card).toMatchObject({ iin: '411111', last4: '1111', expiryMonth: 3, expiryYear: 2030 });
      valueOf(
        await ctx().connector.authorise(payment(storedSource({ providerToken, providerData: { shopperReference } }), { recurring: true })),
      );
    });

    it('needs the shopperReference of a stored payment method id', async () => {
      const stored = await store();
      const failure = failureOf(await ctx().connector.authorise(payment(storedSource({ providerToken: stored.providerToken }))));
      expect(failure).toMatchObject({ category: 'invalid_request', gatewayCode: 'NO_SHOPPER_REFERENCE' });
    });

    it('deletes a stored card, which Adyen then no longer knows', async () => {
      const stored = await store();
      valueOf(await ctx().connector.deleteStoredCard(stored));
      expect(failureOf(await ctx().connector.describeStoredCard(stored))).toMatchObject({
        category: 'not_found',
        gatewayCode: 'ERROR_800',
      });
    });

    it('does not offer to update a stored card', async () => {
      const stored = await store();
      expect(failureOf(await ctx().connector.updateStoredCard({ ...stored, expiryYear: 2031 }))).toMatchObject({ category: 'unsupported' });
    });
  });

  describe('what Adyen is not used for here', () => {
    it.each([
      ['network tokens', (c: ProviderConnector) => c.authorise(payment({ type: 'network_token', networkTokenId: 'ntok_1' }))],
      [
        'wallets',
        (c: ProviderConnector) =>
          c.authorise(
            payment({ type: 'wallet', wallet: 'apple_pay', paymentData: { data: '', signature: '', header: {}, version: 'EC_v1' } }),
          ),
      ],
      [
        'single-use tokens',
        (c: ProviderConnector) => c.storeCard({ idempotencyKey: attemptKey(), source: { type: 'single_use_token', token: 'tok_1' } }),
      ],
      [
        'bank debits',
        (c: ProviderConnector) =>
          c.debit({
            idempotencyKey: attemptKey(),
            amount: 100n,
            currency: 'AUD',
            account: { type: 'bank_account', bankCode: '000000', accountNumber: '1', accountName: 'A' },
          }),
      ],
      [
        'PayTo',
        (c: ProviderConnector) =>
          c.createPayToAgreement({
            idempotencyKey: attemptKey(),
            payerName: 'A',
            payId: 'a@b.c',
            payIdType: 'EMAIL',
            description: 'd',
            maximumAmount: 1n,
            currency: 'AUD',
          }),
      ],
      ['network token creation', (c: ProviderConnector) => c.createNetworkToken({ idempotencyKey: attemptKey(), providerToken: 'x' })],
    ])('answers %s as unsupported, naming the type', async (_, call) => {
      const failure = failureOf(await call(ctx().connector));
      expect(failure).toMatchObject({ category: 'unsupported', retryable: false });
      expect(failure.gatewayMessage).toContain('adyen');
    });
  });
}

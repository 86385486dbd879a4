/**
 * The Stripe connector's scenarios, written once: stripe.test.ts runs them against the fake Stripe,
 * stripe.sandbox.test.ts against Stripe's test mode (`npm run test:sandbox`).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AuthenticationRequest,
  AuthenticationResultRequest,
  AuthoriseRequest,
  PaymentSource,
  ProviderConnector,
  ProviderFailure,
} from '../connector.js';
import { failureOf, kept, valueOf } from '../testing.js';

export interface StripeTarget {
  connector: ProviderConnector;
  /** Whether the account may send raw card numbers (otherwise test payment methods stand for the cards). */
  rawCards: boolean;
  /** A single-use card token, as Stripe.js hands one to a merchant's page. */
  clientToken(): string;
  /** An unattached payment method, as Stripe.js makes one on a merchant's page. */
  clientPaymentMethod(): string;
}

interface TestCard {
  number: string;
  /** Stripe's test payment method for the same card. */
  paymentMethod: string;
  /** What the connector answers when it is charged (absent: approved). */
  failure?: Pick<ProviderFailure, 'category' | 'gatewayCode' | 'retryable'>;
}

const refusal = (category: ProviderFailure['category'], gatewayCode: string, retryable = false) => ({ category, gatewayCode, retryable });

/** Stripe's test cards (stripe.com/docs/testing) and the failure each one must give. */
export const TEST_CARDS = {
  visa: { number: '4242424242424242', paymentMethod: 'pm_card_visa' },
  mastercard: { number: '5555555555554444', paymentMethod: 'pm_card_mastercard' },
  declined: {
    number: '4000000000000002',
    paymentMethod: 'pm_card_visa_chargeDeclined',
    failure: refusal('do_not_honour', 'card_declined/generic_decline'),
  },
  insufficientFunds: {
    number: '4000000000009995',
    paymentMethod: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    failure: refusal('insufficient_funds', 'card_declined/insufficient_funds'),
  },
  lost: {
    number: '4000000000009987',
    paymentMethod: 'pm_card_visa_chargeDeclinedLostCard',
    failure: refusal('stolen_card', 'card_declined/lost_card'),
  },
  stolen: {
    number: '4000000000009979',
    paymentMethod: 'pm_card_visa_chargeDeclinedStolenCard',
    failure: refusal('stolen_card', 'card_declined/stolen_card'),
  },
  expired: {
    number: '4000000000000069',
    paymentMethod: 'pm_card_chargeDeclinedExpiredCard',
    failure: refusal('expired_card', 'expired_card'),
  },
  incorrectCvc: {
    number: '4000000000000127',
    paymentMethod: 'pm_card_chargeDeclinedIncorrectCvc',
    failure: refusal('invalid_cvc', 'incorrect_cvc'),
  },
  processingError: {
    number: '4000000000000119',
    paymentMethod: 'pm_card_chargeDeclinedProcessingError',
    failure: refusal('processor_error', 'processing_error', true),
  },
  velocity: {
    number: '4000000000006975',
    paymentMethod: 'pm_card_visa_chargeDeclinedVelocityLimitExceeded',
    failure: refusal('over_limit', 'card_declined/card_velocity_exceeded'),
  },
  fraudulent: {
    number: '4100000000000019',
    paymentMethod: 'pm_card_radarBlock',
    failure: refusal('suspected_fraud', 'card_declined/fraudulent'),
  },
  threeDSecure: {
    number: '4000000000003220',
    paymentMethod: 'pm_card_threeDSecure2Required',
    failure: refusal('authentication_required', 'REQUIRES_ACTION'),
  },
  /** Attaches to a customer, declines when charged. */
  customerFail: {
    number: '4000000000000341',
    paymentMethod: 'pm_card_chargeCustomerFail',
    failure: refusal('do_not_honour', 'card_declined/generic_decline'),
  },
} satisfies Record<string, TestCard>;

export const EXPIRY = { expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 3 };
export const CVC = '123';

/** A card as the target can take it: its number (raw card data), or Stripe's test payment method for it. */
export function cardSource(target: StripeTarget, card: TestCard): PaymentSource {
  return target.rawCards
    ? { type: 'card', card: { number: card.number, ...EXPIRY, cvc: CVC, cardholder: 'Ada Lovelace' } }
    : { type: 'stored_card', providerToken: card.paymentMethod };
}

export function payment(source: PaymentSource, extra: Partial<AuthoriseRequest> = {}): AuthoriseRequest {
  return { idempotencyKey: `test-${randomUUID()}`, amount: 1250n, currency: 'USD', capture: false, source, ...extra };
}

/** Where Stripe sends the payer back after a challenge: the gateway's return URL for the charge. */
export const RETURN_URL = 'https://gateway.example/3ds/return/0b9f6c1e?state=abc';

/** A payer at a browser who can be sent to the card's issuer for 3-D Secure. */
export function payerPresent(request?: AuthenticationRequest['request']): AuthenticationRequest {
  return {
    returnUrl: RETURN_URL,
    origin: 'https://shop.example',
    browser: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', acceptHeader: 'text/html' },
    merchantName: 'Corner Shop',
    ...(request && { request }),
  };
}

/** The gateway's question about a payment that waited for 3-D Secure, made with `req`. */
export function authenticationQuery(
  req: AuthoriseRequest,
  providerChargeId: string,
  returned?: Record<string, string>,
): AuthenticationResultRequest {
  const { idempotencyKey, amount, currency, capture } = req;
  return { providerChargeId, idempotencyKey, amount, currency, capture, ...(returned && { returned }) };
}

/** A capture or refund of a USD charge (the key made up when not given). */
export function modification(providerChargeId: string, amount: bigint, idempotencyKey = `m-${randomUUID()}`) {
  return { providerChargeId, amount, currency: 'USD', idempotencyKey };
}

const declining = Object.entries(TEST_CARDS).filter(([, card]) => 'failure' in card) as [string, Required<TestCard>][];

/** The scenarios every target must pass. `setup` runs before them (in beforeAll). */
export function stripeScenarios(setup: () => Promise<StripeTarget> | StripeTarget): void {
  let target: StripeTarget;
  let connector: ProviderConnector;
  beforeAll(async () => {
    target = await setup();
    connector = target.connector;
  });

  describe('authorise', () => {
    it('authorises only, then captures part and refunds part', async () => {
      const req = payment(cardSource(target, TEST_CARDS.visa));
      const auth = valueOf(await connector.authorise(req));
      expect(auth).toMatchObject({ providerChargeId: expect.stringMatching(/^pi_/), captured: false, amount: 1250n });
      const capture = valueOf(await connector.capture(modification(auth.providerChargeId, 1000n, `${req.idempotencyKey}:c`)));
      expect(capture).toEqual({ amount: 1000n });
      const refund = valueOf(await connector.refund(modification(auth.providerChargeId, 400n, `${req.idempotencyKey}:r1`)));
      expect(refund.providerRefundId).toMatch(/^re_/);
      // Only 600 of the 1000 captured are left to refund.
      const over = failureOf(await connector.refund(modification(auth.providerChargeId, 700n, `${req.idempotencyKey}:r2`)));
      expect(over).toMatchObject({ category: 'invalid_amount', retryable: false });
    });

    it('sells (authorises and captures at once) and refunds without being told the currency', async () => {
      const auth = valueOf(
        await connector.authorise(
          payment(cardSource(target, TEST_CARDS.mastercard), { capture: true, reference: 'order-42', descriptor: 'ORDER 42' }),
        ),
      );
      expect(auth).toMatchObject({ captured: true, amount: 1250n });
      expect(
        valueOf(await connector.refund({ providerChargeId: auth.providerChargeId, amount: 1250n, idempotencyKey: `r-${randomUUID()}` }))
          .providerRefundId,
      ).toMatch(/^re_/);
    });

    it('voids an authorisation, which then cannot be captured', async () => {
      const auth = valueOf(await connector.authorise(payment(cardSource(target, TEST_CARDS.visa))));
      expect(valueOf(await connector.void({ providerChargeId: auth.providerChargeId, idempotencyKey: `v-${randomUUID()}` }))).toEqual({});
      const capture = failureOf(await connector.capture(modification(auth.providerChargeId, 1250n, `c-${randomUUID()}`)));
      expect(capture).toMatchObject({ category: 'invalid_request', gatewayCode: 'payment_intent_unexpected_state' });
    });

    it('answers the same authorisation for the same key', async () => {
      const req = payment(cardSource(target, TEST_CARDS.visa));
      const first = valueOf(await connector.authorise(req));
      expect(valueOf(await connector.authorise(req)).providerChargeId).toBe(first.providerChargeId);
    });

    it.each(declining)('declines the %s test card as the code table says', async (_name, card) => {
      const failure = failureOf(await connector.authorise(payment(cardSource(target, card))));
      expect(failure).toMatchObject(card.failure);
      expect(failure.gatewayMessage).not.toMatch(/your card/i);
    });

    it('does not find a payment intent it never made', async () => {
      const failure = failureOf(
        await connector.capture({
          providerChargeId: 'pi_unknown000000000000000',
          amount: 1n,
          currency: 'USD',
          idempotencyKey: `c-${randomUUID()}`,
        }),
      );
      expect(failure).toMatchObject({ category: 'not_found', gatewayCode: 'resource_missing' });
    });
  });

  describe('reverse (an authorise call whose outcome the gateway does not know)', () => {
    // Sandbox-safe: each reverses a payment made just before, as the gateway would after a timeout.
    const attempt = async (extra: Partial<AuthoriseRequest> = {}) => {
      const { req, reverse } = kept(payment(cardSource(target, TEST_CARDS.visa), extra));
      return { reverse, auth: valueOf(await connector.authorise(req)) };
    };
    const capture = (providerChargeId: string) => connector.capture(modification(providerChargeId, 1250n, `c-${randomUUID()}`));

    it('cancels an authorisation, found again by replaying the attempt under its key', async () => {
      const { reverse, auth } = await attempt();
      valueOf(await connector.reverse(reverse()));
      expect(failureOf(await capture(auth.providerChargeId))).toMatchObject({ gatewayCode: 'payment_intent_unexpected_state' });
      // Reversing again changes nothing more.
      valueOf(await connector.reverse(reverse()));
    });

    it('refunds a sale, by its payment intent id', async () => {
      const { reverse, auth } = await attempt({ capture: true });
      valueOf(await connector.reverse(reverse({ providerChargeId: auth.providerChargeId })));
      const again = await connector.refund(modification(auth.providerChargeId, 1n, `r-${randomUUID()}`));
      expect(failureOf(again)).toMatchObject({ category: 'invalid_request', retryable: false });
    });
  });

  describe('amounts in Stripe’s units', () => {
    it('charges JPY in whole yen and KWD in fils', async () => {
      const yen = valueOf(await connector.authorise(payment(cardSource(target, TEST_CARDS.visa), { currency: 'JPY', amount: 1500n })));
      expect(yen.amount).toBe(1500n);
      const dinar = valueOf(await connector.authorise(payment(cardSource(target, TEST_CARDS.visa), { currency: 'KWD', amount: 12_340n })));
      expect(dinar.amount).toBe(12_340n);
    });

    it('refuses an amount Stripe cannot express before calling it', async () => {
      const failure = failureOf(
        await connector.authorise(payment(cardSource(target, TEST_CARDS.visa), { currency: 'KWD', amount: 12_345n })),
      );
      expect(failure).toMatchObject({ category: 'invalid_amount', gatewayCode: 'AMOUNT' });
    });
  });

  describe('stored cards', () => {
    it('stores a Stripe.js token, charges it on and off session, updates and deletes it', async () => {
      const key = `s-${randomUUID()}`;
      const request = {
        idempotencyKey: key,
        source: { type: 'single_use_token' as const, token: target.clientToken() },
        ownerReference: 'pm-1',
      };
      const stored = valueOf(await connector.storeCard(request));
      expect(stored).toMatchObject({
        providerToken: expect.stringMatching(/^pm_/),
        providerData: { customer: expect.stringMatching(/^cus_/) },
        card: { last4: '4242' },
      });
      const source = { type: 'stored_card' as const, providerToken: stored.providerToken, providerData: stored.providerData };
      expect(valueOf(await connector.authorise(payment(source, { capture: true }))).captured).toBe(true);
      expect(valueOf(await connector.authorise(payment(source, { capture: true, recurring: true }))).captured).toBe(true);
      // The same key stores nothing twice.
      expect(valueOf(await connector.storeCard(request)).providerToken).toBe(stored.providerToken);

      const described = valueOf(await connector.describeStoredCard(stored));
      expect(described.card).toMatchObject({ last4: '4242', iin: '' });
      const updated = valueOf(
        await connector.updateStoredCard({ ...stored, expiryMonth: 3, expiryYear: EXPIRY.expiryYear + 1, cardholder: 'Grace Hopper' }),
      );
      expect(updated.card).toMatchObject({ expiryMonth: 3, expiryYear: EXPIRY.expiryYear + 1, cardholder: 'Grace Hopper' });

      expect((await connector.deleteStoredCard(stored)).ok).toBe(true);
      expect((await connector.deleteStoredCard(stored)).ok).toBe(true);
      expect(failureOf(await connector.describeStoredCard(stored)).category).toBe('not_found');
      expect(failureOf(await connector.authorise(payment(source))).category).toBe('invalid_request');
    });

    it('stores an unattached payment method from Stripe.js', async () => {
      const stored = valueOf(
        await connector.storeCard({
          idempotencyKey: `s-${randomUUID()}`,
          source: { type: 'single_use_token', token: target.clientPaymentMethod() },
        }),
      );
      expect(stored.providerData?.customer).toMatch(/^cus_/);
      const elsewhere = { providerToken: stored.providerToken, providerData: { customer: 'cus_someoneelse0000000000' } };
      expect(failureOf(await connector.describeStoredCard(elsewhere))).toMatchObject({
        category: 'not_found',
        gatewayCode: 'NOT_REUSABLE',
      });
      // A payment method attached to a customer is no single-use token any more.
      const again = { idempotencyKey: `s-${randomUUID()}`, source: { type: 'single_use_token' as const, token: stored.providerToken } };
      expect(failureOf(await connector.storeCard(again))).toMatchObject({ category: 'invalid_request', gatewayCode: 'INVALID_REQUEST' });
    });

    it('refuses a token that is not Stripe’s, and a payment method it does not know', async () => {
      expect(
        failureOf(
          await connector.storeCard({ idempotencyKey: `s-${randomUUID()}`, source: { type: 'single_use_token', token: 'card_123' } }),
        ).gatewayCode,
      ).toBe('UNKNOWN_TOKEN');
      expect(
        failureOf(
          await connector.storeCard({
            idempotencyKey: `s-${randomUUID()}`,
            source: { type: 'single_use_token', token: 'pm_unknown00000000000000' },
          }),
        ).category,
      ).toBe('not_found');
      expect(failureOf(await connector.describeStoredCard({ providerToken: 'pm_unknown00000000000000' })).category).toBe('not_found');
    });

    it('stores a card that declines when charged', async () => {
      const stored = valueOf(
        await connector.storeCard({
          idempotencyKey: `s-${randomUUID()}`,
          source: { type: 'single_use_token', token: 'tok_chargeCustomerFail' },
        }),
      );
      const failure = failureOf(
        await connector.authorise(payment({ type: 'stored_card', providerToken: stored.providerToken, providerData: stored.providerData })),
      );
      expect(failure).toMatchObject(TEST_CARDS.customerFail.failure);
    });
  });

  describe('3-D Secure (sandbox-safe: nobody answers the challenge)', () => {
    it('sends a payer who must authenticate to Stripe’s page, waits, and cancels the payment when the gateway gives up', async () => {
      const req = payment(cardSource(target, TEST_CARDS.threeDSecure), { authentication: payerPresent() });
      const auth = valueOf(await connector.authorise(req));
      expect(auth).toMatchObject({
        providerChargeId: expect.stringMatching(/^pi_/),
        captured: false,
        challenge: { redirect: { url: expect.stringMatching(/^https?:\/\//), method: 'GET' } },
      });
      const query = authenticationQuery(req, auth.providerChargeId);
      expect(valueOf(await connector.authenticationResult(query))).toEqual({ state: 'waiting' });
      valueOf(await connector.reverse({ idempotencyKey: req.idempotencyKey, providerChargeId: auth.providerChargeId }));
      expect(valueOf(await connector.authenticationResult(query))).toMatchObject({
        state: 'failed',
        failure: { category: 'authentication_required', gatewayCode: 'CANCELED' },
      });
    });
  });

  describe('what Stripe does not offer through this connector', () => {
    it('answers unsupported for network tokens, wallets, debits, PayTo and zero-amount verification', async () => {
      const unsupported = { category: 'unsupported', retryable: false, gatewayCode: 'UNSUPPORTED' };
      expect(failureOf(await connector.authorise(payment({ type: 'network_token', networkTokenId: 'nt_1' })))).toMatchObject(unsupported);
      expect(failureOf(await connector.authorise(payment(cardSource(target, TEST_CARDS.visa), { amount: 0n })))).toMatchObject(unsupported);
      expect(failureOf(await connector.createNetworkToken({ idempotencyKey: 'k', providerToken: 'pm_card_visa' }))).toMatchObject(
        unsupported,
      );
      const debit = {
        idempotencyKey: 'k',
        amount: 100n,
        currency: 'AUD',
        account: { type: 'bank_account' as const, bankCode: '062000', accountNumber: '12345678', accountName: 'A' },
      };
      expect(failureOf(await connector.debit(debit)).gatewayMessage).toMatch(/stripe.*bank account debits/);
      expect(failureOf(await connector.debit({ ...debit, account: { type: 'payto', agreementId: 'a' } })).gatewayMessage).toMatch(/PayTo/);
      expect(failureOf(await connector.paymentState({ providerChargeId: 'pi_1' }))).toMatchObject(unsupported);
      const agreement = {
        idempotencyKey: 'k',
        payerName: 'A',
        payId: 'a@b.c',
        payIdType: 'EMAIL',
        description: 'd',
        maximumAmount: 1n,
        currency: 'AUD',
      };
      expect(failureOf(await connector.createPayToAgreement(agreement))).toMatchObject(unsupported);
    });

    it('checks its credentials with one harmless call', async () => {
      expect((await connector.checkCredentials()).ok).toBe(true);
    });
  });
}

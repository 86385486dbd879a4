import type { NewProvider } from '@gateway/api';
import { expect } from 'vitest';
import {
  ADYEN_TEST_CARDS,
  ADYEN_TEST_EXPIRY,
  NAB_TEST_CARD,
  startFakeAdyen,
  startFakeCheckout,
  startFakeNab,
  startFakeStripe,
  type FakeAdyen,
  type FakeCheckout,
  type FakeNab,
  type FakeStripe,
  type NabCall,
  type NabJournalEntry,
} from '@gateway/provider-fakes';

/**
 * The fake Stripe, Adyen, Checkout.com and NAB Transact the gateway tests charge through
 * (packages/provider-fakes: held to the providers' published API descriptions), started in the
 * test process, so that they outlive a gateway killed mid-call; and what a test needs of each: the
 * provider to create over REST, cards, and what the fake holds for a charge.
 */

export type RealType = 'stripe' | 'adyen' | 'checkout' | 'nab_transact';

/** The provider calls a test can make hang. */
export type ProviderCall = 'payment' | 'capture' | 'refund';

const STRIPE_CALLS: Record<ProviderCall, RegExp> = {
  payment: /^\/v1\/payment_intents$/,
  capture: /^\/v1\/payment_intents\/[^/]+\/capture$/,
  refund: /^\/v1\/refunds$/,
};
const ADYEN_CALLS: Record<ProviderCall, string> = {
  payment: '/payments',
  capture: '/payments/{paymentPspReference}/captures',
  refund: '/payments/{paymentPspReference}/refunds',
};

const CHECKOUT_CALLS: Record<ProviderCall, string> = {
  payment: '/payments',
  capture: '/payments/{id}/captures',
  refund: '/payments/{id}/refunds',
};

/** NAB's txnType (payment 0, pre-authorisation 10, completion 11, refund 4) or periodic action (a stored card's payment: trigger). */
const NAB_CALLS: Record<ProviderCall, readonly NabCall[]> = {
  payment: ['0', '10', 'trigger'],
  capture: ['11'],
  refund: ['4'],
};

const STRIPE_KEY = 'sk_test_51FakeGatewayRealProviders0001';
const ADYEN_CREDENTIALS = {
  ApiKey: 'AQEfake-api-key-real-providers-0001',
  MerchantAccount: 'GatewayTestECOM',
  HmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

/** NAB's public test merchant, as the SDKs' tests use it. */
/** NAB's public test account, as the public SDKs' tests use it. */
export const NAB_CREDENTIALS = { MerchantId: 'XYZ0010', Password: 'abcd1234' };

/** A nab_transact provider as the public SDKs' tests create it over REST. */
export const NAB_SDK_PROVIDER = {
  type: 'nab_transact',
  name: 'NAB',
  environment: 'SANDBOX',
  currency: 'AUD',
  country: 'AUS',
  authenticationParameters: NAB_CREDENTIALS,
};

/** The open held call of a charge's first payment, whose answer NAB never gave (its UnknownOutcome row). */
export const heldPayment = (chargeId: string, amount: bigint) =>
  expect.objectContaining({ id: `${chargeId}:1`, operation: 'payment', providerReference: `${chargeId}:1`, amount, resolvedAt: null });

export const CHECKOUT_CREDENTIALS = {
  SecretKey: 'sk_sbox_fakegatewayrealproviders01',
  ProcessingChannelId: 'pc_fakegatewayrealproviders01',
  WebhookSecret: 'checkout-webhook-secret-real-providers',
};

/** A payment the fake provider holds, in the provider's minor units. */
export interface HeldPayment {
  /** The attempt's idempotency key ("<chargeId>:<n>"). */
  attempt: string;
  authorised: number;
  captured: number;
  refunded: number;
  cancelled: boolean;
  /** Merchant-initiated on stored details. */
  recurring: boolean;
  cvcSent: boolean;
}

/** A decline a test can ask a fake for. */
export type Decline = 'insufficient_funds' | 'three_d_secure';

export interface RealProvider {
  type: RealType;
  /** The provider's own currency (what provider() and newProvider() create it with). */
  currency: string;
  /** The body of POST /provider. */
  provider(fields?: Record<string, unknown>): Record<string, unknown>;
  /** The same provider as the services create it (createAccount, seedAccount). */
  newProvider(fields?: Partial<NewProvider>): NewProvider;
  /** The next call of this kind is made at the fake, and its answer never comes: tells whether that request has come. */
  hangNext(call: ProviderCall): () => boolean;
  /**
   * paymentInformation of a card the fake approves, at an amount its test system approves: any for
   * Stripe, Adyen and Checkout.com; for NAB, whose test system answers with the cents of the amount
   * as the bank's response code, one whose cents are 00, 08, 11, 16 or 77.
   */
  card(): Record<string, string>;
  /**
   * What a charge the fake declines with `outcome` sends: the card, and the amount where the test
   * system declines by it (NAB: x.51 is insufficient funds); undefined for a decline the type cannot
   * give (NAB has no 3-D Secure).
   */
  declining(outcome: Decline): { paymentInformation: Record<string, string>; amount?: number } | undefined;
  /** The payments of a charge the fake holds money for (authorised and not cancelled, nor refunded in full). */
  payments(chargeId: string): HeldPayment[];
  /** Every payment the fake made for a charge, whatever became of it. */
  allPayments(chargeId: string): HeldPayment[];
  /** Cards the fake keeps for later payments (ids). */
  storedCards(): string[];
  /** Requests and answers that broke the provider's description. */
  violations(): readonly unknown[];
  /**
   * A reusable token a merchant brings: a Stripe.js payment method, an Adyen stored payment method
   * id (with its data); undefined for a type that takes none made elsewhere (NAB).
   */
  broughtToken(): { providerToken: string; providerTokenData?: Record<string, string>; singleUse: boolean } | undefined;
  /** Whether the provider account takes raw card numbers; absent for a type without such a setting (NAB's XML API always does). */
  setRawCardsAllowed?(allowed: boolean): void;
}

export interface RealProviders {
  stripe: FakeStripe;
  adyen: FakeAdyen;
  checkout: FakeCheckout;
  nab_transact: FakeNab;
  /** GATEWAY_PROVIDER_ENDPOINTS pointing at the fakes. */
  endpoints: Record<RealType, string>;
  of(type: RealType): RealProvider;
  close(): Promise<void>;
}

const expiry = (month: string, year: string) => `${month}/${year.slice(-2)}`;
const belongsTo = (chargeId: string, attempt: unknown) => typeof attempt === 'string' && attempt.startsWith(`${chargeId}:`);
const holdsMoney = (p: HeldPayment) => !p.cancelled && p.refunded < (p.captured || p.authorised);

function stripeProvider(stripe: FakeStripe): RealProvider {
  const NUMBERS = { approve: '4242424242424242', insufficient_funds: '4000000000009995', three_d_secure: '4000002760003184' };
  const all = (chargeId: string): HeldPayment[] =>
    stripe
      .paymentIntents()
      .filter((pi) => belongsTo(chargeId, (pi.metadata as Record<string, unknown> | undefined)?.attempt))
      .filter((pi) => pi.status === 'succeeded' || pi.status === 'requires_capture' || pi.status === 'canceled')
      .map((pi) => {
        const created = stripe.requests.find(
          (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && (r.answer as Record<string, unknown> | undefined)?.id === pi.id,
        );
        const params = (created?.params ?? {}) as { off_session?: unknown; payment_method_options?: { card?: { cvc_token?: string } } };
        // A CVC goes with the card details (a payment method made for this payment) or as a CVC token (a stored card).
        const attempt = String((pi.metadata as Record<string, unknown>).attempt);
        const method = stripe.requests.find((r) => r.path === '/v1/payment_methods' && r.idempotencyKey === `${attempt}:pm`);
        const cardCvc = (method?.params as { card?: { cvc?: string } } | undefined)?.card?.cvc;
        const refunds = stripe.refunds().filter((r) => r.payment_intent === pi.id && r.status !== 'failed' && r.status !== 'canceled');
        return {
          attempt,
          authorised: Number(pi.amount),
          captured: Number(pi.amount_received ?? 0),
          refunded: refunds.reduce((sum, r) => sum + Number(r.amount), 0),
          cancelled: pi.status === 'canceled',
          recurring: params.off_session !== undefined && params.off_session !== false && params.off_session !== 'false',
          cvcSent: Boolean(params.payment_method_options?.card?.cvc_token ?? cardCvc),
        };
      });
  const card = (outcome: keyof typeof NUMBERS) => ({
    cardNumber: NUMBERS[outcome],
    expiryDate: '12/30',
    ccv: '123',
    cardholder: 'Test Payer',
  });
  return {
    type: 'stripe',
    currency: 'EUR',
    provider: (fields = {}) => ({
      type: 'stripe',
      name: 'Stripe',
      currency: 'EUR',
      authenticationParameters: { SecretKey: STRIPE_KEY },
      ...fields,
    }),
    newProvider: (fields = {}) => ({ type: 'stripe', name: 'Stripe', currency: 'EUR', credentials: { SecretKey: STRIPE_KEY }, ...fields }),
    hangNext: (call) => {
      const hanging = () => stripe.requests.filter((r) => STRIPE_CALLS[call].test(r.path) && r.status === 0).length;
      const before = hanging();
      stripe.hangNext({ method: 'POST', path: STRIPE_CALLS[call] }, { process: true });
      return () => hanging() > before;
    },
    card: () => card('approve'),
    declining: (outcome) => ({ paymentInformation: card(outcome) }),
    payments: (chargeId) => all(chargeId).filter(holdsMoney),
    allPayments: all,
    storedCards: () =>
      stripe
        .paymentMethods()
        .filter((pm) => pm.customer)
        .map((pm) => String(pm.id)),
    violations: () => stripe.violations,
    broughtToken: () => ({ providerToken: stripe.clientPaymentMethod(NUMBERS.approve), singleUse: true }),
    setRawCardsAllowed: (allowed) => stripe.setRawCardsAllowed(allowed),
  };
}

function adyenProvider(adyen: FakeAdyen): RealProvider {
  const [visa] = ADYEN_TEST_CARDS;
  const threeDs = ADYEN_TEST_CARDS.find((c) => c.threeDSecure);
  const card = (number: string, cvc: string, cardholder = 'Test Payer') => ({
    cardNumber: number,
    expiryDate: expiry(ADYEN_TEST_EXPIRY.month, ADYEN_TEST_EXPIRY.year),
    ccv: cvc,
    cardholder,
  });
  const all = (chargeId: string): HeldPayment[] =>
    adyen
      .payments()
      .filter((p) => belongsTo(chargeId, p.reference) && p.resultCode === 'Authorised')
      .map((p) => ({
        attempt: p.reference,
        authorised: p.value,
        captured: p.captured,
        refunded: p.refunded,
        cancelled: p.cancelled,
        recurring: p.shopperInteraction === 'ContAuth',
        cvcSent: p.cvcSent,
      }));
  return {
    type: 'adyen',
    currency: 'EUR',
    provider: (fields = {}) => ({ type: 'adyen', name: 'Adyen', currency: 'EUR', authenticationParameters: ADYEN_CREDENTIALS, ...fields }),
    newProvider: (fields = {}) => ({ type: 'adyen', name: 'Adyen', currency: 'EUR', credentials: ADYEN_CREDENTIALS, ...fields }),
    hangNext: (call) => {
      const hanging = () => adyen.requests.filter((r) => (r.operation ?? r.path) === ADYEN_CALLS[call] && r.status === undefined).length;
      const before = hanging();
      adyen.injectFault({ kind: 'hang', processed: true }, { method: 'POST', path: ADYEN_CALLS[call] });
      return () => hanging() > before;
    },
    card: () => card(visa!.number, visa!.cvc),
    declining: (outcome) => ({
      paymentInformation:
        outcome === 'three_d_secure' ? card(threeDs!.number, threeDs!.cvc) : card(visa!.number, visa!.cvc, 'NOT_ENOUGH_BALANCE'),
    }),
    payments: (chargeId) => all(chargeId).filter(holdsMoney),
    allPayments: all,
    storedCards: () =>
      adyen
        .storedPaymentMethods()
        .filter((m) => !m.deleted)
        .map((m) => m.id),
    violations: () => adyen.violations,
    broughtToken: () => {
      const shopperReference = `shopper-${adyen.storedPaymentMethods().length + 1}`;
      const providerToken = adyen.addStoredPaymentMethod({
        shopperReference,
        number: visa!.number,
        expiryMonth: ADYEN_TEST_EXPIRY.month,
        expiryYear: ADYEN_TEST_EXPIRY.year,
        holderName: 'Brought Payer',
      });
      return { providerToken, providerTokenData: { shopperReference }, singleUse: false };
    },
    setRawCardsAllowed: (allowed) => adyen.setRawCardsAllowed(allowed),
  };
}

function checkoutProvider(checkout: FakeCheckout): RealProvider {
  const NUMBERS = { approve: '4242424242424242', insufficient_funds: '4544249167673670', three_d_secure: '4543474002249996' };
  const all = (chargeId: string): HeldPayment[] =>
    checkout
      .payments()
      .filter((p) => belongsTo(chargeId, p.reference) && (p.approved || p.voided))
      .map((p) => ({
        attempt: p.reference!,
        authorised: p.amount,
        captured: p.captured,
        refunded: p.refunded,
        cancelled: p.voided,
        recurring: p.merchantInitiated,
        cvcSent: p.cvvSent,
      }));
  const card = (outcome: keyof typeof NUMBERS) => ({
    cardNumber: NUMBERS[outcome],
    expiryDate: '12/30',
    ccv: outcome === 'three_d_secure' ? '956' : '100',
    cardholder: 'Test Payer',
  });
  const fields = { type: 'checkout', name: 'Checkout.com', currency: 'EUR' };
  return {
    type: 'checkout',
    currency: 'EUR',
    provider: (more = {}) => ({ ...fields, authenticationParameters: CHECKOUT_CREDENTIALS, ...more }),
    newProvider: (more = {}) => ({ ...fields, credentials: CHECKOUT_CREDENTIALS, ...more }),
    hangNext: (call) => {
      const hanging = () => checkout.requests.filter((r) => r.route === CHECKOUT_CALLS[call] && r.status === undefined).length;
      const before = hanging();
      checkout.injectFault({ kind: 'hang', processed: true }, { method: 'POST', route: CHECKOUT_CALLS[call] });
      return () => hanging() > before;
    },
    card: () => card('approve'),
    declining: (outcome) => ({ paymentInformation: card(outcome) }),
    payments: (chargeId) => all(chargeId).filter(holdsMoney),
    allPayments: all,
    storedCards: () =>
      checkout
        .instruments()
        .filter((i) => !i.deleted)
        .map((i) => i.id),
    violations: () => checkout.violations,
    broughtToken: () => ({ providerToken: checkout.addInstrument(), singleUse: false }),
    setRawCardsAllowed: (allowed) => checkout.setRawCardsAllowed(allowed),
  };
}

/**
 * The requests the gateway sent NAB for a charge (of one kind of call when given), answered or
 * not: each names the purchase order number of one of the charge's attempts (a completion or
 * refund the original payment's).
 */
export function nabRequestsOf(nab: FakeNab, chargeId: string, call?: ProviderCall): NabJournalEntry[] {
  return nab.requests.filter((r) => r.body.includes(`>${chargeId}:`) && (!call || NAB_CALLS[call].includes(r.kind)));
}

function nabProvider(nab: FakeNab): RealProvider {
  const card = { cardNumber: NAB_TEST_CARD, expiryDate: '12/30', ccv: '123', cardholder: 'Test Payer' };
  // A payment, pre-authorisation or stored card's payment NAB approved (its purchase order number is the attempt's key).
  const all = (chargeId: string): HeldPayment[] =>
    nab
      .transactions()
      .filter((t) => belongsTo(chargeId, t.purchaseOrderNo))
      .map((t) => ({
        attempt: t.purchaseOrderNo,
        authorised: t.authorised,
        captured: t.captured,
        refunded: t.refunded,
        cancelled: t.reversed,
        recurring: t.recurring,
        cvcSent: t.cvcSent,
      }));
  const fields = { type: 'nab_transact', name: 'NAB Transact', currency: 'AUD', environment: 'SANDBOX' };
  return {
    type: 'nab_transact',
    currency: 'AUD',
    provider: (more = {}) => ({ ...fields, authenticationParameters: NAB_CREDENTIALS, ...more }),
    newProvider: (more = {}) => ({ ...fields, credentials: NAB_CREDENTIALS, ...more }),
    hangNext: (call) => {
      const hanging = () => nab.requests.filter((r) => NAB_CALLS[call].includes(r.kind) && r.status === undefined).length;
      const before = hanging();
      nab.hangNext(NAB_CALLS[call], { processed: true });
      return () => hanging() > before;
    },
    card: () => card,
    // NAB's test system answers with the cents of the amount as the bank's response code: x.51 is 51, insufficient funds.
    declining: (outcome) => (outcome === 'insufficient_funds' ? { paymentInformation: card, amount: 10.51 } : undefined),
    payments: (chargeId) => all(chargeId).filter(holdsMoney),
    allPayments: all,
    storedCards: () => nab.storedCards(),
    violations: () => nab.violations,
    broughtToken: () => undefined,
  };
}

export async function startRealProviders(): Promise<RealProviders> {
  const stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
  const adyen = await startFakeAdyen({
    apiKey: ADYEN_CREDENTIALS.ApiKey,
    merchantAccount: ADYEN_CREDENTIALS.MerchantAccount,
    hmacKey: ADYEN_CREDENTIALS.HmacKey,
  });
  const checkout = await startFakeCheckout({
    secretKey: CHECKOUT_CREDENTIALS.SecretKey,
    webhookSecret: CHECKOUT_CREDENTIALS.WebhookSecret,
  });
  const nab = await startFakeNab({ merchantId: NAB_CREDENTIALS.MerchantId, password: NAB_CREDENTIALS.Password });
  const providers: Record<RealType, RealProvider> = {
    stripe: stripeProvider(stripe),
    adyen: adyenProvider(adyen),
    checkout: checkoutProvider(checkout),
    nab_transact: nabProvider(nab),
  };
  return {
    stripe,
    adyen,
    checkout,
    nab_transact: nab,
    endpoints: { stripe: stripe.url, adyen: adyen.url, checkout: checkout.url, nab_transact: nab.url },
    of: (type) => providers[type],
    close: async () => {
      await stripe.close();
      await adyen.close();
      await checkout.close();
      await nab.close();
    },
  };
}

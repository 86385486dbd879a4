/** Helpers for the Adyen connector's tests (contract tests against the fake, sandbox tests). */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADYEN_TEST_CARDS, startFakeAdyen, type FakeAdyen, type FakeAdyenOptions } from '@gateway/provider-fakes';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type {
  AuthenticationRequest,
  AuthenticationResultRequest,
  AuthoriseRequest,
  CardDetails,
  PaymentSource,
  ProviderConnector,
} from '../connector.js';
import type { NotificationRead } from '../provider-type.js';
import { createAdyenConnector } from './connector.js';
import { ADYEN_NOTIFICATIONS } from './notifications.js';

/** The fake's account: made-up credentials of the shapes Adyen uses. */
export const FAKE_ACCOUNT = {
  merchantAccount: 'GatewayTestECOM',
  apiKey: 'AQE1hmfxKo3NaxZDw0m/n3Q5qf3Ve-test-only',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

const testCard = (
  brand: string,
  threeDSecure?: 'challenge' | 'frictionless',
  more: (c: (typeof ADYEN_TEST_CARDS)[number]) => boolean = () => true,
) => ADYEN_TEST_CARDS.find((c) => c.brand === brand && c.threeDSecure === threeDSecure && more(c))!.number;
export const VISA = testCard('visa');
export const MASTERCARD = testCard('mc');
export const AMEX = testCard('amex');
/** The issuer challenges the payer (Adyen's redirect is a GET). */
export const THREE_D_SECURE_CARD = testCard('visa', 'challenge', (c) => !c.refusedAfterChallenge);
/** The issuer challenges the payer; Adyen's redirect is a form POSTed with its data. */
export const CHALLENGE_BY_POST_CARD = testCard('mc', 'challenge');
/** The issuer authenticates the payer without a challenge (fake only). */
export const FRICTIONLESS_CARD = testCard('visa', 'frictionless');
/** The issuer refuses the payment once the challenge was passed (fake only). */
export const REFUSED_AFTER_CHALLENGE_CARD = testCard('visa', 'challenge', (c) => c.refusedAfterChallenge === true);

/** An Adyen test card as the gateway sends it (expiry 03/2030, the card's CVC). */
export function card(number = VISA, changes: Partial<CardDetails> = {}): CardDetails {
  const cvc = ADYEN_TEST_CARDS.find((c) => c.number === number)?.cvc ?? '737';
  return { number, expiryMonth: 3, expiryYear: 2030, cvc, cardholder: 'Test Holder', ...changes };
}

export const cardSource = (number = VISA, changes: Partial<CardDetails> = {}): PaymentSource => ({
  type: 'card',
  card: card(number, changes),
});

/** An attempt's key as the gateway makes them (`<chargeId>:<attempt>`). */
export const attemptKey = () => `${randomUUID()}:1`;

export function payment(source: PaymentSource, extra: Partial<AuthoriseRequest> = {}): AuthoriseRequest {
  return { idempotencyKey: attemptKey(), amount: 1000n, currency: 'EUR', capture: false, source, reference: 'order-1042', ...extra };
}

/** The payer can authenticate: what the gateway passes (its return URL for the charge, the payer's browser). */
export function authentication(changes: Partial<AuthenticationRequest> = {}): AuthenticationRequest {
  return {
    returnUrl: 'https://gateway.example/charge/ch_3ds/return?k=1',
    origin: 'https://shop.example',
    browser: {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0',
      acceptHeader: 'text/html,application/xhtml+xml',
      language: 'en-GB',
      colorDepth: 30,
      screenHeight: 900,
      screenWidth: 1440,
      timeZoneOffset: -60,
      javaEnabled: false,
    },
    merchantName: 'Corner Shop',
    ...changes,
  };
}

/** The gateway's question about a payment that waited for the payer, from its authorise request. */
export function resultRequest(
  req: AuthoriseRequest,
  providerChargeId: string,
  extra: Partial<AuthenticationResultRequest> = {},
): AuthenticationResultRequest {
  const { idempotencyKey, amount, currency, capture } = req;
  return { providerChargeId, idempotencyKey, amount, currency, capture, ...extra };
}

/** What the payer's return to the gateway brings: the query of the URL the provider sent the browser to. */
export const returnedTo = (url: string): Record<string, string> => Object.fromEntries(new URL(url).searchParams);

/** A stand-in for the gateway's notification endpoint: reads each request with the type's format. */
export interface NotificationReceiver {
  url: string;
  reads: NotificationRead[];
  close(): Promise<void>;
}

export async function startNotificationReceiver(parameters: Record<string, string>): Promise<NotificationReceiver> {
  const reads: NotificationRead[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const read = ADYEN_NOTIFICATIONS.read({ rawBody: Buffer.concat(chunks), headers: {}, parameters, now: new Date() });
      reads.push(read);
      const { status, contentType, body } = ADYEN_NOTIFICATIONS.accepted;
      if (read.ok) res.writeHead(status, { 'content-type': contentType }).end(body);
      else res.writeHead(401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/notification`, reads, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface AdyenContract {
  fake: FakeAdyen;
  connector: ProviderConnector;
  receiver: NotificationReceiver;
  /** A connector to the fake with other settings (a short timeout, a wrong key…). */
  connectorWith(changes: { timeoutMs?: number; apiKey?: string; merchantAccount?: string }): ProviderConnector;
  close(): Promise<void>;
}

/** The fake Adyen, a connector to it and a receiver for its notifications. */
export async function startAdyenContract(options: Partial<FakeAdyenOptions> = {}): Promise<AdyenContract> {
  const receiver = await startNotificationReceiver({ MerchantAccount: FAKE_ACCOUNT.merchantAccount, HmacKey: FAKE_ACCOUNT.hmacKey });
  const fake = await startFakeAdyen({ ...FAKE_ACCOUNT, notificationUrl: receiver.url, ...options });
  const connectorWith = (changes: { timeoutMs?: number; apiKey?: string; merchantAccount?: string }) =>
    createAdyenConnector({
      baseUrl: fake.url,
      timeoutMs: 5_000,
      apiKey: FAKE_ACCOUNT.apiKey,
      merchantAccount: FAKE_ACCOUNT.merchantAccount,
      ...changes,
    });
  return {
    fake,
    connector: connectorWith({}),
    receiver,
    connectorWith,
    async close() {
      await fake.close();
      await receiver.close();
    },
  };
}

/**
 * The contract a test file runs against: started before its tests, closed after them, and after
 * each test, every request the connector sent and every answer the fake gave must have conformed
 * to Adyen's description.
 */
export function contractForTests(): () => AdyenContract {
  let contract: AdyenContract;
  beforeAll(async () => {
    contract = await startAdyenContract();
  });
  afterAll(() => contract.close());
  afterEach(() => {
    expect(contract.fake.violations).toEqual([]);
  });
  return () => contract;
}

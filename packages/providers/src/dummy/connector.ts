import type {
  AuthenticationResult,
  Authorisation,
  CardSummary,
  Challenge,
  ThreeDsOutcome,
  DebitAccount,
  PaymentSource,
  PaymentState,
  ProviderConnector,
  ProviderFailure,
  ProviderResult,
} from '../connector.js';
import { checkCredentialsWith, HttpTimeoutError, requestJson } from '../http-json.js';
import { failure } from '../provider-type.js';
import { refusal } from './simulator/response-codes.js';

export interface SimulatedConnectorConfig {
  baseUrl: string;
  /** Budget for a whole call; past it the outcome is unknown and the call fails with 'timeout'. */
  timeoutMs: number;
  /** Latency the simulator adds to each answer. */
  latency: { minMs: number; maxMs: number };
  /** How long a direct debit stays pending before it settles or fails; 0 when absent. */
  settlementDelayMs?: number;
  /** Where the issuer's challenge page of a 3-D Secure card is served (the gateway's, issuer-page.ts), by challenge id after it. */
  issuerPageUrl?: string;
}

type Json = Record<string, unknown>;

export function createSimulatedConnector(config: SimulatedConnectorConfig): ProviderConnector {
  const { minMs, maxMs } = config.latency;
  if (!Number.isInteger(minMs) || !Number.isInteger(maxMs) || minMs < 0 || minMs > maxMs) {
    throw new RangeError('latency must be whole milliseconds with 0 <= minMs <= maxMs');
  }
  const settlementDelayMs = config.settlementDelayMs ?? 0;
  if (!Number.isSafeInteger(settlementDelayMs) || settlementDelayMs < 0) {
    throw new RangeError('settlementDelayMs must be whole milliseconds, at least 0');
  }
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const challengeOf = (id: string): Challenge => {
    if (!config.issuerPageUrl) throw new TypeError('a challenge, but no issuer page to send the payer to');
    return { redirect: { url: `${config.issuerPageUrl.replace(/\/+$/, '')}/${encodeURIComponent(id)}`, method: 'GET' } };
  };

  /** One request to the simulator, with the latency it should add; its answer as it came. */
  const send = (method: string, path: string, body: Json | undefined, headers: Record<string, string>) =>
    requestJson(method, `${baseUrl}${path}`, body, { 'x-simulator-latency': `${minMs}-${maxMs}`, ...headers }, config.timeoutMs);

  async function call<T>(
    method: string,
    path: string,
    body: Json | undefined,
    headers: Record<string, string>,
    read: (answer: Json) => T,
  ): Promise<ProviderResult<T>> {
    let status: number;
    let json: unknown;
    try {
      ({ status, json } = await send(method, path, body, headers));
    } catch (err) {
      if (err instanceof HttpTimeoutError) {
        return failure('timeout', 'TIMEOUT', `No answer from the acquirer within ${config.timeoutMs} ms; outcome unknown`, true);
      }
      if (err instanceof SyntaxError) return failure('processor_error', 'BAD_RESPONSE', 'Unreadable answer from the acquirer', true);
      return failure('processor_error', 'NETWORK', 'Could not reach the acquirer', true);
    }

    if (status >= 200 && status < 300) {
      try {
        return { ok: true, value: read(asObject(json)) };
      } catch {
        return failure('processor_error', 'BAD_RESPONSE', 'Unreadable answer from the acquirer', true);
      }
    }
    const code = errorCode(json);
    const refused = refusalOf(code);
    if (status >= 500)
      return failure('processor_error', refused ? code : `HTTP_${status}`, refused?.gatewayMessage ?? 'Acquirer error', true);
    if (!refused) return failure('processor_error', `HTTP_${status}`, 'Unrecognised answer from the acquirer', false);
    return { ok: false, failure: refused };
  }

  const keyed = (idempotencyKey: string) => ({ 'idempotency-key': idempotencyKey });
  const payment = (id: string) => `/v1/payments/${encodeURIComponent(id)}`;
  const storedCard = (token: string) => `/v1/cards/${encodeURIComponent(token)}`;
  const readStoredCard = (answer: Json) => ({ providerToken: text(answer, 'token'), card: cardSummary(answer.card) });

  return {
    authorise: (req) =>
      call(
        'POST',
        '/v1/authorisations',
        {
          amount: req.amount.toString(),
          currency: req.currency,
          capture: req.capture,
          recurring: req.recurring,
          source: wireSource(req.source),
          reference: req.reference,
          descriptor: req.descriptor,
          authentication: req.authentication && { returnUrl: req.authentication.returnUrl, merchantName: req.authentication.merchantName },
          externalThreeDs: req.externalThreeDs,
        },
        keyed(req.idempotencyKey),
        (answer) => ({
          ...authorisationOf(answer),
          card: cardSummary(answer.card),
          challenge: isObject(answer.challenge) ? challengeOf(text(answer.challenge, 'id')) : undefined,
        }),
      ),
    authenticationResult: (req) =>
      call('GET', `/v1/authorisations/${encodeURIComponent(req.providerChargeId)}`, undefined, {}, (answer): AuthenticationResult => {
        const status = oneOf(answer, 'status', ['authenticating', 'authorised', 'captured', 'failed', 'voided', 'reversed'] as const);
        const threeDs = threeDsOf(answer.threeDs);
        if (status === 'authenticating') return { state: 'waiting' };
        if (status === 'authorised' || status === 'captured') return { state: 'authorised', authorisation: authorisationOf(answer) };
        // Failed (authentication, or the issuer after it), or cancelled when the gateway gave up waiting.
        const failure = refusalOf(errorCode(answer)) ?? refusalOf('1A')!;
        return { state: 'failed', failure, threeDs };
      }),
    capture: (req) =>
      call('POST', `${payment(req.providerChargeId)}/capture`, { amount: req.amount.toString() }, keyed(req.idempotencyKey), (answer) => ({
        amount: minorUnits(answer, 'amount'),
      })),
    void: (req) => call('POST', `${payment(req.providerChargeId)}/void`, {}, keyed(req.idempotencyKey), () => ({})),
    refund: (req) =>
      call('POST', `${payment(req.providerChargeId)}/refunds`, { amount: req.amount.toString() }, keyed(req.idempotencyKey), (answer) => ({
        providerRefundId: text(answer, 'id'),
      })),
    // Idempotent by the authorise call's key, which the acquirer takes in the body.
    reverse: (req) => call('POST', '/v1/reversals', { idempotencyKey: req.idempotencyKey }, {}, () => undefined),
    // The simulator takes no credentials: reading its operations is the harmless call.
    checkCredentials: () =>
      checkCredentialsWith(() => send('GET', '/v1/operations?idempotencyKey=check-credentials', undefined, {}), config.timeoutMs),

    storeCard: (req) =>
      call(
        'POST',
        '/v1/cards',
        { source: req.source.type === 'card' ? wireSource(req.source) : { type: 'single_use_token', token: req.source.token } },
        keyed(req.idempotencyKey),
        readStoredCard,
      ),
    describeStoredCard: (req) => call('GET', storedCard(req.providerToken), undefined, {}, readStoredCard),
    updateStoredCard: ({ providerToken, providerData: _kept, ...changes }) =>
      call('PATCH', storedCard(providerToken), changes, {}, readStoredCard),
    deleteStoredCard: (req) => call('DELETE', storedCard(req.providerToken), undefined, {}, () => undefined),
    createNetworkToken: (req) =>
      call('POST', `${storedCard(req.providerToken)}/network-tokens`, {}, keyed(req.idempotencyKey), (answer) => ({
        networkTokenId: text(answer, 'id'),
        schemeTokenId: text(answer, 'schemeTokenId'),
        status: oneOf(answer, 'status', ['ACTIVE'] as const),
      })),

    debit: (req) =>
      call(
        'POST',
        '/v1/debits',
        { amount: req.amount.toString(), currency: req.currency, account: wireAccount(req.account), reference: req.reference },
        { ...keyed(req.idempotencyKey), 'x-simulator-settlement-delay': String(settlementDelayMs) },
        (answer) => ({ providerChargeId: text(answer, 'id') }),
      ),
    paymentState: (req) => call('GET', `/v1/debits/${encodeURIComponent(req.providerChargeId)}`, undefined, {}, readState),
    createPayToAgreement: (req) =>
      call(
        'POST',
        '/v1/payto-agreements',
        {
          payerName: req.payerName,
          payId: req.payId,
          payIdType: req.payIdType,
          description: req.description,
          maximumAmount: req.maximumAmount.toString(),
          currency: req.currency,
        },
        keyed(req.idempotencyKey),
        (answer) => ({ agreementId: text(answer, 'id'), status: oneOf(answer, 'status', ['ACTIVE', 'PENDING'] as const) }),
      ),
  };
}

/** The source on the wire: only the fields the acquirer reads (a wallet's payment data as it came). */
function wireSource(source: PaymentSource): Json {
  switch (source.type) {
    case 'card': {
      const { number, expiryMonth, expiryYear, cvc, cardholder } = source.card;
      return { type: 'card', card: { number, expiryMonth, expiryYear, cvc, cardholder } };
    }
    case 'stored_card':
      return { type: 'stored_card', providerToken: source.providerToken, cvc: source.cvc };
    case 'network_token':
      return { type: 'network_token', networkTokenId: source.networkTokenId };
    case 'wallet': {
      const { data, signature, header, version } = source.paymentData;
      return { type: 'wallet', wallet: source.wallet, paymentData: { data, signature, header, version } };
    }
  }
}

function wireAccount(account: DebitAccount): Json {
  if (account.type === 'payto') return { type: 'payto', agreementId: account.agreementId };
  const { bankCode, accountNumber, accountName } = account;
  return { type: 'bank_account', bankCode, accountNumber, accountName };
}

/** An approved payment (or one waiting for its challenge) as the acquirer answers it. */
function authorisationOf(answer: Json): Authorisation {
  return {
    providerChargeId: text(answer, 'id'),
    captured: text(answer, 'status') === 'captured',
    amount: minorUnits(answer, 'amount'),
    threeDs: threeDsOf(answer.threeDs),
  };
}

const TRANS_STATUSES = ['Y', 'A', 'N', 'R', 'U', 'C'] as const;

function threeDsOf(value: unknown): ThreeDsOutcome | undefined {
  if (!isObject(value)) return undefined;
  const optionalText = (name: string) => (value[name] === undefined ? undefined : text(value, name));
  const flow = optionalText('flow');
  return {
    flow: flow === undefined ? undefined : oneOf(value, 'flow', ['challenge', 'frictionless'] as const),
    transStatus: value.transStatus === undefined ? undefined : oneOf(value, 'transStatus', TRANS_STATUSES),
    eci: optionalText('eci'),
    version: optionalText('version'),
    liabilityShift: typeof value.liabilityShift === 'boolean' ? value.liabilityShift : undefined,
  };
}

function readState(answer: Json): PaymentState {
  const state = oneOf(answer, 'state', ['pending', 'settled', 'failed'] as const);
  if (state !== 'failed') return { state };
  const refused = refusalOf(errorCode(answer));
  if (!refused) throw new TypeError('answer lacks a known failure');
  return { state, failure: refused };
}

/**
 * The acquirer's refusal by its response code. The message comes from the code table, never from
 * the acquirer's answer, so no request data (card number, CVC) can leak into it.
 */
function refusalOf(code: string): ProviderFailure | undefined {
  const known = refusal(code);
  return known && { category: known.category, retryable: false, gatewayCode: code, gatewayMessage: known.message };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  if (!isObject(value)) throw new TypeError('answer is not an object');
  return value;
}

function errorCode(json: unknown): string {
  const error = isObject(json) && isObject(json.error) ? json.error : {};
  return typeof error.code === 'string' ? error.code : '';
}

function text(answer: Json, name: string): string {
  const value = answer[name];
  if (typeof value !== 'string') throw new TypeError(`answer lacks ${name}`);
  return value;
}

function oneOf<T extends string>(answer: Json, name: string, values: readonly T[]): T {
  const value = text(answer, name);
  if (!values.includes(value as T)) throw new TypeError(`${name} is unknown`);
  return value as T;
}

function integer(answer: Json, name: string): number {
  const value = answer[name];
  if (!Number.isInteger(value)) throw new TypeError(`answer lacks ${name}`);
  return value as number;
}

function minorUnits(answer: Json, name: string): bigint {
  const value = text(answer, name);
  if (!/^[0-9]+$/.test(value)) throw new TypeError(`${name} is not minor units`);
  return BigInt(value);
}

function cardSummary(value: unknown): CardSummary {
  const card = asObject(value);
  return {
    iin: text(card, 'iin'),
    last4: text(card, 'last4'),
    length: integer(card, 'length'),
    expiryMonth: integer(card, 'expiryMonth'),
    expiryYear: integer(card, 'expiryYear'),
    cardholder: card.cardholder === undefined ? undefined : text(card, 'cardholder'),
  };
}

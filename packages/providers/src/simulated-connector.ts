import type { FailureCategory, ProviderConnector, ProviderFailure, ProviderResult } from './connector.js';
import { HttpTimeoutError, postJson } from './http-json.js';

export interface SimulatedConnectorConfig {
  baseUrl: string;
  /** Budget for a whole call; past it the outcome is unknown and the call fails with 'timeout'. */
  timeoutMs: number;
  /** Latency the simulator adds to each answer. */
  latency: { minMs: number; maxMs: number };
}

/**
 * The simulated acquirer's response codes as this connector reads them. Messages come from here,
 * never from the acquirer's answer, so no request data (card number, CVC) can leak into them.
 */
const RESPONSE_CODES: Partial<Record<string, { category: FailureCategory; message: string }>> = {
  '05': { category: 'do_not_honour', message: 'Do not honour' },
  '14': { category: 'invalid_card', message: 'Invalid card number' },
  '43': { category: 'stolen_card', message: 'Stolen card' },
  '51': { category: 'insufficient_funds', message: 'Insufficient funds' },
  '54': { category: 'expired_card', message: 'Expired card' },
  '12': { category: 'invalid_request', message: 'Invalid transaction for the state of the authorisation' },
  '25': { category: 'not_found', message: 'Unable to locate record' },
  '30': { category: 'invalid_request', message: 'Format error' },
  '61': { category: 'over_limit', message: 'Exceeds amount limit' },
  '94': { category: 'invalid_request', message: 'Idempotency key reused with a different request' },
  '96': { category: 'processor_error', message: 'System malfunction' },
};

type Json = Record<string, unknown>;

export function createSimulatedConnector(config: SimulatedConnectorConfig): ProviderConnector {
  const { minMs, maxMs } = config.latency;
  if (!Number.isInteger(minMs) || !Number.isInteger(maxMs) || minMs < 0 || minMs > maxMs) {
    throw new RangeError('latency must be whole milliseconds with 0 <= minMs <= maxMs');
  }
  const baseUrl = config.baseUrl.replace(/\/+$/, '');

  async function post<T>(
    path: string,
    body: Json,
    idempotencyKey: string | undefined,
    read: (answer: Json) => T,
  ): Promise<ProviderResult<T>> {
    let status: number;
    let json: unknown;
    try {
      const headers: Record<string, string> = { 'x-simulator-latency': `${minMs}-${maxMs}` };
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      ({ status, json } = await postJson(`${baseUrl}${path}`, body, headers, config.timeoutMs));
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
    const error = isObject(json) && isObject(json.error) ? json.error : {};
    const code = typeof error.code === 'string' ? error.code : '';
    const known = RESPONSE_CODES[code];
    if (status >= 500) {
      return failure('processor_error', known ? code : `HTTP_${status}`, known?.message ?? 'Acquirer error', true);
    }
    if (!known) return failure('processor_error', `HTTP_${status}`, 'Unrecognised answer from the acquirer', false);
    return failure(known.category, code, known.message, false);
  }

  const charge = (id: string) => `/v1/authorisations/${encodeURIComponent(id)}`;

  return {
    authorise: (req) =>
      post(
        '/v1/authorisations',
        {
          amount: req.amount.toString(),
          currency: req.currency,
          capture: req.capture,
          card: {
            number: req.card.number,
            expiryMonth: req.card.expiryMonth,
            expiryYear: req.card.expiryYear,
            cvc: req.card.cvc,
            cardholder: req.card.cardholder,
          },
          reference: req.reference,
          descriptor: req.descriptor,
        },
        req.idempotencyKey,
        (answer) => ({
          providerChargeId: text(answer, 'id'),
          captured: text(answer, 'status') === 'captured',
          amount: minorUnits(answer, 'amount'),
        }),
      ),
    capture: (req) =>
      post(`${charge(req.providerChargeId)}/capture`, { amount: req.amount.toString() }, req.idempotencyKey, (answer) => ({
        amount: minorUnits(answer, 'amount'),
      })),
    void: (req) => post(`${charge(req.providerChargeId)}/void`, {}, req.idempotencyKey, () => undefined),
    refund: (req) =>
      post(`${charge(req.providerChargeId)}/refunds`, { amount: req.amount.toString() }, req.idempotencyKey, (answer) => ({
        providerRefundId: text(answer, 'id'),
      })),
    // Idempotent by the authorise call's key, which the acquirer takes in the body.
    reverse: (req) => post('/v1/reversals', { idempotencyKey: req.idempotencyKey }, undefined, () => undefined),
  };
}

function failure(
  category: FailureCategory,
  gatewayCode: string,
  gatewayMessage: string,
  retryable: boolean,
): { ok: false; failure: ProviderFailure } {
  return { ok: false, failure: { category, retryable, gatewayCode, gatewayMessage } };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  if (!isObject(value)) throw new TypeError('answer is not an object');
  return value;
}

function text(answer: Json, name: string): string {
  const value = answer[name];
  if (typeof value !== 'string') throw new TypeError(`answer lacks ${name}`);
  return value;
}

function minorUnits(answer: Json, name: string): bigint {
  const value = text(answer, name);
  if (!/^[0-9]+$/.test(value)) throw new TypeError(`${name} is not minor units`);
  return BigInt(value);
}

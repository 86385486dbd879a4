import type { FailureCategory } from '../../connector.js';

/**
 * The simulated acquirer's response codes (ISO 8583 style): the HTTP status it answers with, and
 * the failure category its connector reads from a refusal.
 */
export const RESPONSE_CODES = {
  '00': { status: 200, message: 'Approved' },
  '05': { status: 402, category: 'do_not_honour', message: 'Do not honour' },
  '1A': { status: 402, category: 'authentication_required', message: 'Authentication required' },
  '14': { status: 402, category: 'invalid_card', message: 'Invalid card number' },
  '43': { status: 402, category: 'stolen_card', message: 'Stolen card' },
  '51': { status: 402, category: 'insufficient_funds', message: 'Insufficient funds' },
  '54': { status: 402, category: 'expired_card', message: 'Expired card' },
  '78': { status: 402, category: 'do_not_honour', message: 'Account closed' },
  '12': { status: 409, category: 'invalid_request', message: 'Invalid transaction for the state of the payment or token' },
  '25': { status: 404, category: 'not_found', message: 'Unable to locate record' },
  '30': { status: 400, category: 'invalid_request', message: 'Format error' },
  '61': { status: 422, category: 'over_limit', message: 'Exceeds amount limit' },
  '94': { status: 409, category: 'invalid_request', message: 'Idempotency key reused with a different request' },
  '96': { status: 503, category: 'processor_error', message: 'System malfunction' },
} as const satisfies Record<string, { status: number; category?: FailureCategory; message: string }>;

export type ResponseCode = keyof typeof RESPONSE_CODES;

/** A refusal's category and message, or undefined for '00' and codes the acquirer does not use. */
export function refusal(code: string): { category: FailureCategory; message: string } | undefined {
  if (!Object.hasOwn(RESPONSE_CODES, code)) return undefined;
  const known: { category?: FailureCategory; message: string } = RESPONSE_CODES[code as ResponseCode];
  return known.category && { category: known.category, message: known.message };
}

/** The body of a refusal, as the acquirer answers it. */
export function errorBody(code: ResponseCode): { error: { code: ResponseCode; message: string } } {
  return { error: { code, message: RESPONSE_CODES[code].message } };
}

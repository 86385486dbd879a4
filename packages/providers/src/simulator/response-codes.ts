/** The simulated acquirer's response codes (ISO 8583 style) and the HTTP status it answers with. */
export const RESPONSE_CODES = {
  '00': { status: 200, message: 'Approved' },
  '05': { status: 402, message: 'Do not honour' },
  '14': { status: 402, message: 'Invalid card number' },
  '43': { status: 402, message: 'Stolen card' },
  '51': { status: 402, message: 'Insufficient funds' },
  '54': { status: 402, message: 'Expired card' },
  '12': { status: 409, message: 'Invalid transaction for the state of the authorisation' },
  '25': { status: 404, message: 'Unable to locate record' },
  '30': { status: 400, message: 'Format error' },
  '61': { status: 422, message: 'Exceeds amount limit' },
  '94': { status: 409, message: 'Idempotency key reused with a different request' },
  '96': { status: 503, message: 'System malfunction' },
} as const;

export type ResponseCode = keyof typeof RESPONSE_CODES;

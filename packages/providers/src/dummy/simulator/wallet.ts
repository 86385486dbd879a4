import type { CardDetails } from '../../connector.js';
import { card, FormatError, object, text } from './fields.js';

/**
 * Apple Pay at the simulated acquirer. A real payment token is encrypted for the merchant; the
 * simulator takes this test format of `paymentData` instead (docs/test-cards.md, "Device wallets"):
 *
 *   version    "EC_v1"
 *   data       base64 of the JSON
 *              {"cardNumber": "4111111111111111", "expiryMonth": 12, "expiryYear": 2030, "cardholder": "A Payer"}
 *              (cardholder optional; cardNumber 12–19 digits, expiryMonth 1–12, expiryYear 2000–9999)
 *   signature  any string
 *   header     {"transactionId": any string of 1–255 characters, publicKeyHash?, ephemeralPublicKey?}
 *
 * The card number picks the test-card behaviour, as if it had been keyed in. Anything else is a
 * format error (code 30) whose message names the field, never its value.
 */
export function applePay(value: unknown, name: string): { card: CardDetails; transactionId: string } {
  const paymentData = object(value, name);
  text(paymentData.version, `${name}.version`, /^EC_v1$/);
  text(paymentData.signature, `${name}.signature`, /^.*$/su);
  const transactionId = text(object(paymentData.header, `${name}.header`).transactionId, `${name}.header.transactionId`);
  const data = text(paymentData.data, `${name}.data`, /^[A-Za-z0-9+/]+={0,2}$/);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    throw new FormatError(`${name}.data is not base64 of JSON`);
  }
  return { card: card(decoded, `${name}.data`, 'cardNumber'), transactionId };
}

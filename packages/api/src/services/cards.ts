import { ApiError, isExpired, parseExpiry } from '@gateway/core';
import type { CardDetails, CardSummary } from '@gateway/providers';
import type { CardInput } from '../schemas/card';
import type { VaultCard } from './vault';

/** Card number and CCV with the expiry and cardholder kept beside them (9 when the expiry is unreadable). */
export function cardDetails(card: VaultCard, kept: { cardExpiry: string | null; cardholder: string | null }): CardDetails {
  const expiry = parseExpiry(kept.cardExpiry ?? '');
  if (!expiry) throw new ApiError('InvalidExpiryDate');
  return {
    number: card.cardNumber,
    expiryMonth: expiry.month,
    expiryYear: expiry.year,
    cvc: card.ccv,
    cardholder: kept.cardholder ?? undefined,
  };
}

/** The card given over the API: 81 when absent, 14 when expired (unless allowed). */
export function keyedCard(input: CardInput | undefined, now: Date, { allowExpired = false } = {}): CardDetails {
  if (!input) throw new ApiError('InvalidPaymentInformation', { message: 'paymentInformation is required' });
  const card = cardDetails(
    { cardNumber: input.cardNumber, ccv: input.ccv },
    { cardExpiry: input.expiryDate, cardholder: input.cardholder ?? null },
  );
  if (!allowExpired && isExpired({ month: card.expiryMonth, year: card.expiryYear }, now)) {
    throw new ApiError('ExpiredCard', { message: 'The card has expired' });
  }
  return card;
}

/** What may be kept of a card: what a provider tells about one, never the full number. */
export function summaryOf(card: CardDetails): CardSummary {
  const { number, expiryMonth, expiryYear, cardholder } = card;
  return { iin: number.slice(0, 6), last4: number.slice(-4), length: number.length, expiryMonth, expiryYear, cardholder };
}

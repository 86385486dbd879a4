import { ApiError, ERROR_NAMES, publicStatus, toWireAmount, type Currency } from '@gateway/core';
import type { Charge, ChargeAttempt, Customer, Prisma, Provider, Refund } from '@gateway/db';
import type { Challenge, ThreeDsOutcome } from '@gateway/providers';
import type { ChargeView } from '../../schemas/charge';
import { requireCurrency } from '../money';

/** Relations a charge is always read with, so that it can be answered in full. */
export const chargeInclude = {
  provider: true,
  customer: true,
  refunds: { where: { status: 'SUCCEEDED' }, orderBy: { dateAdded: 'asc' } },
  attempts: { orderBy: { dateAttempted: 'asc' } },
} as const satisfies Prisma.ChargeInclude;

export type ChargeRecord = Charge & {
  provider: Provider | null;
  refunds: Refund[];
  attempts: ChargeAttempt[];
  /** Read with the charge when it has one; a charge just made may leave it out. */
  customer?: Customer | null;
};

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** What a charge waiting for its payer's 3-D Secure authentication keeps of it (Charge.threeDsChallenge). */
export interface PendingChallenge {
  /** The gateway's URL the merchant sends the payer to (threeDsRedirectUrl). */
  url: string;
  /** Where that URL sends the browser: the provider's page. */
  redirect: Challenge['redirect'];
  /** Whether the approved payment is captured (a sale) or only authorised. */
  capture: boolean;
}

export const pendingChallengeOf = (charge: Pick<Charge, 'threeDsChallenge'>) => charge.threeDsChallenge as PendingChallenge | null;

/** A charge that waits for its payer's 3-D Secure authentication (a debit waits PENDING too, but for its bank). */
export const WAITING_FOR_PAYER = { status: 'PENDING', threeDsStartedAt: { not: null } } as const satisfies Prisma.ChargeWhereInput;

export const isWaitingForPayer = (charge: Pick<Charge, 'status' | 'threeDsStartedAt'>) =>
  charge.status === 'PENDING' && charge.threeDsStartedAt !== null;

/**
 * The error a failed charge was answered with, from what its row keeps of it: its failure, and
 * whether repeating it could succeed as its last attempt said (the catalogue's default without one).
 */
export function failureOf(
  charge: Pick<Charge, 'id' | 'failureCode' | 'failureMessage' | 'gatewayCode' | 'gatewayMessage'> & { attempts: ChargeAttempt[] },
): ApiError {
  return new ApiError(ERROR_NAMES[charge.failureCode ?? 1] ?? 'UnknownError', {
    message: charge.failureMessage ?? undefined,
    gatewayCode: charge.gatewayCode ?? undefined,
    gatewayMessage: charge.gatewayMessage ?? undefined,
    retryable: charge.attempts.at(-1)?.isRetryable,
    details: { chargeId: charge.id },
  });
}

type CardColumn =
  | 'cardMasked'
  | 'cardExpiry'
  | 'cardholder'
  | 'cardScheme'
  | 'cardType'
  | 'cardIin'
  | 'cardCountry'
  | 'cardIssuer'
  | 'cardCountryCode';

/** The card object of answers, from the masked-card columns a charge, payment method or token keeps. */
export function cardView(charge: Pick<Charge, CardColumn>) {
  if (!charge.cardMasked) return null;
  return {
    cardNumber: charge.cardMasked,
    expiryDate: charge.cardExpiry,
    cardholder: charge.cardholder,
    type: charge.cardScheme,
    cardType: charge.cardType,
    cardIin: charge.cardIin,
    ccvCheck: false,
    threeDSServerTransID: null,
    iinData: {
      scheme: charge.cardScheme,
      country: charge.cardCountry,
      issuer: charge.cardIssuer,
      countryCode: charge.cardCountryCode,
      cardType: charge.cardType,
    },
  };
}

function money(minor: bigint, currency: Currency): number {
  return toWireAmount(minor, currency);
}

/** The customer summary embedded in answers (a removed customer's contact details are gone). */
export function customerSummary(customer: Customer) {
  const removed = customer.dateRemoved !== null;
  return {
    customerId: customer.id,
    reference: customer.reference,
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: removed ? 'deleted' : customer.email,
    phone: removed ? 'deleted' : customer.phone,
    dateAdded: customer.dateAdded.toISOString(),
    dateRemoved: iso(customer.dateRemoved),
  };
}

export function toChargeView(charge: ChargeRecord): ChargeView {
  const currency = requireCurrency(charge.currency);
  // A charge waiting for its payer's 3-D Secure has nothing authorised yet.
  const authorised = charge.status !== 'FAILED' && charge.status !== 'PROCESSING' && !isWaitingForPayer(charge);
  const card = cardView(charge);
  const threeDs = charge.threeDs as ThreeDsOutcome | null;
  return {
    chargeId: charge.id,
    providerChargeId: charge.providerChargeId,
    amount: money(charge.capturedAmount > 0n ? charge.capturedAmount : charge.amount, currency),
    providerId: charge.providerId,
    reference: charge.reference,
    paymentInformation: {
      paymentMethodId: charge.paymentMethodId,
      card,
      cardData: card,
      type: charge.paymentType,
      displayType: charge.cardScheme ? `${charge.cardScheme} ${charge.cardMasked?.slice(-4) ?? ''}`.trim() : null,
      providerType: charge.provider?.type ?? null,
      email: charge.email,
      bankPayment: charge.bankAccountNumber
        ? { bankCode: charge.bankCode, accountNumber: charge.bankAccountNumber, accountName: charge.bankAccountName }
        : null,
    },
    customerId: charge.customerId,
    status: publicStatus(charge.status),
    dateAdded: charge.dateAdded.toISOString(),
    successDate: iso(charge.successDate),
    voidDate: iso(charge.voidDate),
    refundedAmount: money(charge.refundedAmount, currency),
    estimatedCost: charge.estimatedCost === null ? null : money(charge.estimatedCost, currency),
    estimatedCostCurrency: charge.estimatedCostCurrency,
    currency: charge.currency,
    refunds: charge.refunds.map((r) => ({ amount: money(r.amount, currency), dateAdded: r.dateAdded.toISOString(), comment: r.comment })),
    failedAttempts: charge.attempts.map((a) => ({
      providerId: a.providerId,
      dateAttempted: a.dateAttempted.toISOString(),
      errorCode: String(a.errorCode),
      errorMessage: a.errorMessage,
      gatewayCode: a.gatewayCode,
      gatewayMessage: a.gatewayMessage,
      isRetryable: a.isRetryable,
    })),
    customer: charge.customer ? customerSummary(charge.customer) : null,
    provider: charge.provider ? { providerId: charge.provider.id, type: charge.provider.type, name: charge.provider.name } : null,
    threeDSServerTransID: null,
    threeDsVerified: threeDs?.transStatus === 'Y',
    authorisationAmount: authorised ? money(charge.amount, currency) : null,
    initiator: charge.initiator === 'CUSTOMER' || charge.initiator === 'MERCHANT' ? charge.initiator : null,
    ip: charge.ip,
    ipInfo: null,
    visaInstallments: null,
    descriptor: charge.descriptor,
    threeDsRedirectUrl: isWaitingForPayer(charge) ? (pendingChallengeOf(charge)?.url ?? null) : null,
    threeDs: threeDs
      ? {
          flow: threeDs.flow ?? null,
          transStatus: threeDs.transStatus ?? null,
          eci: threeDs.eci ?? null,
          version: threeDs.version ?? null,
          liabilityShift: threeDs.liabilityShift ?? null,
        }
      : null,
    paymentTokenId: charge.paymentTokenId,
    subscriptionId: charge.subscriptionId,
    paymentLinkId: charge.paymentLinkId,
    metadata: (charge.metadata as Record<string, string> | null) ?? null,
  };
}

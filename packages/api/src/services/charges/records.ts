import { newId, type ApiError, type Currency, type Keyring } from '@gateway/core';
import type { Account, Prisma } from '@gateway/db';
import type { ProviderFailure } from '@gateway/providers';
import type { ChargeFieldsInput } from '../../schemas/charge';
import type { ProviderWithFees } from '../providers/selection';
import { sealWebhook, type Webhook } from '../webhooks';

/** Card columns as a payment method or token keeps them (masked: first 6 and last 4 only). */
export function cardColumnsOf(row: {
  cardMasked: string | null;
  cardIin: string | null;
  cardScheme: string | null;
  cardType: string | null;
  cardExpiry: string | null;
  cardholder: string | null;
  cardIssuer?: string | null;
  cardCountryCode?: string | null;
  cardCountry?: string | null;
}) {
  const { cardMasked, cardIin, cardScheme, cardType, cardExpiry, cardholder } = row;
  return {
    cardMasked,
    cardIin,
    cardScheme,
    cardType,
    cardExpiry,
    cardholder,
    cardIssuer: row.cardIssuer ?? null,
    cardCountryCode: row.cardCountryCode ?? null,
    cardCountry: row.cardCountry ?? null,
  };
}

/** The request fields every charge variant stores as they were sent (the webhook's authorization sealed, by chargeRow). */
export function chargeDetails(input: Partial<ChargeFieldsInput>) {
  return {
    reference: input.reference ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    customerCode: input.customerCode ?? null,
    invoiceNumber: input.invoiceNumber ?? null,
    ip: input.ip ?? null,
    descriptor: input.descriptor ?? null,
    initiator: input.initiator ?? null,
    threeDsNotificationUrl: input.threeDSNotificationUrl ?? null,
    address: input.address as Prisma.InputJsonValue | undefined,
    order: input.order as Prisma.InputJsonValue | undefined,
    geolocation: input.geolocation as Prisma.InputJsonValue | undefined,
    metadata: input.metadata as Prisma.InputJsonValue | undefined,
    webhook: input.webhook,
  };
}

export interface NewCharge {
  /** Chosen beforehand when something else must name the charge first (a token it consumes). */
  id?: string;
  currency: Currency;
  amount: bigint;
  provider: ProviderWithFees;
  estimatedCost: bigint | undefined;
  paymentType: string;
  /** Everything else the row records: card or bank columns, customer, payment method, request fields. */
  columns: ChargeColumns;
}

/** The columns of a new charge, but its webhook as the request gave it: chargeRow seals it to the row. */
export type ChargeColumns = Omit<Prisma.ChargeUncheckedCreateInput, 'id' | 'accountId' | 'status' | 'currency' | 'amount' | 'webhook'> & {
  webhook?: Webhook;
};

/** The row of a charge about to be sent to its first provider (PROCESSING until it has an answer). */
export function chargeRow(account: Account, charge: NewCharge, keyring: Keyring): Prisma.ChargeUncheckedCreateInput & { id: string } {
  const id = charge.id ?? newId();
  const { webhook, ...columns } = charge.columns;
  return {
    id,
    accountId: account.id,
    providerId: charge.provider.id,
    attemptCount: 1,
    status: 'PROCESSING',
    currency: charge.currency.code,
    amount: charge.amount,
    estimatedCost: charge.estimatedCost ?? null,
    estimatedCostCurrency: charge.estimatedCost === undefined ? null : charge.currency.code,
    paymentType: charge.paymentType,
    ...columns,
    webhook: sealWebhook(keyring, 'Charge', id, webhook),
  };
}

/** A failed provider attempt of a charge, as `failedAttempts` answers it. */
export function failedAttemptRow(chargeId: string, providerId: string, error: ApiError, failure: ProviderFailure) {
  return {
    id: newId(),
    chargeId,
    providerId,
    errorCode: error.code,
    errorMessage: error.message,
    gatewayCode: failure.gatewayCode,
    gatewayMessage: failure.gatewayMessage,
    isRetryable: failure.retryable,
  } satisfies Prisma.ChargeAttemptUncheckedCreateInput;
}

/** The change of a charge that failed for good, with why. */
export function failedCharge(error: ApiError, failure: ProviderFailure) {
  return {
    status: 'FAILED',
    failureCode: error.code,
    failureMessage: error.message,
    gatewayCode: failure.gatewayCode,
    gatewayMessage: failure.gatewayMessage,
  } satisfies Prisma.ChargeUpdateManyMutationInput;
}

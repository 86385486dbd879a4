import {
  ApiError,
  isExpired,
  lookupIin,
  maskCardNumber,
  newId,
  parseExpiry,
  formatExpiry,
  estimateCost,
  type Currency,
  type IinData,
  type Route,
} from '@gateway/core';
import type { Account, ChargeAttempt, Prisma } from '@gateway/db';
import type { CardDetails } from '@gateway/providers';
import type { CardChargeInput, ChargeFieldsInput } from '../../schemas/charge';
import type { Dependencies } from '../deps';
import { requireAmount, requireCurrency } from '../money';
import { connectorFor, providerError } from '../providers/connectors';
import { cardFactsFor, feeRules, leastCostRoutes, requireProvider, type ProviderWithFees } from '../providers/selection';
import { toChargeView } from './view';

/** Where a card charge goes: the provider the caller named, or the cheapest eligible one. */
export type CardChargeTarget = { providerId: string } | 'least-cost';

/** The request fields every charge variant stores as they were sent. */
export function chargeDetails(input: ChargeFieldsInput) {
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
    webhook: input.webhook as Prisma.InputJsonValue | undefined,
  };
}

export function createCardCharging(deps: Dependencies) {
  const { db, clock, logger, config } = deps;

  async function routesFor(
    account: Account,
    input: CardChargeInput,
    target: CardChargeTarget,
    iin: IinData,
  ): Promise<{ currency: Currency; amount: bigint; routes: Route<ProviderWithFees>[] }> {
    if (target === 'least-cost') {
      const currency = requireCurrency(input.currency ?? account.defaultCurrency);
      const amount = requireAmount(input.amount, currency);
      return { currency, amount, routes: await leastCostRoutes(db, account.id, currency.code, amount, iin) };
    }
    const provider = await requireProvider(db, account.id, target.providerId);
    const currency = requireCurrency(input.currency ?? provider.currency);
    const amount = requireAmount(input.amount, currency);
    if (currency.code !== provider.currency) {
      throw new ApiError('CurrencyNotSupported', { message: `Provider ${provider.id} takes ${provider.currency} only` });
    }
    const estimatedCost = estimateCost(amount, cardFactsFor(iin, provider), feeRules(provider.fees));
    return { currency, amount, routes: [{ provider, estimatedCost }] };
  }

  return async function createCardCharge(account: Account, input: CardChargeInput, target: CardChargeTarget) {
    const payment = input.paymentInformation;
    if (!payment) throw new ApiError('InvalidPaymentInformation', { message: 'paymentInformation is required for a card charge' });
    const expiry = parseExpiry(payment.expiryDate);
    if (!expiry) throw new ApiError('InvalidExpiryDate');
    if (isExpired(expiry, clock.now())) throw new ApiError('ExpiredCard', { message: 'The card has expired' });

    const iin = lookupIin(payment.cardNumber);
    const { currency, amount, routes } = await routesFor(account, input, target, iin);
    const first = routes[0];
    if (!first) throw new ApiError('NoCardProvidersConfigured');

    const capture = input.capture ?? true;
    const chargeId = newId();
    await db.charge.create({
      data: {
        id: chargeId,
        accountId: account.id,
        providerId: first.provider.id,
        attemptCount: 1,
        status: 'PROCESSING',
        currency: currency.code,
        amount,
        estimatedCost: first.estimatedCost ?? null,
        estimatedCostCurrency: first.estimatedCost === undefined ? null : currency.code,
        paymentType: 'CARD',
        cardMasked: maskCardNumber(payment.cardNumber),
        cardIin: payment.cardNumber.slice(0, 6),
        cardScheme: iin.scheme,
        cardType: iin.cardType,
        cardExpiry: formatExpiry(expiry),
        cardholder: payment.cardholder ?? null,
        cardIssuer: iin.issuer,
        cardCountryCode: iin.countryCode,
        cardCountry: iin.country,
        ...chargeDetails(input),
      },
    });

    const card: CardDetails = {
      number: payment.cardNumber,
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      cvc: payment.ccv,
      cardholder: payment.cardholder,
    };

    const failedAttempts: ChargeAttempt[] = [];
    for (const [index, route] of routes.entries()) {
      const attempt = index + 1;
      const { provider, estimatedCost } = route;
      if (attempt > 1) {
        await db.charge.update({
          where: { id: chargeId },
          data: {
            providerId: provider.id,
            attemptCount: attempt,
            estimatedCost: estimatedCost ?? null,
            estimatedCostCurrency: estimatedCost === undefined ? null : currency.code,
          },
        });
      }
      const connector = connectorFor(provider, config);
      const idempotencyKey = `${chargeId}:${attempt}`;
      const result = await connector.authorise({
        idempotencyKey,
        amount,
        currency: currency.code,
        capture,
        source: { type: 'card', card },
        reference: input.reference,
        descriptor: input.descriptor,
      });

      if (result.ok) {
        const now = clock.now();
        const charge = await db.charge.update({
          where: { id: chargeId, status: 'PROCESSING' },
          data: result.value.captured
            ? { status: 'SUCCESS', providerChargeId: result.value.providerChargeId, capturedAmount: amount, successDate: now }
            : { status: 'AUTHORISE', providerChargeId: result.value.providerChargeId },
        });
        logger.info({ chargeId, providerId: provider.id, status: charge.status, attempt }, 'charge completed');
        // A new charge has no refunds yet and its attempts are in hand: no need to read them back.
        return toChargeView({ ...charge, provider, refunds: [], attempts: failedAttempts });
      }

      const { failure } = result;
      if (failure.category === 'timeout') {
        // The provider may have authorised before we stopped waiting: cancel whatever it did.
        const reversal = await connector.reverse({ idempotencyKey });
        if (!reversal.ok)
          logger.warn({ chargeId, providerId: provider.id, gatewayCode: reversal.failure.gatewayCode }, 'reversal after timeout failed');
      }
      const error = providerError(failure, { chargeId });
      const last = !failure.retryable || target !== 'least-cost' || attempt === routes.length;
      const recordAttempt = db.chargeAttempt.create({
        data: {
          id: newId(),
          chargeId,
          providerId: provider.id,
          errorCode: error.code,
          errorMessage: error.message,
          gatewayCode: failure.gatewayCode,
          gatewayMessage: failure.gatewayMessage,
          isRetryable: failure.retryable,
        },
      });
      const markFailed = db.charge.update({
        where: { id: chargeId, status: 'PROCESSING' },
        data: {
          status: 'FAILED',
          failureCode: error.code,
          failureMessage: error.message,
          gatewayCode: failure.gatewayCode,
          gatewayMessage: failure.gatewayMessage,
        },
      });
      failedAttempts.push(last ? (await db.$transaction([recordAttempt, markFailed]))[0] : await recordAttempt);
      logger.info(
        { chargeId, providerId: provider.id, attempt, category: failure.category, retryable: failure.retryable },
        'provider attempt failed',
      );
      if (last) throw error;
    }
    throw new ApiError('UnknownError', { http: 500 });
  };
}

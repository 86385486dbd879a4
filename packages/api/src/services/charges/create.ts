import {
  ApiError,
  isExpired,
  lookupIin,
  maskCardNumber,
  parseExpiry,
  formatExpiry,
  type Currency,
  type IinData,
  type Route,
} from '@gateway/core';
import type { Account } from '@gateway/db';
import type { CardDetails } from '@gateway/providers';
import type { CardChargeInput } from '../../schemas/charge';
import type { Dependencies } from '../deps';
import { typeOfProvider } from '../providers/currencies';
import { requireAmount, requireCurrency } from '../money';
import { chargeMoney } from '../providers/currencies';
import { estimatedCost, leastCostRoutes, requireProvider, type ProviderWithFees } from '../providers/selection';
import type { AttemptRunner } from './attempts';
import { chargeDetails, chargeRow } from './records';
import { insertCharge } from './statements';
import type { ChargeOrigin } from './stored';
import { externalThreeDsRefused, threeDsPlan } from './three-d-secure';

/** Where a card charge goes: the provider the caller named, or the cheapest eligible one. */
export type CardChargeTarget = { providerId: string } | 'least-cost';

export function createCardCharging(deps: Dependencies, { runAttempts }: Pick<AttemptRunner, 'runAttempts'>) {
  const { db, clock, config } = deps;

  async function routesFor(
    account: Account,
    input: CardChargeInput,
    target: CardChargeTarget,
    iin: IinData,
  ): Promise<{ currency: Currency; amount: bigint; routes: Route<ProviderWithFees>[] }> {
    if (target === 'least-cost') {
      const currency = requireCurrency(input.currency ?? account.defaultCurrency);
      const amount = requireAmount(input.amount, currency);
      return { currency, amount, routes: await leastCostRoutes(db, account.id, currency, amount, iin, config.exchangeRates) };
    }
    const provider = await requireProvider(db, account.id, target.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    return {
      currency,
      amount,
      routes: [{ provider, estimatedCost: estimatedCost(provider, iin, currency, amount, config.exchangeRates) }],
    };
  }

  return async function createCardCharge(
    account: Account,
    input: CardChargeInput,
    target: CardChargeTarget,
    { heldKey, browser }: Pick<ChargeOrigin, 'heldKey' | 'browser'> = {},
  ) {
    const payment = input.paymentInformation;
    if (!payment) throw new ApiError('InvalidPaymentInformation', { message: 'paymentInformation is required for a card charge' });
    const expiry = parseExpiry(payment.expiryDate);
    if (!expiry) throw new ApiError('InvalidExpiryDate');
    if (isExpired(expiry, clock.now())) throw new ApiError('ExpiredCard', { message: 'The card has expired' });

    const iin = lookupIin(payment.cardNumber);
    const { currency, amount, routes } = await routesFor(account, input, target, iin);
    const externalThreeDs = payment.externalThreeDsData;
    // Authentication the merchant ran elsewhere goes only where it can be passed on, never dropped.
    const usable = externalThreeDs ? routes.filter((route) => typeOfProvider(route.provider).operations.has('externalThreeDs')) : routes;
    const first = usable[0];
    if (!first && routes.length > 0) throw externalThreeDsRefused();
    if (!first) throw new ApiError('NoCardProvidersConfigured');
    const threeDs = threeDsPlan(account, input, { publicUrl: config.publicUrl, browser });

    const card: CardDetails = {
      number: payment.cardNumber,
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      cvc: payment.ccv,
      cardholder: payment.cardholder,
    };
    const charge = await insertCharge(
      db,
      chargeRow(
        account,
        {
          id: heldKey?.resourceId,
          currency,
          amount,
          provider: first.provider,
          estimatedCost: first.estimatedCost,
          paymentType: 'CARD',
          columns: {
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
            threeDsToken: threeDs?.token,
          },
        },
        config.keyring,
      ),
      heldKey,
    );
    return runAttempts({
      charge,
      currency,
      capture: input.capture ?? true,
      routes: usable.map((route) => ({ ...route, source: { type: 'card', card } })),
      failover: target === 'least-cost',
      threeDs,
      externalThreeDs,
    });
  };
}

import { ApiError, lookupIin, newId, notFound, parseExpiry, type Currency } from '@gateway/core';
import type { Account, PaymentMethod, PaymentToken, Prisma } from '@gateway/db';
import type { PaymentSource } from '@gateway/providers';
import type {
  BankAccountChargeInput,
  ChargeFieldsInput,
  CustomerChargeInput,
  NetworkTokenChargeInput,
  PaymentMethodChargeInput,
  TokenChargeInput,
  WalletChargeInput,
} from '../../schemas/charge';
import type { Dependencies } from '../deps';
import type { PaymentMethodService } from '../payment-methods';
import { storedCardRef } from '../payment-methods/saving';
import type { StoredPayTo } from '../payment-methods/view';
import { chargeMoney, chargeRefusal, typeOfProvider } from '../providers/currencies';
import { estimatedCost, requireProvider, type ProviderWithFees } from '../providers/selection';
import type { VaultService } from '../vault';
import type { AttemptRunner, ChargeRoute } from './attempts';
import type { createDebitCharging } from './debits';
import { cardColumnsOf, chargeDetails, chargeRow } from './records';
import { refuseOverWalletCap } from './wallet-cap';
import { insertCharge } from './statements';

/** What charging a payment token needs from the token service (services/tokens). */
export interface TokenConsumer {
  consume(account: Account, tokenId: string, usedBy: string, tx?: Prisma.TransactionClient): Promise<PaymentToken>;
}

export interface StoredChargingDeps {
  runAttempts: AttemptRunner;
  paymentMethods: Pick<PaymentMethodService, 'activeMethod'>;
  debits: ReturnType<typeof createDebitCharging>;
  vault: Pick<VaultService, 'readCard' | 'consumeCcv'>;
  tokens: TokenConsumer;
}

/** Links a charge keeps to where it came from. */
export interface ChargeOrigin {
  /**
   * The id the charge must have, chosen by a caller that must never charge twice for one thing (a
   * batch row, a subscription period): a second attempt with the same id is refused by the
   * database (Prisma error P2002) before any provider is called.
   */
  chargeId?: string;
  subscriptionId?: string;
  batchId?: string;
  paymentLinkId?: string;
}

const vaultReader = (account: Account) => `secret-key:…${account.secretKeyHint}`;

/**
 * Charges on stored details: a saved payment method (falling back to its fallbackPaymentMethodId
 * after a retryable failure), a customer's default method, a payment token, a network token, a
 * device-wallet token, and bank accounts. Card routes go through the attempt runner; bank-account
 * and PayTo methods through the debit flow.
 */
export function createStoredCharging(
  { db, config }: Dependencies,
  { runAttempts, debits, vault, tokens, paymentMethods }: StoredChargingDeps,
) {
  function cost(provider: ProviderWithFees, cardIin: string | null, currency: Currency, amount: bigint) {
    if (!cardIin) return undefined;
    return estimatedCost(provider, lookupIin(cardIin.padEnd(16, '0')), currency, amount, config.exchangeRates);
  }

  /** The route of a saved card; none when its provider's type cannot take this amount and currency (a fallback is then skipped). */
  async function cardRoute(method: PaymentMethod, amount: bigint, currency: Currency): Promise<ChargeRoute | undefined> {
    if (method.type !== 'CARD' || !method.providerId || !method.providerPaymentMethodId) return undefined;
    const provider = await requireProvider(db, method.accountId, method.providerId);
    if (chargeRefusal(typeOfProvider(provider), currency, amount)) return undefined;
    return {
      provider,
      estimatedCost: cost(provider, method.cardIin, currency, amount),
      source: { type: 'stored_card', ...storedCardRef(method.providerPaymentMethodId, method.providerPaymentMethodData) },
      // A fallback's charge shows the card it took. Its customer is the method's, or none (saving.ts).
      chargeColumns: { paymentMethodId: method.id, ...cardColumnsOf(method) },
    };
  }

  async function chargeMethod(
    account: Account,
    method: PaymentMethod,
    input: ChargeFieldsInput & { recurring?: boolean },
    origin: ChargeOrigin = {},
    resume = false,
  ) {
    if (!method.providerId) throw new ApiError('InvalidPaymentMethod', { message: 'The payment method has no provider' });
    const provider = await requireProvider(db, account.id, method.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const { chargeId, ...links } = origin;
    const columns = {
      ...chargeDetails(input),
      ...links,
      paymentMethodId: method.id,
      customerId: method.customerId,
      recurring: input.recurring ?? null,
    };

    if (method.type === 'BANK_ACCOUNT' || method.type === 'PAYTO') {
      const payTo = method.payTo as Partial<StoredPayTo> | null;
      const agreementId = payTo?.payToId ?? '';
      const agreed = payTo?.currency ?? provider.currency;
      if (method.type === 'PAYTO' && currency.code !== agreed) {
        throw new ApiError('CurrencyNotSupported', {
          message: `The PayTo agreement is in ${agreed}: it cannot be charged in ${currency.code}`,
        });
      }
      // The agreement's limit is in whole units of the currency; the payer agreed to no more.
      if (payTo?.maximumAmount !== undefined && amount > BigInt(payTo.maximumAmount) * 10n ** BigInt(currency.exponent)) {
        throw new ApiError('AmountExceedsMaxAmountForPayToAgreement', {
          message: `The PayTo agreement allows at most ${payTo.maximumAmount} ${currency.code} per payment`,
        });
      }
      return debits.debit(account, {
        id: chargeId,
        currency,
        amount,
        provider,
        paymentType: method.type,
        account:
          method.type === 'PAYTO'
            ? { type: 'payto', agreementId }
            : {
                type: 'bank_account',
                bankCode: method.bankCode ?? '',
                accountNumber: method.bankAccountNumber ?? '',
                accountName: method.bankAccountName ?? '',
              },
        columns: {
          ...columns,
          bankCode: method.bankCode,
          bankAccountNumber: method.bankAccountNumber,
          bankAccountName: method.bankAccountName,
        },
      });
    }

    const first = await cardRoute(method, amount, currency);
    if (!first) throw new ApiError('InvalidPaymentMethod', { message: 'The payment method cannot be charged' });
    const fallback = method.fallbackPaymentMethodId
      ? await db.paymentMethod.findFirst({ where: { id: method.fallbackPaymentMethodId, accountId: account.id, dateRemoved: null } })
      : null;
    const second = fallback ? await cardRoute(fallback, amount, currency) : undefined;
    const routes = second ? [first, second] : [first];

    const row = chargeRow(
      account,
      {
        id: chargeId,
        currency,
        amount,
        provider,
        estimatedCost: first.estimatedCost,
        paymentType: 'CARD',
        columns: { ...columns, ...cardColumnsOf(method) },
      },
      config.keyring,
    );
    const charge = resume
      ? await db.charge.findUniqueOrThrow({ where: { id: row.id, status: 'PROCESSING' } })
      : await insertCharge(db, row);
    try {
      return await runAttempts({
        charge,
        currency,
        capture: input.capture ?? true,
        routes,
        failover: routes.length > 1,
        recurring: input.recurring,
      });
    } finally {
      // The first payment with a vaulted card ends the life of its CCV, whatever the outcome.
      for (const used of [method, fallback]) if (used?.vaultItemId) await vault.consumeCcv(account, used.vaultItemId);
    }
  }

  async function createPaymentMethodCharge(account: Account, input: PaymentMethodChargeInput, origin?: ChargeOrigin) {
    return chargeMethod(account, await paymentMethods.activeMethod(account, input.paymentMethodId), input, origin);
  }

  /**
   * Sends the attempts of charge `chargeId`, made by createPaymentMethodCharge with this input and
   * left PROCESSING by a process that died, again with the same keys: the provider answers each as
   * it did the first time (or now, if the first call never reached it), so the payer is charged
   * at most once. The payment method may have been removed since. Card charges only: a debit's
   * settling job sends it again itself (and here its charge id is refused as taken, P2002).
   */
  async function resumePaymentMethodCharge(account: Account, input: PaymentMethodChargeInput, chargeId: string) {
    const method = await db.paymentMethod.findFirstOrThrow({ where: { id: input.paymentMethodId, accountId: account.id } });
    return chargeMethod(account, method, input, { chargeId }, true);
  }

  async function createCustomerCharge(account: Account, input: CustomerChargeInput) {
    const customer = await db.customer.findFirst({ where: { id: input.customerId, accountId: account.id } });
    if (!customer) throw notFound('InvalidCustomerId', 'Customer');
    if (customer.dateRemoved) throw new ApiError('InvalidCustomerIdRemoved', { message: 'The customer was removed' });
    if (!customer.defaultPaymentMethodId) throw new ApiError('CustomerHasNoDefaultPaymentMethodId');
    return chargeMethod(account, await paymentMethods.activeMethod(account, customer.defaultPaymentMethodId), input);
  }

  async function createTokenCharge(account: Account, input: TokenChargeInput, origin: ChargeOrigin = {}) {
    const { chargeId: chosenId, ...links } = origin;
    const chargeId = chosenId ?? newId();
    // The amount is checked against the token's provider before the token is used up: a client's
    // mistake (currency, decimals) must leave the token usable for the corrected request.
    const unused = await db.paymentToken.findFirst({ where: { id: input.token, accountId: account.id }, select: { providerId: true } });
    const provider = unused ? await requireProvider(db, account.id, unused.providerId) : undefined;
    const checked = provider && chargeMoney(provider, input);
    const token = await tokens.consume(account, input.token, `charge:${chargeId}`);
    if (!provider || !checked || !token.vaultItemId) throw new ApiError('InvalidOrExpiredToken');
    const { currency, amount } = checked;
    const expiry = parseExpiry(token.cardExpiry ?? '');
    if (!expiry) throw new ApiError('InvalidExpiryDate');
    const card = await vault.readCard(account, token.vaultItemId, { actor: vaultReader(account), purpose: `charge ${chargeId}` });
    const charge = await db.charge.create({
      data: chargeRow(
        account,
        {
          id: chargeId,
          currency,
          amount,
          provider,
          estimatedCost: cost(provider, token.cardIin, currency, amount),
          paymentType: 'CARD',
          columns: {
            ...chargeDetails(input),
            ...cardColumnsOf(token),
            ...links,
            paymentTokenId: token.id,
            transfer: input.transfer as Prisma.InputJsonValue | undefined,
          },
        },
        config.keyring,
      ),
    });
    const source: PaymentSource = {
      type: 'card',
      card: {
        number: card.cardNumber,
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvc: card.ccv,
        cardholder: token.cardholder ?? undefined,
      },
    };
    try {
      return await runAttempts({
        charge,
        currency,
        capture: input.capture ?? true,
        routes: [{ provider, estimatedCost: charge.estimatedCost ?? undefined, source }],
        failover: false,
      });
    } finally {
      await vault.consumeCcv(account, token.vaultItemId);
    }
  }

  async function createBankAccountCharge(account: Account, input: BankAccountChargeInput) {
    const provider = await requireProvider(db, account.id, input.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const { bankCode, accountNumber, accountName } = input.bankPaymentInformation;
    return debits.debit(account, {
      currency,
      amount,
      provider,
      paymentType: 'BANK_ACCOUNT',
      account: { type: 'bank_account', bankCode, accountNumber, accountName },
      columns: { ...chargeDetails(input), bankCode, bankAccountNumber: accountNumber, bankAccountName: accountName },
    });
  }

  async function createNetworkTokenCharge(account: Account, input: NetworkTokenChargeInput) {
    const method = await db.paymentMethod.findFirst({
      where: { accountId: account.id, networkTokenId: input.networkTokenId, dateRemoved: null },
    });
    if (!method) throw notFound('InvalidPaymentMethodId', 'Network token');
    const provider = await requireProvider(db, account.id, input.providerId);
    const { currency, amount } = chargeMoney(provider, input);
    const charge = await db.charge.create({
      data: chargeRow(
        account,
        {
          currency,
          amount,
          provider,
          estimatedCost: cost(provider, method.cardIin, currency, amount),
          paymentType: 'CARD',
          columns: {
            ...chargeDetails(input),
            ...cardColumnsOf(method),
            paymentMethodId: method.id,
            customerId: method.customerId,
            networkTokenId: input.networkTokenId,
          },
        },
        config.keyring,
      ),
    });
    const source: PaymentSource = { type: 'network_token', networkTokenId: input.networkTokenId };
    return runAttempts({
      charge,
      currency,
      capture: input.capture ?? true,
      routes: [{ provider, estimatedCost: charge.estimatedCost ?? undefined, source }],
      failover: false,
    });
  }

  /**
   * Apple Pay; the provider named by the `providerId` header, else the oldest. `maxAud`: the cap of a
   * public-key charge (wallet-cap.ts), none for the secret key.
   */
  async function createWalletCharge(account: Account, input: WalletChargeInput, providerId: string | undefined, maxAud?: number) {
    const id =
      providerId ??
      (await db.provider.findFirst({ where: { accountId: account.id, dateRemoved: null, type: 'dummy' }, orderBy: { dateAdded: 'asc' } }))
        ?.id;
    if (!id) throw new ApiError('NoCardProvidersConfigured');
    const provider = await requireProvider(db, account.id, id);
    const { currency, amount } = chargeMoney(provider, input);
    // A type without Apple Pay answers FeatureUnavailable from its connector, whatever the cap says.
    const capped = maxAud !== undefined && typeOfProvider(provider).operations.has('applePay');
    if (capped) refuseOverWalletCap(currency, amount, maxAud, config.exchangeRates);
    const charge = await db.charge.create({
      data: chargeRow(
        account,
        {
          currency,
          amount,
          provider,
          estimatedCost: undefined,
          paymentType: 'APPLE_PAY',
          columns: chargeDetails(input),
        },
        config.keyring,
      ),
    });
    const { paymentData } = input.token;
    const source: PaymentSource = {
      type: 'wallet',
      wallet: 'apple_pay',
      paymentData: { ...paymentData, signature: paymentData.signature ?? '', header: paymentData.header ?? {} },
    };
    return runAttempts({ charge, currency, capture: true, routes: [{ provider, estimatedCost: undefined, source }], failover: false });
  }

  return {
    createPaymentMethodCharge,
    resumePaymentMethodCharge,
    createCustomerCharge,
    createTokenCharge,
    createBankAccountCharge,
    createNetworkTokenCharge,
    createWalletCharge,
  };
}

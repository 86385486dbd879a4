import { ApiError, newId, notFound } from '@gateway/core';
import type { Account, PaymentMethod, Prisma } from '@gateway/db';
import type { ProviderConnector, ProviderFailure, StoreCardRequest, StoredCard, StoredCardRef } from '@gateway/providers';
import type { NewPaymentMethod } from '../../schemas/payment-method';
import { cardDetails, keyedCard } from '../cards';
import { cardColumnsFromSummary } from '../charges/attempts';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';
import { connectorFor, providerError } from '../providers/connectors';
import { requireProvider, type ProviderWithFees } from '../providers/selection';
import type { TokenService } from '../tokens';
import type { VaultService } from '../vault';
import { checkVaultCardExpiry } from '../vault/items';
import { sealWebhook } from '../webhooks';
import { paymentMethodInclude, type PaymentMethodRecord, type StoredNetworkToken, type StoredPayTo } from './view';

export type PaymentMethodRow = Prisma.PaymentMethodUncheckedCreateInput & { id: string };

/** What a card payment method needs besides the card: checks and extras at the provider. */
interface CardExtras {
  verify?: boolean;
  createNetworkToken?: boolean;
}

type Columns = Omit<PaymentMethodRow, 'id' | 'accountId'>;

export interface SavingDeps {
  vault: Pick<VaultService, 'sealCard' | 'readCard' | 'consumeCcv'>;
  tokens: Pick<TokenService, 'usable' | 'consume'>;
}

/**
 * A saved card as its provider knows it: the provider's token, and the ids kept beside it in
 * providerPaymentMethodData (a Stripe customer, an Adyen shopperReference; or what the merchant
 * gave as providerTokenData with a token of its own).
 */
export function storedCardRef(providerToken: string, providerData: Prisma.JsonValue | null): StoredCardRef {
  return providerData ? { providerToken, providerData: providerData as Record<string, string> } : { providerToken };
}

/** What a provider keeps beside a card, with what the merchant gave (the provider's ids win); undefined when nothing. */
function keptData(stored: StoredCard, given?: Record<string, string>): Record<string, string> | undefined {
  const data = { ...given, ...stored.providerData };
  return Object.keys(data).length > 0 ? data : undefined;
}

/** Who reads the vault for a request made with the secret key, as the audit log records it. */
const reader = (account: Account) => `secret-key:…${account.secretKeyHint}`;

/** A provider's refusal of a token it should have issued: unknown, used or expired is 51. */
function tokenError(failure: ProviderFailure): ApiError {
  const invalid = failure.category === 'not_found' || failure.category === 'invalid_request';
  return providerError(failure, { action: 'token exchange', ...(invalid && { name: 'InvalidOrExpiredToken' as const }) });
}

/** A payment method found, if it is active: 404 (56) unknown, 73 removed. */
export function requireActive<T extends Pick<PaymentMethod, 'dateRemoved'>>(method: T | null | undefined): T {
  if (!method) throw notFound('InvalidPaymentMethodId', 'Payment method');
  if (method.dateRemoved) throw new ApiError('InvalidPaymentMethodIdRemoved', { message: 'The payment method was removed' });
  return method;
}

/**
 * The provider side of a new payment method, before its row is written: cards are stored at the
 * provider (which keeps its own token for them) and, when asked, verified, given a network token
 * and sealed in our vault; PayTo agreements are set up; bank accounts are kept as given.
 */
export function createSaving({ db, clock, logger, config }: Dependencies, { vault, tokens }: SavingDeps) {
  /** An active payment method of the account: 404 (56) unknown, 73 removed. Read through `client` (a transaction's) when given. */
  async function activeMethod(
    account: Account,
    paymentMethodId: string,
    client: Prisma.TransactionClient = db,
  ): Promise<PaymentMethodRecord> {
    return requireActive(
      await client.paymentMethod.findFirst({ where: { id: paymentMethodId, accountId: account.id }, include: paymentMethodInclude }),
    );
  }

  /**
   * A fallback is charged in place of the method: it must be active and belong to the same customer,
   * or to none (a merchant's shared method), so that one customer's charge never takes another's card.
   */
  async function requireFallback(account: Account, fallbackId: string, customerId: string | null) {
    const fallback = await activeMethod(account, fallbackId);
    if (fallback.customerId !== null && fallback.customerId !== customerId) {
      throw new ApiError('ValidationError', {
        message: 'The fallback payment method belongs to another customer',
        details: { fallbackPaymentMethodId: 'A payment method of the same customer, or of no customer' },
      });
    }
  }

  /** A zero-amount authorisation of the stored card, voided at once. */
  async function verify(connector: ProviderConnector, provider: ProviderWithFees, id: string, stored: StoredCardRef) {
    const result = await connector.authorise({
      idempotencyKey: `${id}:verify`,
      amount: 0n,
      currency: provider.currency,
      capture: false,
      source: { type: 'stored_card', ...stored },
    });
    if (!result.ok) throw providerError(result.failure, { action: 'verification' });
    const voided = await connector.void({ providerChargeId: result.value.providerChargeId, idempotencyKey: `${id}:verify-void` });
    if (!voided.ok) logger.warn({ paymentMethodId: id, gatewayCode: voided.failure.gatewayCode }, 'card verification not voided');
  }

  /**
   * The columns of a card payment method for a card the provider keeps, after the checks asked
   * for. A card this gateway stored there (`ours`) is deleted there again when a check fails.
   * `given`: the merchant's providerTokenData, kept with what the provider keeps beside the card.
   */
  async function cardColumns(
    provider: ProviderWithFees,
    id: string,
    stored: StoredCard,
    ours: boolean,
    extras: CardExtras,
    given?: Record<string, string>,
  ): Promise<Columns> {
    const connector = connectorFor(provider, config);
    const { providerToken } = stored;
    const providerData = keptData(stored, given);
    const ref: StoredCardRef = { providerToken, providerData };
    try {
      if (extras.verify) await verify(connector, provider, id, ref);
      let networkToken: { networkTokenId: string; networkToken: StoredNetworkToken } | undefined;
      if (extras.createNetworkToken) {
        const created = await connector.createNetworkToken({ idempotencyKey: `${id}:network-token`, providerToken });
        if (!created.ok) throw providerError(created.failure, { action: 'network token creation' });
        const { networkTokenId, schemeTokenId, status } = created.value;
        networkToken = { networkTokenId, networkToken: { schemeTokenId, status } };
      }
      return {
        type: 'CARD',
        providerId: provider.id,
        providerPaymentMethodId: providerToken,
        providerPaymentMethodData: providerData,
        ...cardColumnsFromSummary(stored.card),
        ...networkToken,
      };
    } catch (error) {
      if (ours) await connector.deleteStoredCard(ref);
      throw error;
    }
  }

  /**
   * Stores a card (or the card behind a provider's single-use token) at the provider: every way of
   * saving a card but the merchant's own provider token goes through here. The payment method's id
   * is the card owner's reference at the provider (Adyen's shopperReference).
   */
  async function storeCard(
    provider: ProviderWithFees,
    id: string,
    source: StoreCardRequest['source'],
    extras: CardExtras = {},
    given?: Record<string, string>,
  ): Promise<Columns> {
    const stored = await connectorFor(provider, config).storeCard({
      idempotencyKey: `${id}:store`,
      source,
      ownerReference: id,
      currency: provider.currency,
    });
    if (!stored.ok) throw source.type === 'card' ? providerError(stored.failure, { action: 'card storage' }) : tokenError(stored.failure);
    return cardColumns(provider, id, stored.value, true, extras, given);
  }

  async function columnsFor(account: Account, id: string, source: NewPaymentMethod): Promise<Columns> {
    switch (source.kind) {
      case 'card': {
        const card = keyedCard(source.paymentInformation, clock.now(), { allowExpired: source.skipExpiryDateValidation });
        const expiry = { expireSeconds: source.vaultExpireSeconds, expireDate: source.vaultExpireDate };
        if (source.vaultCard) checkVaultCardExpiry(expiry, clock.now());
        const columns = await storeCard(await requireProvider(db, account.id, source.providerId), id, { type: 'card', card }, source);
        const vaulted = source.vaultCard ? await vault.sealCard(account, { cardNumber: card.number, ccv: card.cvc }, expiry) : undefined;
        return { ...columns, vaultItemId: vaulted?.vaultId };
      }
      case 'token': {
        // Used up when the payment method is written (save), in the same transaction.
        const token = await tokens.usable(account, source.token);
        if (!token.vaultItemId) throw new ApiError('InvalidOrExpiredToken');
        const provider = await requireProvider(db, account.id, token.providerId);
        const card = await vault.readCard(account, token.vaultItemId, {
          actor: reader(account),
          purpose: `payment method from token ${id}`,
        });
        try {
          return { ...(await storeCard(provider, id, { type: 'card', card: cardDetails(card, token) })), paymentTokenId: token.id };
        } finally {
          // The token is used up: its CCV has served its one purpose.
          await vault.consumeCcv(account, token.vaultItemId);
        }
      }
      case 'vault': {
        const vaulted = await activeMethod(account, source.paymentMethodId);
        if (!vaulted.vaultItemId) throw new ApiError('NoVaultIdAssociatedWithThisPaymentMethod');
        const provider = await requireProvider(db, account.id, source.providerId);
        const card = await vault.readCard(account, vaulted.vaultItemId, {
          actor: reader(account),
          purpose: `payment method from vault ${id}`,
        });
        const columns = await storeCard(provider, id, {
          type: 'card',
          card: cardDetails({ cardNumber: card.cardNumber, ccv: source.ccv ?? card.ccv }, vaulted),
        });
        return { ...columns, vaultItemId: vaulted.vaultItemId, customerId: vaulted.customerId };
      }
      case 'provider_token': {
        const provider = await requireProvider(db, account.id, source.providerId);
        const described = await connectorFor(provider, config).describeStoredCard(
          storedCardRef(source.providerToken, source.providerTokenData ?? null),
        );
        if (!described.ok) throw tokenError(described.failure);
        return cardColumns(provider, id, described.value, false, source, source.providerTokenData);
      }
      case 'single_use_token': {
        const provider = await requireProvider(db, account.id, source.providerId);
        const token = { type: 'single_use_token' as const, token: source.providerToken };
        return storeCard(provider, id, token, {}, source.providerTokenData);
      }
      case 'bank_account': {
        const provider = await requireProvider(db, account.id, source.providerId);
        const { bankCode, accountNumber, accountName } = source.bankPaymentInformation;
        return { type: 'BANK_ACCOUNT', providerId: provider.id, bankCode, bankAccountNumber: accountNumber, bankAccountName: accountName };
      }
      case 'payto': {
        const provider = await requireProvider(db, account.id, source.providerId);
        const currency = requireCurrency(provider.currency);
        const { payerName, payerPayIdDetails, description, maximumAmount } = source;
        const result = await connectorFor(provider, config).createPayToAgreement({
          idempotencyKey: `${id}:payto`,
          payerName,
          payId: payerPayIdDetails.payId,
          payIdType: payerPayIdDetails.payIdType,
          description,
          maximumAmount: BigInt(maximumAmount) * 10n ** BigInt(currency.exponent),
          currency: currency.code,
        });
        if (!result.ok) throw providerError(result.failure, { action: 'PayTo agreement' });
        const payTo: StoredPayTo = {
          payToId: result.value.agreementId,
          status: result.value.status,
          payerName,
          payerPayIdDetails,
          description,
          maximumAmount,
          currency: currency.code,
        };
        return { type: 'PAYTO', providerId: provider.id, payTo };
      }
    }
  }

  return {
    activeMethod,

    /**
     * Writes a prepared payment method, and uses up the payment token it was made from by `usedBy`
     * ("payment_method:<id>" unless a customer is being created with it) in the same transaction:
     * both or neither, so a crash in between never leaves a token spent on nothing.
     */
    async save(tx: Prisma.TransactionClient, account: Account, row: PaymentMethodRow, usedBy = `payment_method:${row.id}`) {
      if (row.paymentTokenId) await tokens.consume(account, row.paymentTokenId, usedBy, tx);
      await tx.paymentMethod.create({ data: row });
    },

    /**
     * Does the provider work of a new payment method and answers its row, not yet written (the
     * caller writes it with `save`, with its customer when it has one). Its id is `id` when given
     * (an Idempotency-Key's: a repeat after a crash calls the provider with the same keys).
     */
    async prepare(account: Account, source: NewPaymentMethod, owner: { customerId?: string; id?: string } = {}): Promise<PaymentMethodRow> {
      if (source.fallbackPaymentMethodId) {
        const vaultedOwner = source.kind === 'vault' ? (await activeMethod(account, source.paymentMethodId)).customerId : null;
        await requireFallback(account, source.fallbackPaymentMethodId, owner.customerId ?? vaultedOwner);
      }
      const id = owner.id ?? newId();
      const columns = await columnsFor(account, id, source);
      return {
        ...columns,
        id,
        accountId: account.id,
        customerId: owner.customerId ?? columns.customerId ?? null,
        email: source.email ?? null,
        phone: source.phone ?? null,
        ip: source.ip ?? null,
        metadata: source.metadata,
        webhook: sealWebhook(config.keyring, 'PaymentMethod', id, source.webhook),
        fallbackPaymentMethodId: source.fallbackPaymentMethodId ?? null,
        dateAdded: clock.now(),
      };
    },
  };
}

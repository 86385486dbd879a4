import { ApiError, isExpired, notFound, parseExpiry } from '@gateway/core';
import type { Account, Prisma } from '@gateway/db';
import type { NewPaymentMethod, PaymentMethodView } from '../../schemas/payment-method';
import { dateRange, paging, textSearch } from '../../schemas/search';
import { cardColumnsFromSummary } from '../charges/attempts';
import type { Dependencies } from '../deps';
import { bindKey, type HeldKey } from '../idempotency';
import { connectorFor, providerError } from '../providers/connectors';
import { openWebhook, type WebhookService } from '../webhooks';
import { createSaving, storedCardRef, type SavingDeps } from './saving';
import { paymentMethodInclude, toPaymentMethodView, type PaymentMethodRecord } from './view';

export interface PaymentMethodSearch {
  providerId?: string;
  customerId?: string;
  paymentType?: string;
  cardType?: string;
  search?: string;
  includeRemoved?: boolean;
  addedAfter?: Date;
  addedBefore?: Date;
  limit?: number;
  skip?: number;
}

export interface PaymentMethodChanges {
  card?: { expiryDate?: string; cardholder?: string };
  metadata?: Record<string, string>;
}

export type PaymentMethodEventType = 'paymentmethod.created' | 'paymentmethod.updated' | 'paymentmethod.deleted';

/** Saved payment details: cards (kept by the provider, and the vault when asked), bank accounts, PayTo. */
export function createPaymentMethodService(
  deps: Dependencies,
  { webhooks, ...savingDeps }: SavingDeps & { webhooks: Pick<WebhookService, 'record'> },
) {
  const { db, clock, config } = deps;
  const saving = createSaving(deps, savingDeps);

  /**
   * The payment method as answered after a change, recorded as a webhook event in the transaction
   * that made the change (to the account's subscriptions and the payment method's own webhook).
   */
  async function recordEvent(
    tx: Prisma.TransactionClient,
    paymentMethodId: string,
    eventType: PaymentMethodEventType,
  ): Promise<PaymentMethodView> {
    const method = await tx.paymentMethod.findUniqueOrThrow({ where: { id: paymentMethodId }, include: paymentMethodInclude });
    const data = toPaymentMethodView(method);
    const webhook = openWebhook(config.keyring, 'PaymentMethod', method.id, method.webhook);
    await webhooks.record(tx, { accountId: method.accountId, type: 'PaymentMethod', eventType, resourceId: method.id, data, webhook });
    return data;
  }

  /** GatewayDelete: the provider forgets the card it keeps; one it no longer knows is fine. */
  async function forgetAtProvider(method: PaymentMethodRecord): Promise<void> {
    if (method.type !== 'CARD' || !method.provider || !method.providerPaymentMethodId) return;
    const result = await connectorFor(method.provider, config).deleteStoredCard(
      storedCardRef(method.providerPaymentMethodId, method.providerPaymentMethodData),
    );
    if (!result.ok && result.failure.category !== 'not_found') throw providerError(result.failure, { action: 'deletion' });
  }

  return {
    prepare: saving.prepare,
    save: saving.save,
    activeMethod: saving.activeMethod,
    forgetAtProvider,
    recordEvent,

    async create(account: Account, source: NewPaymentMethod, heldKey?: HeldKey): Promise<PaymentMethodView> {
      const row = await saving.prepare(account, source, { id: heldKey?.resourceId });
      return db.$transaction(async (tx) => {
        await saving.save(tx, account, row);
        await bindKey(tx, heldKey, { type: 'payment-method', id: row.id });
        return recordEvent(tx, row.id, 'paymentmethod.created');
      });
    },

    /** A removed payment method is still answered, with dateRemoved. */
    async get(account: Account, paymentMethodId: string): Promise<PaymentMethodView> {
      const method = await db.paymentMethod.findFirst({
        where: { id: paymentMethodId, accountId: account.id },
        include: paymentMethodInclude,
      });
      if (!method) throw notFound('InvalidPaymentMethodId', 'Payment method');
      return toPaymentMethodView(method);
    },

    /** New expiry date or cardholder of a card, at the provider first, then here; metadata replaced. */
    async update(account: Account, paymentMethodId: string, changes: PaymentMethodChanges): Promise<PaymentMethodView> {
      const method = await saving.activeMethod(account, paymentMethodId);
      if (method.type !== 'CARD' || !method.provider || !method.providerPaymentMethodId)
        throw new ApiError('PaymentMethodMustBeOfTypeCard');
      const { expiryDate, cardholder } = changes.card ?? {};
      if (expiryDate === undefined && cardholder === undefined && changes.metadata === undefined) {
        throw new ApiError('NoDataToUpdateThePaymentMethod');
      }
      const expiry = expiryDate === undefined ? undefined : parseExpiry(expiryDate);
      if (expiry && isExpired(expiry, clock.now())) throw new ApiError('ExpiredCard', { message: 'The new expiry date has passed' });
      let card: ReturnType<typeof cardColumnsFromSummary> | undefined;
      if (expiry || cardholder !== undefined) {
        const updated = await connectorFor(method.provider, config).updateStoredCard({
          ...storedCardRef(method.providerPaymentMethodId, method.providerPaymentMethodData),
          expiryMonth: expiry?.month,
          expiryYear: expiry?.year,
          cardholder,
        });
        if (!updated.ok) throw providerError(updated.failure, { action: 'update', name: 'UnableToUpdateThePaymentMethod' });
        card = cardColumnsFromSummary(updated.value.card);
      }
      return db.$transaction(async (tx) => {
        await tx.paymentMethod.update({ where: { id: method.id }, data: { ...card, metadata: changes.metadata } });
        return recordEvent(tx, method.id, 'paymentmethod.updated');
      });
    },

    /**
     * Soft delete: dateRemoved is set and the row kept (a later GET still answers it). With
     * GatewayDelete the provider forgets the card first. A customer's default is cleared.
     */
    async remove(account: Account, paymentMethodId: string, gatewayDelete = true): Promise<PaymentMethodView> {
      const method = await saving.activeMethod(account, paymentMethodId);
      if (gatewayDelete) await forgetAtProvider(method);
      return db.$transaction(async (tx) => {
        const { count } = await tx.paymentMethod.updateMany({
          where: { id: method.id, dateRemoved: null },
          data: { dateRemoved: clock.now() },
        });
        if (count === 0) throw new ApiError('InvalidPaymentMethodIdRemoved', { message: 'The payment method was removed' });
        await tx.customer.updateMany({
          where: { accountId: account.id, defaultPaymentMethodId: method.id },
          data: { defaultPaymentMethodId: null },
        });
        return recordEvent(tx, method.id, 'paymentmethod.deleted');
      });
    },

    async search(account: Account, input: PaymentMethodSearch) {
      const where: Prisma.PaymentMethodWhereInput = {
        AND: [
          { accountId: account.id },
          input.includeRemoved ? {} : { dateRemoved: null },
          input.providerId !== undefined ? { providerId: input.providerId } : {},
          input.customerId !== undefined ? { customerId: input.customerId } : {},
          input.paymentType !== undefined ? { type: input.paymentType.toUpperCase() } : {},
          input.cardType !== undefined ? { cardScheme: input.cardType.toUpperCase() } : {},
          ...textSearch(input.search, ['cardholder', 'email', 'bankAccountName']),
          dateRange(input),
        ],
      };
      const { take, skip } = paging(input);
      const [count, methods] = await Promise.all([
        db.paymentMethod.count({ where }),
        db.paymentMethod.findMany({ where, include: paymentMethodInclude, orderBy: [{ dateAdded: 'desc' }, { id: 'desc' }], take, skip }),
      ]);
      return { limit: take, skip, count, paymentMethods: methods.map(toPaymentMethodView) };
    },
  };
}

export type PaymentMethodService = ReturnType<typeof createPaymentMethodService>;

import type { Charge, Prisma } from '@gateway/db';
import type { Dependencies } from '../deps';
import { openWebhook, type WebhookService } from '../webhooks';
import { chargeInclude, toChargeView } from './view';

/** The event type of every Transaction event (the one the client SDKs' samples show). */
export const TRANSACTION_STATUS_CHANGED = 'transaction.status.changed';

/** What decides whether a change of a charge is reported: its account's subscriptions and its own webhook. */
export type ListenedCharge = Pick<Charge, 'id' | 'accountId' | 'webhook'>;

export type ChargeEvents = ReturnType<typeof createChargeEvents>;

/**
 * How long a transaction that records a provider's answer waits for a database connection
 * (Prisma's default is 2 s): under load, giving up would lose what the provider already did.
 */
export const PROVIDER_OUTCOME_TX = { maxWait: 30_000 } as const;

/**
 * Transaction events (docs/webhooks.md): each change of a charge's status (an answer from the
 * provider, a capture, void or refund, a debit settling or failing, an abandoned charge failed) is
 * written to the outbox in the transaction of the change, with the charge as the API answers it.
 * Charges are the hot path: when nobody listens (no webhook on the charge, no Transaction
 * subscription on its account) the change is written as before, without a transaction or an event.
 */
export function createChargeEvents({ db, config }: Dependencies, webhooks: Pick<WebhookService, 'record' | 'listens'>) {
  const listened = async (charge: ListenedCharge, tx?: Prisma.TransactionClient) =>
    charge.webhook !== null || webhooks.listens(charge.accountId, 'Transaction', tx);

  async function record(tx: Prisma.TransactionClient, chargeId: string): Promise<void> {
    const charge = await tx.charge.findUniqueOrThrow({ where: { id: chargeId }, include: chargeInclude });
    await webhooks.record(tx, {
      accountId: charge.accountId,
      type: 'Transaction',
      eventType: TRANSACTION_STATUS_CHANGED,
      resourceId: charge.id,
      data: toChargeView(charge),
      webhook: openWebhook(config.keyring, 'Charge', charge.id, charge.webhook),
    });
  }

  return {
    /** In the transaction that changed the charge's status: records the event, when anyone listens. */
    async statusChanged(tx: Prisma.TransactionClient, charge: ListenedCharge): Promise<void> {
      if (await listened(charge, tx)) await record(tx, charge.id);
    },

    /**
     * Runs `write`, one statement that may change the charge's status (`changed` tells from its
     * result), in a transaction with the event when anyone listens; else on its own.
     */
    async changing<T>(charge: ListenedCharge, write: (tx: Prisma.TransactionClient) => Promise<T>, changed: (result: T) => boolean) {
      if (!(await listened(charge))) return write(db);
      return db.$transaction(async (tx) => {
        const result = await write(tx);
        if (changed(result)) await record(tx, charge.id);
        return result;
      }, PROVIDER_OUTCOME_TX);
    },
  };
}

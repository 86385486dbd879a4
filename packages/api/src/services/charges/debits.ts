import type { Currency } from '@gateway/core';
import type { Account, Charge, PaymentMethod } from '@gateway/db';
import type { JobHandler } from '@gateway/jobs';
import type { DebitAccount, ProviderFailure } from '@gateway/providers';
import type { Dependencies } from '../deps';
import { bindKey, type HeldKey } from '../idempotency';
import { connectorFor, providerError } from '../providers/connectors';
import type { ProviderWithFees } from '../providers/selection';
import type { ChargeEvents } from './events';
import { SETTLE_DEBIT_QUEUE } from './queues';
import { chargeRow, failedAttemptRow, failedCharge, type ChargeColumns } from './records';
import { toChargeView } from './view';

/** Settlement can take days at a real bank: keep asking, with the job backoff, for that long. */
const SETTLE_ATTEMPTS = 25;

export interface DebitPlan {
  id?: string;
  /** The Idempotency-Key of the request that makes the debit: bound to its charge as it is written. */
  heldKey?: HeldKey;
  currency: Currency;
  amount: bigint;
  provider: ProviderWithFees;
  account: DebitAccount;
  paymentType: 'BANK_ACCOUNT' | 'PAYTO';
  columns: ChargeColumns;
}

/** The account a debit charge draws on, as its row records it (bank columns, or its PayTo method). */
export function debitAccountOf(charge: Charge & { paymentMethod: PaymentMethod | null }): DebitAccount {
  const agreementId = (charge.paymentMethod?.payTo as { payToId?: string } | null)?.payToId;
  if (charge.paymentType === 'PAYTO' && agreementId) return { type: 'payto', agreementId };
  return {
    type: 'bank_account',
    bankCode: charge.bankCode ?? '',
    accountNumber: charge.bankAccountNumber ?? '',
    accountName: charge.bankAccountName ?? '',
  };
}

/**
 * Bank-account and PayTo charges: the provider accepts a debit at once and settles it later, so
 * the charge is answered PENDING and a job asks the provider until it is SUCCESS or FAILED. The
 * job is written with the charge, before the provider is called: if the answer to the debit is
 * lost, or the process dies, the job sends the debit again with the same key and carries on.
 */
export function createDebitCharging({ db, clock, logger, config, jobs }: Dependencies, events: ChargeEvents) {
  async function fail(charge: Charge, provider: ProviderWithFees, failure: ProviderFailure) {
    const error = providerError(failure, { details: { chargeId: charge.id } });
    await db.$transaction(async (tx) => {
      await tx.chargeAttempt.create({ data: failedAttemptRow(charge.id, provider.id, error, failure) });
      const { count } = await tx.charge.updateMany({
        where: { id: charge.id, status: { in: ['PROCESSING', 'PENDING'] } },
        data: failedCharge(error, failure),
      });
      if (count === 1) await events.statusChanged(tx, charge);
    });
    return error;
  }

  /** Sends the debit (idempotent by the charge's key); the provider's id, or the refusal, or unknown. */
  async function send(charge: Charge, provider: ProviderWithFees, account: DebitAccount) {
    const result = await connectorFor(provider, config).debit({
      idempotencyKey: `${charge.id}:1`,
      amount: charge.amount,
      currency: charge.currency,
      account,
      reference: charge.reference ?? undefined,
    });
    if (result.ok) {
      await db.charge.updateMany({
        where: { id: charge.id, status: 'PROCESSING' },
        data: { status: 'PENDING', providerChargeId: result.value.providerChargeId },
      });
      return 'sent' as const;
    }
    if (result.failure.retryable) return 'unknown' as const;
    return fail(charge, provider, result.failure);
  }

  async function debit(account: Account, plan: DebitPlan) {
    const { heldKey, ...debit } = plan;
    const { provider } = debit;
    const charge = await db.$transaction(async (tx) => {
      const row = await tx.charge.create({
        data: chargeRow(account, { ...debit, estimatedCost: undefined }, config.keyring),
      });
      await bindKey(tx, heldKey, { type: 'charge', id: row.id });
      const runAt = new Date(clock.now().getTime() + provider.settlementDelayMs);
      await jobs.enqueue(
        SETTLE_DEBIT_QUEUE,
        { chargeId: row.id },
        { runAt, dedupeKey: `settle:${row.id}`, maxAttempts: SETTLE_ATTEMPTS, group: account.id, tx },
      );
      return row;
    });
    const sent = await send(charge, provider, debit.account);
    if (sent !== 'sent' && sent !== 'unknown') throw sent;
    const current = await db.charge.findUniqueOrThrow({ where: { id: charge.id } });
    logger.info({ chargeId: charge.id, providerId: provider.id, status: current.status }, 'debit accepted');
    const customer = current.customerId ? await db.customer.findUnique({ where: { id: current.customerId } }) : null;
    return toChargeView({ ...current, provider, customer, refunds: [], attempts: [] });
  }

  const settle: JobHandler = async (payload) => {
    const chargeId = String((payload as { chargeId?: unknown }).chargeId);
    const charge = await db.charge.findUniqueOrThrow({
      where: { id: chargeId },
      include: { provider: { include: { fees: true } }, paymentMethod: true },
    });
    const { provider } = charge;
    if (!provider || (charge.status !== 'PROCESSING' && charge.status !== 'PENDING')) return;
    if (!charge.providerChargeId) {
      const sent = await send(charge, provider, debitAccountOf(charge));
      if (sent === 'unknown') throw new Error('the debit was not confirmed yet');
      if (sent !== 'sent') return;
      return settle(payload, undefined as never);
    }
    const result = await connectorFor(provider, config).paymentState({ providerChargeId: charge.providerChargeId });
    if (!result.ok || result.value.state === 'pending') throw new Error('the debit has not settled yet');
    if (result.value.state === 'failed') {
      await fail(charge, provider, result.value.failure);
      logger.info({ chargeId, providerId: provider.id }, 'debit failed');
      return;
    }
    await events.changing(
      charge,
      (tx) =>
        tx.charge.updateMany({
          where: { id: chargeId, status: 'PENDING' },
          data: { status: 'SUCCESS', capturedAmount: charge.amount, successDate: clock.now() },
        }),
      ({ count }) => count === 1,
    );
    logger.info({ chargeId, providerId: provider.id }, 'debit settled');
  };

  return { debit, jobHandlers: { [SETTLE_DEBIT_QUEUE]: settle } };
}

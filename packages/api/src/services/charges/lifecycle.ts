import { ApiError, canTransition, newId, notFound } from '@gateway/core';
import type { Account, Prisma, UnknownOutcome } from '@gateway/db';
import type { ProviderFailure } from '@gateway/providers';
import type { Dependencies } from '../deps';
import { bindKey, type HeldKey, type KeyAnswer } from '../idempotency';
import type { NotificationService, PendingModification } from '../notifications';
import { requireAmount, requireCurrency } from '../money';
import { connectorFor, providerError, unconfirmedError } from '../providers/connectors';
import type { ChargeEvents, ListenedCharge } from './events';
import { CONFIRM_AFTER_MS, CONFIRM_CAPTURE_QUEUE, CONFIRM_REFUND_QUEUE, CONFIRM_VOID_QUEUE } from './queues';
import { heldError, resendable, type HeldCall, type UnknownOutcomes } from './unknown-outcomes';
import { chargeInclude, toChargeView, type ChargeRecord } from './view';

/**
 * Capture, void and refund of an existing charge. Each provider call is bracketed by two
 * conditional updates: the first reserves the change (one capture or void of a charge holds the
 * `pendingOperation` lease; a refund reserves its amount against what is left to refund) and, in
 * the same transaction, enqueues the job that would confirm it if this process died; the second
 * settles it and cancels that job. A definite refusal releases the reservation; an unknown outcome
 * keeps it until the job has heard from the provider (same idempotency key), so money can never
 * move twice and a lease is never left behind.
 */

type Operation = 'capture' | 'void';

const QUEUES: Record<Operation, string> = { capture: CONFIRM_CAPTURE_QUEUE, void: CONFIRM_VOID_QUEUE };
const jobKey = (operation: Operation | 'refund', id: string) => `confirm-${operation}:${id}`;
/** A capture or void lease given back. */
const RELEASED = { pendingOperation: null, pendingOperationAt: null } as const;

export function createChargeLifecycle(
  { db, clock, logger, config, jobs }: Dependencies,
  events: ChargeEvents,
  { keepPending }: Pick<NotificationService, 'keepPending'>,
  unknownOutcomes: UnknownOutcomes,
) {
  async function load(account: Account, chargeId: string): Promise<ChargeRecord> {
    const charge = await db.charge.findFirst({ where: { id: chargeId, accountId: account.id }, include: chargeInclude });
    if (!charge) throw notFound('InvalidChargeId', 'Charge');
    return charge;
  }

  function requireStatus(charge: ChargeRecord, transition: 'capture' | 'void' | 'refund') {
    if (!canTransition(charge.status, transition)) {
      const verb = { capture: 'captured', void: 'voided', refund: 'refunded' }[transition];
      throw new ApiError('InvalidChargeStatus', { message: `A charge with status ${charge.status} cannot be ${verb}` });
    }
  }

  function providerOf(charge: ChargeRecord) {
    const { provider, providerChargeId } = charge;
    if (!provider || !providerChargeId) throw new ApiError('InvalidChargeStatus', { message: 'The charge has no provider payment' });
    return { provider, connector: connectorFor(provider, config), providerChargeId };
  }

  const later = () => new Date(clock.now().getTime() + CONFIRM_AFTER_MS);

  /** Takes the capture/void lease of an authorised charge (with its confirming job), or explains why not. */
  async function lease(account: Account, charge: ChargeRecord, operation: Operation, payload: Prisma.InputJsonObject, heldKey?: HeldKey) {
    const taken = await db.$transaction(async (tx) => {
      const { count } = await tx.charge.updateMany({
        where: { id: charge.id, accountId: account.id, status: 'AUTHORISE', pendingOperation: null },
        data: { pendingOperation: operation, pendingOperationAt: clock.now() },
      });
      if (count !== 1) return false;
      await jobs.enqueue(QUEUES[operation], payload, { runAt: later(), dedupeKey: jobKey(operation, charge.id), group: account.id, tx });
      await bindKey(tx, heldKey, { type: operation, id: charge.id });
      return true;
    });
    if (taken) return;
    const current = await load(account, charge.id);
    requireStatus(current, operation);
    throw new ApiError('InvalidChargeStatus', {
      http: 409,
      retryable: true,
      message: `A ${current.pendingOperation ?? 'change'} of this charge is in progress`,
    });
  }

  /**
   * Settles (with its event) or releases a capture/void lease once the provider has answered
   * definitely; a change the provider settles later is kept `pending` its notification.
   */
  async function finish(
    charge: ListenedCharge,
    operation: Operation,
    data: Prisma.ChargeUpdateManyMutationInput,
    pending?: PendingModification,
  ) {
    await db.$transaction((tx) => finishIn(tx, charge, operation, data, pending));
  }

  /** `finish` in the caller's transaction: true when it changed the charge (the lease was still held). */
  async function finishIn(
    tx: Prisma.TransactionClient,
    charge: ListenedCharge,
    operation: Operation,
    data: Prisma.ChargeUpdateManyMutationInput,
    pending?: PendingModification,
  ): Promise<boolean> {
    const { count } = await tx.charge.updateMany({ where: { id: charge.id, status: 'AUTHORISE', pendingOperation: operation }, data });
    if (count === 1 && data.status !== undefined) await events.statusChanged(tx, charge);
    if (count === 1 && pending) await keepPending(tx, pending);
    await jobs.cancel(jobKey(operation, charge.id), { tx });
    return count === 1;
  }

  /** The change of a charge whose capture (of `captured`) or void the provider made. */
  const doneChange = (operation: Operation, captured: bigint): Prisma.ChargeUpdateManyMutationInput =>
    operation === 'capture'
      ? { ...RELEASED, status: 'SUCCESS', capturedAmount: captured, successDate: clock.now() }
      : { ...RELEASED, status: 'AUTHORISE_CANCELLED', voidDate: clock.now() };

  /**
   * Settles a capture, void or refund held for staff (unknown-outcomes.ts) as they found it at the
   * provider: made (a refund with the provider's id of it), or not (its reservation released).
   */
  async function settleHeld(
    tx: Prisma.TransactionClient,
    held: UnknownOutcome,
    made: { providerReference: string } | false,
  ): Promise<boolean> {
    const charge = await tx.charge.findUniqueOrThrow({ where: { id: held.chargeId } });
    if (held.refundId)
      return finishRefundIn(tx, held.refundId, charge, held.amount, made ? { providerRefundId: made.providerReference } : 'failed');
    const operation = held.operation as Operation;
    // A capture made as a transaction of its own (NAB's completion) names the payment from now on.
    const renamed = made && made.providerReference ? { providerChargeId: made.providerReference } : {};
    return finishIn(tx, charge, operation, made ? { ...doneChange(operation, held.amount), ...renamed } : RELEASED);
  }

  /** The modification to keep when the provider answered "received" (Adyen). */
  function pendingOf(
    charge: ChargeRecord,
    kind: PendingModification['kind'],
    amount: bigint,
    answer: { pending?: boolean; providerReference?: string },
    refundId?: string,
  ): PendingModification | undefined {
    if (!answer.pending || !charge.providerId) return undefined;
    return { providerId: charge.providerId, chargeId: charge.id, kind, amount, refundId, providerReference: answer.providerReference };
  }

  /**
   * The provider idempotency key of a capture or void of the charge, the same for the request and
   * its confirming job; a new one once the provider failed an earlier one by notification (else the
   * provider would answer the failed one again), or staff settled one held as not made.
   */
  async function operationKey(charge: ChargeRecord, operation: Operation): Promise<string> {
    const chargeId = charge.id;
    const [failed, settled] = await Promise.all([
      db.providerModification.count({ where: { chargeId, kind: operation, status: 'FAILED' } }),
      // Only a provider that cannot take a call twice has held calls (unknown-outcomes.ts).
      charge.provider && !resendable(charge.provider)
        ? db.unknownOutcome.count({ where: { chargeId, operation, resolvedAt: { not: null } } })
        : 0,
    ]);
    const earlier = failed + settled;
    return earlier === 0 ? `${chargeId}:${operation}` : `${chargeId}:${operation}:${earlier + 1}`;
  }

  /**
   * Calls the provider for a leased capture or void and records the outcome; used by the request
   * and, with the same idempotency key, by the confirming job.
   */
  async function completeOperation(chargeId: string, operation: Operation, amount?: bigint): Promise<void> {
    const charge = await db.charge.findUniqueOrThrow({ where: { id: chargeId }, include: chargeInclude });
    if (charge.pendingOperation !== operation) return;
    const { connector, providerChargeId } = providerOf(charge);
    const idempotencyKey = await operationKey(charge, operation);
    const result =
      operation === 'capture'
        ? await connector.capture({ providerChargeId, amount: amount ?? charge.amount, idempotencyKey, currency: charge.currency })
        : await connector.void({ providerChargeId, idempotencyKey });
    if (result.ok) {
      const captured = amount ?? charge.amount;
      // A capture that is a transaction of its own (NAB's completion) names the payment from now on.
      const renamed = 'providerChargeId' in result.value ? result.value.providerChargeId : undefined;
      await finish(
        charge,
        operation,
        { ...doneChange(operation, captured), ...(renamed !== undefined && { providerChargeId: renamed }) },
        pendingOf(charge, operation, operation === 'capture' ? captured : 0n, result.value),
      );
      logger.info({ chargeId, operation }, `charge ${operation === 'capture' ? 'captured' : 'voided'}`);
      return;
    }
    await refuseOrWait(result.failure, { charge, operation, idempotencyKey, amount: amount ?? charge.amount }, { chargeId });
    await finish(charge, operation, RELEASED);
    throw providerError(result.failure, { action: operation, name: operation === 'capture' ? 'UnableToCapture' : 'UnableToVoid' });
  }

  /** A capture, void or refund as unknown-outcomes.ts holds it. */
  type Call = Omit<HeldCall, 'provider' | 'providerChargeId'> & { charge: ChargeRecord };
  const held = ({ charge, ...call }: Call): HeldCall => ({
    ...call,
    charge,
    provider: providerOf(charge).provider,
    providerChargeId: charge.providerChargeId,
  });
  const jobKeyOf = (call: Call) => jobKey(call.operation as Operation | 'refund', call.refundId ?? call.charge.id);

  /**
   * An unknown outcome keeps the reservation for the confirming job and tells the client so. At a
   * provider that cannot take a call twice (NAB Transact) every answer is final, and a lost answer
   * is held for staff at once, with its reservation (unknown-outcomes.ts).
   */
  async function refuseOrWait(failure: ProviderFailure, call: Call, details: Record<string, string>) {
    const { provider } = providerOf(call.charge);
    if (resendable(provider)) {
      if (failure.retryable) throw unconfirmedError(failure, call.operation, details);
      return;
    }
    if (failure.category !== 'timeout') return;
    await unknownOutcomes.hold(held(call));
    await jobs.cancel(jobKeyOf(call));
    throw heldError(call.operation, details);
  }

  /**
   * The confirming job's work, for a request that did not finish (its process died, or it is still
   * waiting past CONFIRM_AFTER_MS): the call sent again with its key, or held for staff at a provider
   * that cannot take a call twice, since nobody knows whether the request's call left.
   */
  async function confirmOperation(chargeId: string, operation: Operation, amount?: bigint): Promise<void> {
    const charge = await db.charge.findUniqueOrThrow({ where: { id: chargeId }, include: chargeInclude });
    if (charge.pendingOperation !== operation) return;
    if (resendable(providerOf(charge).provider)) return completeOperation(chargeId, operation, amount);
    const idempotencyKey = await operationKey(charge, operation);
    await unknownOutcomes.hold(held({ charge, operation, idempotencyKey, amount: amount ?? charge.amount }));
  }

  async function confirmRefund(refundId: string): Promise<void> {
    const refund = await db.refund.findUniqueOrThrow({ where: { id: refundId }, include: { charge: { include: chargeInclude } } });
    if (refund.status !== 'PENDING') return;
    if (resendable(providerOf(refund.charge).provider)) return completeRefund(refundId);
    await unknownOutcomes.hold(
      held({ charge: refund.charge, operation: 'refund', idempotencyKey: refundId, refundId, amount: refund.amount }),
    );
  }

  async function capture(account: Account, chargeId: string, requested?: string | number, heldKey?: HeldKey) {
    const charge = await load(account, chargeId);
    requireStatus(charge, 'capture');
    const amount = requested === undefined ? charge.amount : requireAmount(requested, requireCurrency(charge.currency));
    if (amount > charge.amount) {
      const message = 'The capture amount is more than the authorised amount';
      throw new ApiError('InvalidCaptureAmountPassed', { message, details: { amount: message } });
    }
    await lease(account, charge, 'capture', { chargeId, amount: String(amount) }, heldKey);
    await completeOperation(chargeId, 'capture', amount);
    return toChargeView(await load(account, chargeId));
  }

  async function voidCharge(account: Account, chargeId: string, heldKey?: HeldKey) {
    const charge = await load(account, chargeId);
    requireStatus(charge, 'void');
    await lease(account, charge, 'void', { chargeId }, heldKey);
    await completeOperation(chargeId, 'void');
    return toChargeView(await load(account, chargeId));
  }

  /** Reserves `amount` of what is left to refund (with the confirming job); false when less is left. */
  async function reserveRefund(
    account: Account,
    chargeId: string,
    refund: { id: string; amount: bigint; comment: string | null },
    heldKey: HeldKey | undefined,
  ) {
    const { id: refundId, amount, comment } = refund;
    return db.$transaction(async (tx) => {
      const reserved = await tx.$executeRaw`
        UPDATE "Charge" SET "refundPendingAmount" = "refundPendingAmount" + ${amount}
        WHERE "id" = ${chargeId} AND "accountId" = ${account.id}
          AND "status" IN ('SUCCESS', 'PARTIAL_REFUND')
          AND "capturedAmount" - "refundedAmount" - "refundPendingAmount" >= ${amount}`;
      if (reserved !== 1) return false;
      await tx.refund.create({ data: { id: refundId, chargeId, amount, comment, status: 'PENDING' } });
      await jobs.enqueue(
        CONFIRM_REFUND_QUEUE,
        { refundId },
        { runAt: later(), dedupeKey: jobKey('refund', refundId), group: account.id, tx },
      );
      await bindKey(tx, heldKey, { type: 'refund', id: refundId });
      return true;
    });
  }

  /** Moves a pending refund to its final state (with its event); only the first of concurrent callers changes anything. */
  async function finishRefund(
    refundId: string,
    charge: ListenedCharge,
    amount: bigint,
    outcome: { providerRefundId: string; pending?: PendingModification } | 'failed',
  ) {
    await db.$transaction((tx) => finishRefundIn(tx, refundId, charge, amount, outcome));
  }

  /** `finishRefund` in the caller's transaction: true when it changed the refund (it was still pending). */
  async function finishRefundIn(
    tx: Prisma.TransactionClient,
    refundId: string,
    charge: ListenedCharge,
    amount: bigint,
    outcome: { providerRefundId: string; pending?: PendingModification } | 'failed',
  ): Promise<boolean> {
    const chargeId = charge.id;
    const { count } = await tx.refund.updateMany({
      where: { id: refundId, status: 'PENDING' },
      data: outcome === 'failed' ? { status: 'FAILED' } : { status: 'SUCCEEDED', providerRefundId: outcome.providerRefundId },
    });
    if (count === 1 && outcome === 'failed') {
      await tx.$executeRaw`UPDATE "Charge" SET "refundPendingAmount" = "refundPendingAmount" - ${amount} WHERE "id" = ${chargeId}`;
    } else if (count === 1) {
      await tx.$executeRaw`
        UPDATE "Charge" SET
          "refundPendingAmount" = "refundPendingAmount" - ${amount},
          "refundedAmount" = "refundedAmount" + ${amount},
          "status" = (CASE WHEN "refundedAmount" + ${amount} >= "capturedAmount" THEN 'REFUND' ELSE 'PARTIAL_REFUND' END)::"ChargeStatus"
        WHERE "id" = ${chargeId}`;
      await events.statusChanged(tx, charge);
      if (outcome !== 'failed' && outcome.pending) await keepPending(tx, outcome.pending);
    }
    await jobs.cancel(jobKey('refund', refundId), { tx });
    return count === 1;
  }

  /** Asks the provider for a pending refund (idempotent by the refund id) and records the outcome. */
  async function completeRefund(refundId: string): Promise<void> {
    const refund = await db.refund.findUniqueOrThrow({ where: { id: refundId }, include: { charge: { include: chargeInclude } } });
    if (refund.status !== 'PENDING') return;
    const { connector, providerChargeId } = providerOf(refund.charge);
    const result = await connector.refund({
      providerChargeId,
      amount: refund.amount,
      idempotencyKey: refundId,
      currency: refund.charge.currency,
    });
    if (result.ok) {
      await finishRefund(refundId, refund.charge, refund.amount, {
        providerRefundId: result.value.providerRefundId,
        pending: pendingOf(refund.charge, 'refund', refund.amount, result.value, refundId),
      });
      logger.info({ chargeId: refund.chargeId, refundId, amount: String(refund.amount) }, 'charge refunded');
      return;
    }
    const call = { charge: refund.charge, operation: 'refund' as const, idempotencyKey: refundId, refundId, amount: refund.amount };
    await refuseOrWait(result.failure, call, { chargeId: refund.chargeId, refundId });
    await finishRefund(refundId, refund.charge, refund.amount, 'failed');
    throw providerError(result.failure, { action: 'refund', name: 'UnableToRefund' });
  }

  async function refund(account: Account, chargeId: string, requested?: string | number, comment?: string, heldKey?: HeldKey) {
    const charge = await load(account, chargeId);
    requireStatus(charge, 'refund');
    const left = charge.capturedAmount - charge.refundedAmount - charge.refundPendingAmount;
    const amount = requested === undefined ? left : requireAmount(requested, requireCurrency(charge.currency));
    const refundId = heldKey?.resourceId ?? newId();
    if (amount <= 0n || !(await reserveRefund(account, chargeId, { id: refundId, amount, comment: comment ?? null }, heldKey))) {
      requireStatus(await load(account, chargeId), 'refund');
      const message = 'The refund amount is more than what is left to refund on this charge';
      throw new ApiError('InvalidAmountMaximumAvailableRefund', { message, details: { amount: message } });
    }
    await completeRefund(refundId);
    return toChargeView(await load(account, chargeId));
  }

  /** DELETE /charge/{id}: voids an authorisation, refunds a captured charge. */
  async function refundOrVoid(account: Account, chargeId: string, requested?: string | number, comment?: string, heldKey?: HeldKey) {
    const charge = await load(account, chargeId);
    if (charge.status !== 'AUTHORISE') return refund(account, chargeId, requested, comment, heldKey);
    if (requested !== undefined) {
      throw new ApiError('InvalidChargeStatus', {
        message: 'An authorised charge is voided in full: capture it before refunding an amount',
      });
    }
    return voidCharge(account, chargeId, heldKey);
  }

  async function get(account: Account, chargeId: string) {
    return toChargeView(await load(account, chargeId));
  }

  /**
   * How an Idempotency-Key bound to a capture or void is answered (services/idempotency.ts):
   * pending while the lease is held (its confirming job brought forward when the request's process
   * is gone), then the charge, or the refusal.
   */
  const operationAnswer =
    (operation: Operation) =>
    async (account: Account, chargeId: string, abandoned: boolean): Promise<KeyAnswer> => {
      const charge = await load(account, chargeId);
      if (charge.pendingOperation === operation) {
        // A call that cannot be sent twice is held by its job at its time, never brought forward on
        // a process wrongly seen dead while its call may still be on the way (unknown-outcomes.ts).
        if (charge.provider && !resendable(charge.provider)) {
          if (await unknownOutcomes.isHeld(await operationKey(charge, operation))) return { error: heldError(operation, { chargeId }) };
        } else if (abandoned) await jobs.bringForward(jobKey(operation, chargeId));
        return 'pending';
      }
      const done = operation === 'capture' ? charge.capturedAmount > 0n : charge.status === 'AUTHORISE_CANCELLED';
      if (done) return { data: toChargeView(charge) };
      const name = operation === 'capture' ? 'UnableToCapture' : 'UnableToVoid';
      return { error: new ApiError(name, { message: `The provider refused the ${operation}`, details: { chargeId } }) };
    };

  /** How an Idempotency-Key bound to a refund is answered: as operationAnswer, by the refund's own state. */
  async function refundAnswer(account: Account, refundId: string, abandoned: boolean): Promise<KeyAnswer> {
    const refund = await db.refund.findFirstOrThrow({ where: { id: refundId, charge: { accountId: account.id } } });
    const { chargeId } = refund;
    if (refund.status === 'PENDING') {
      const { provider } = await load(account, chargeId);
      if (provider && !resendable(provider)) {
        if (await unknownOutcomes.isHeld(refundId)) return { error: heldError('refund', { chargeId, refundId }) };
      } else if (abandoned) await jobs.bringForward(jobKey('refund', refundId));
      return 'pending';
    }
    if (refund.status === 'SUCCEEDED') return { data: toChargeView(await load(account, chargeId)) };
    return { error: new ApiError('UnableToRefund', { message: 'The provider refused the refund', details: { chargeId, refundId } }) };
  }

  return {
    capture,
    void: voidCharge,
    refund,
    refundOrVoid,
    get,
    confirmOperation,
    confirmRefund,
    settleHeld,
    keyAnswers: { capture: operationAnswer('capture'), void: operationAnswer('void'), refund: refundAnswer },
  };
}

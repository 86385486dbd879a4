import { ApiError, canTransition, newId, notFound } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import { requireAmount, requireCurrency } from '../money';
import { connectorFor, providerError } from '../providers/connectors';
import { chargeInclude, toChargeView, type ChargeRecord } from './view';

/**
 * Capture, void and refund of an existing charge. Each provider call is bracketed by two
 * conditional updates: the first reserves the change (only one capture or void of a charge can
 * hold the `pendingOperation` lease; refunds reserve their amount against what is left to refund),
 * the second settles it. A reservation that outlives a crash keeps the money safe: nothing is
 * refunded twice, and the provider call can be replayed with the same idempotency key.
 */

/** A capture or void lease older than this is considered abandoned by a crashed process. */
const LEASE_MS = 2 * 60_000;

export function createChargeLifecycle({ db, clock, logger, config }: Dependencies) {
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

  function provider(charge: ChargeRecord) {
    if (!charge.provider || !charge.providerChargeId)
      throw new ApiError('InvalidChargeStatus', { message: 'The charge has no provider payment' });
    return { connector: connectorFor(charge.provider, config), providerChargeId: charge.providerChargeId };
  }

  /** Takes the capture/void lease of an authorised charge, or explains why it cannot. */
  async function lease(account: Account, charge: ChargeRecord, operation: 'capture' | 'void'): Promise<void> {
    const now = clock.now();
    const { count } = await db.charge.updateMany({
      where: {
        id: charge.id,
        accountId: account.id,
        status: 'AUTHORISE',
        OR: [{ pendingOperation: null }, { pendingOperationAt: { lt: new Date(now.getTime() - LEASE_MS) } }],
      },
      data: { pendingOperation: operation, pendingOperationAt: now },
    });
    if (count === 1) return;
    const current = await load(account, charge.id);
    requireStatus(current, operation);
    throw new ApiError('InvalidChargeStatus', {
      http: 409,
      retryable: true,
      message: `A ${current.pendingOperation ?? 'change'} of this charge is in progress`,
    });
  }

  async function release(chargeId: string, operation: 'capture' | 'void') {
    await db.charge.updateMany({
      where: { id: chargeId, pendingOperation: operation },
      data: { pendingOperation: null, pendingOperationAt: null },
    });
  }

  async function capture(account: Account, chargeId: string, requested?: string | number) {
    const charge = await load(account, chargeId);
    requireStatus(charge, 'capture');
    const amount = requested === undefined ? charge.amount : requireAmount(requested, requireCurrency(charge.currency));
    if (amount > charge.amount) {
      throw new ApiError('InvalidCaptureAmountPassed', { message: 'The capture amount is more than the authorised amount' });
    }
    await lease(account, charge, 'capture');
    const { connector, providerChargeId } = provider(charge);
    const result = await connector.capture({ providerChargeId, amount, idempotencyKey: `${chargeId}:capture` });
    if (!result.ok) {
      await release(chargeId, 'capture');
      throw providerError(result.failure, undefined, 'UnableToCapture');
    }
    const updated = await db.charge.update({
      where: { id: chargeId, status: 'AUTHORISE', pendingOperation: 'capture' },
      data: { status: 'SUCCESS', capturedAmount: amount, successDate: clock.now(), pendingOperation: null, pendingOperationAt: null },
      include: chargeInclude,
    });
    logger.info({ chargeId, amount: String(amount) }, 'charge captured');
    return toChargeView(updated);
  }

  async function voidCharge(account: Account, chargeId: string) {
    const charge = await load(account, chargeId);
    requireStatus(charge, 'void');
    await lease(account, charge, 'void');
    const { connector, providerChargeId } = provider(charge);
    const result = await connector.void({ providerChargeId, idempotencyKey: `${chargeId}:void` });
    if (!result.ok) {
      await release(chargeId, 'void');
      throw providerError(result.failure, undefined, 'UnableToVoid');
    }
    const updated = await db.charge.update({
      where: { id: chargeId, status: 'AUTHORISE', pendingOperation: 'void' },
      data: { status: 'AUTHORISE_CANCELLED', voidDate: clock.now(), pendingOperation: null, pendingOperationAt: null },
      include: chargeInclude,
    });
    logger.info({ chargeId }, 'charge voided');
    return toChargeView(updated);
  }

  /** Reserves `amount` of what is left to refund; false when less than that is left. */
  async function reserveRefund(account: Account, chargeId: string, refundId: string, amount: bigint, comment: string | null) {
    return db.$transaction(async (tx) => {
      const reserved = await tx.$executeRaw`
        UPDATE "Charge" SET "refundPendingAmount" = "refundPendingAmount" + ${amount}
        WHERE "id" = ${chargeId} AND "accountId" = ${account.id}
          AND "status" IN ('SUCCESS', 'PARTIAL_REFUND')
          AND "capturedAmount" - "refundedAmount" - "refundPendingAmount" >= ${amount}`;
      if (reserved !== 1) return false;
      await tx.refund.create({ data: { id: refundId, chargeId, amount, comment, status: 'PENDING' } });
      return true;
    });
  }

  async function settleRefund(chargeId: string, refundId: string, amount: bigint, providerRefundId: string | null) {
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`
        UPDATE "Charge" SET
          "refundPendingAmount" = "refundPendingAmount" - ${amount},
          "refundedAmount" = "refundedAmount" + ${amount},
          "status" = (CASE WHEN "refundedAmount" + ${amount} >= "capturedAmount" THEN 'REFUND' ELSE 'PARTIAL_REFUND' END)::"ChargeStatus"
        WHERE "id" = ${chargeId}`;
      await tx.refund.update({ where: { id: refundId }, data: { status: 'SUCCEEDED', providerRefundId } });
    });
  }

  async function abandonRefund(chargeId: string, refundId: string, amount: bigint) {
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "Charge" SET "refundPendingAmount" = "refundPendingAmount" - ${amount} WHERE "id" = ${chargeId}`;
      await tx.refund.update({ where: { id: refundId }, data: { status: 'FAILED' } });
    });
  }

  async function refund(account: Account, chargeId: string, requested?: string | number, comment?: string) {
    const charge = await load(account, chargeId);
    requireStatus(charge, 'refund');
    const left = charge.capturedAmount - charge.refundedAmount - charge.refundPendingAmount;
    const amount = requested === undefined ? left : requireAmount(requested, requireCurrency(charge.currency));
    const refundId = newId();
    if (amount <= 0n || !(await reserveRefund(account, chargeId, refundId, amount, comment ?? null))) {
      const now = await load(account, chargeId);
      requireStatus(now, 'refund');
      throw new ApiError('InvalidAmountMaximumAvailableRefund', {
        message: 'The refund amount is more than what is left to refund on this charge',
      });
    }
    const { connector, providerChargeId } = provider(charge);
    const result = await connector.refund({ providerChargeId, amount, idempotencyKey: refundId });
    if (!result.ok) {
      await abandonRefund(chargeId, refundId, amount);
      throw providerError(result.failure, undefined, 'UnableToRefund');
    }
    await settleRefund(chargeId, refundId, amount, result.value.providerRefundId);
    logger.info({ chargeId, refundId, amount: String(amount) }, 'charge refunded');
    return toChargeView(await load(account, chargeId));
  }

  /** DELETE /charge/{id}: voids an authorisation, refunds a captured charge. */
  async function refundOrVoid(account: Account, chargeId: string, requested?: string | number, comment?: string) {
    const charge = await load(account, chargeId);
    return charge.status === 'AUTHORISE' ? voidCharge(account, chargeId) : refund(account, chargeId, requested, comment);
  }

  async function get(account: Account, chargeId: string) {
    return toChargeView(await load(account, chargeId));
  }

  return { capture, void: voidCharge, refund, refundOrVoid, get };
}

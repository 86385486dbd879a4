import type { Account, Charge, Prisma } from '@gateway/db';
import type { ChargeView } from '../../schemas/charge';
import type { JobHandler } from '@gateway/jobs';
import type { Dependencies } from '../deps';
import type { KeyAnswer } from '../idempotency';
import { UnconfirmedOutcome } from '../providers/connectors';
import type { ChargeEvents } from './events';
import type { createChargeLifecycle } from './lifecycle';
import { CONFIRM_CAPTURE_QUEUE, CONFIRM_REFUND_QUEUE, CONFIRM_VOID_QUEUE, RECOVER_QUEUE, REVERSE_QUEUE } from './queues';
import { giveBackSlot } from '../payment-links/slots';
import { reverseAttempt } from './reversal';
import { chargeInclude, failureOf, toChargeView } from './view';

/** A charge still PROCESSING after this long was abandoned by a process that died. */
const STUCK_AFTER_MS = 2 * 60_000;
/** An abandoned charge whose reversal is still not confirmed after this long is logged for staff at every sweep. */
const UNRESOLVED_AFTER_MS = 24 * 3_600_000;

type Lifecycle = ReturnType<typeof createChargeLifecycle>;

/** Debits have a settling job of their own that sends them again. */
const DEBITS = ['BANK_ACCOUNT', 'PAYTO'];

/**
 * The charges the abandoned-charge recovery may fail: not debits, nor a batch row's charge, nor a
 * subscription payment, whose batch or billing job sends its attempts again with the same keys
 * (services/batches, services/subscriptions), nor one that waited for its payer's 3-D Secure
 * (PROCESSING again while its timeout job cancels it: three-d-secure.ts).
 */
const ABANDONABLE = {
  paymentType: { notIn: DEBITS },
  batchId: null,
  subscriptionId: null,
  threeDsStartedAt: null,
} satisfies Prisma.ChargeWhereInput;

const text = (payload: unknown, name: string): string => {
  const value = (payload as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string') throw new Error(`job payload lacks ${name}`);
  return value;
};

/**
 * What the gateway does in the background so that a lost answer or a crash never moves money
 * twice: confirm captures, voids and refunds whose outcome is unknown, reverse authorisations
 * whose outcome is unknown, and fail (after reversing) charges abandoned in PROCESSING.
 */
export function createChargeRecovery({ db, clock, logger, config, jobs }: Dependencies, lifecycle: Lifecycle, events: ChargeEvents) {
  async function reverse(providerId: string, idempotencyKey: string): Promise<boolean> {
    const provider = await db.provider.findUniqueOrThrow({ where: { id: providerId } });
    const result = await reverseAttempt(db, config, provider, idempotencyKey);
    if (result.ok) return true;
    if (result.failure.retryable) return false;
    // The provider refuses for good: there may be nothing (more) to reverse, or money it keeps. Staff look.
    logger.error(
      { idempotencyKey, gatewayCode: result.failure.gatewayCode },
      'reversal refused by the provider: check the payment at the provider',
    );
    return true;
  }

  /** A definite refusal has been recorded by the lifecycle; only an unknown outcome is tried again. */
  const confirming =
    (run: (payload: unknown) => Promise<void>): JobHandler =>
    async (payload) => {
      try {
        await run(payload);
      } catch (error) {
        if (error instanceof UnconfirmedOutcome) throw error;
        logger.warn({ err: error }, 'confirmed as refused by the provider');
      }
    };

  const jobHandlers: Record<string, JobHandler> = {
    [REVERSE_QUEUE]: async (payload) => {
      if (!(await reverse(text(payload, 'providerId'), text(payload, 'idempotencyKey')))) throw new Error('reversal not confirmed yet');
    },
    [CONFIRM_CAPTURE_QUEUE]: confirming((p) => lifecycle.completeOperation(text(p, 'chargeId'), 'capture', BigInt(text(p, 'amount')))),
    [CONFIRM_VOID_QUEUE]: confirming((p) => lifecycle.completeOperation(text(p, 'chargeId'), 'void')),
    [CONFIRM_REFUND_QUEUE]: confirming((p) => lifecycle.completeRefund(text(p, 'refundId'))),
    [RECOVER_QUEUE]: async (payload) => {
      const charge = await db.charge.findUniqueOrThrow({ where: { id: text(payload, 'chargeId') } });
      // A charge that waited for its payer's 3-D Secure is its timeout job's (three-d-secure.ts).
      if (charge.status !== 'PROCESSING' || charge.threeDsStartedAt !== null) return;
      if (!(await recoverAbandoned(charge))) throw new Error('reversal not confirmed yet');
    },
  };

  /**
   * Reverses the last attempt of a charge abandoned in PROCESSING, then fails it (with its event);
   * false while the reversal is not confirmed (it is tried again later).
   */
  async function recoverAbandoned(charge: Charge): Promise<boolean> {
    if (charge.providerId && !(await reverse(charge.providerId, `${charge.id}:${charge.attemptCount}`))) {
      if (clock.now().getTime() - charge.dateAdded.getTime() > UNRESOLVED_AFTER_MS)
        logger.error(
          { chargeId: charge.id, providerId: charge.providerId },
          'abandoned charge still not reversed after 24 h: check the payment at the provider',
        );
      return false;
    }
    const { count } = await events.changing(
      charge,
      async (tx) => {
        const failed = await tx.charge.updateMany({
          where: { id: charge.id, status: 'PROCESSING' },
          data: {
            status: 'FAILED',
            failureCode: 80,
            failureMessage: 'The gateway stopped before the provider answered; any authorisation was reversed',
          },
        });
        // A payment of a payment link gives its slot back, as one declined does.
        if (failed.count === 1 && charge.paymentLinkId) await giveBackSlot(tx, charge.paymentLinkId);
        return failed;
      },
      (result) => result.count === 1,
    );
    return count === 1;
  }

  /**
   * Charges left PROCESSING by a process that died between its provider call and its answer: the
   * provider may have authorised, but the merchant never heard of it, so the authorisation is
   * reversed and the charge failed. A charge whose reversal is not confirmed waits for the next sweep.
   */
  async function sweepAbandoned(): Promise<number> {
    const stuck = await db.charge.findMany({
      where: { ...ABANDONABLE, status: 'PROCESSING', dateAdded: { lt: new Date(clock.now().getTime() - STUCK_AFTER_MS) } },
      take: 100,
    });
    let failed = 0;
    for (const charge of stuck) if (await recoverAbandoned(charge)) failed += 1;
    if (failed > 0) logger.warn({ failed }, 'abandoned charges reversed and failed');
    return failed;
  }

  /**
   * Recovers a charge whose process is seen dead (an Idempotency-Key's repeat found it so) as soon
   * as it is STUCK_AFTER_MS old, rather than at the next sweep after that. Not sooner: a process
   * judged dead may only have lost its presence connection for a moment, and its provider call
   * may still arrive at the provider after a reversal; no call of a charge lasts that long.
   * Charges the sweep leaves to others are left to them too.
   */
  async function recoverWhenStuck(charge: Charge): Promise<void> {
    const { paymentType, batchId, subscriptionId, threeDsStartedAt } = charge;
    if (batchId !== null || subscriptionId !== null || threeDsStartedAt !== null || DEBITS.includes(paymentType)) return;
    const runAt = new Date(charge.dateAdded.getTime() + STUCK_AFTER_MS);
    await jobs.enqueue(RECOVER_QUEUE, { chargeId: charge.id }, { runAt, dedupeKey: `recover:${charge.id}`, group: charge.accountId });
  }

  /**
   * How an Idempotency-Key bound to a charge is answered (services/idempotency.ts): pending while
   * PROCESSING (recovered once stuck when the request's process is gone), then the charge, or its
   * failure as the request answered it.
   */
  async function chargeAnswer(account: Account, chargeId: string, abandoned: boolean): Promise<KeyAnswer<ChargeView>> {
    const charge = await db.charge.findFirstOrThrow({ where: { id: chargeId, accountId: account.id }, include: chargeInclude });
    if (charge.status === 'PROCESSING') {
      if (abandoned) await recoverWhenStuck(charge);
      return 'pending';
    }
    return charge.status === 'FAILED' ? { error: failureOf(charge) } : { data: toChargeView(charge) };
  }

  return { jobHandlers, sweepAbandoned, chargeAnswer };
}

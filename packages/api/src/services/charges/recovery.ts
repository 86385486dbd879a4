import type { JobHandler } from '@gateway/jobs';
import type { Dependencies } from '../deps';
import { UnconfirmedOutcome } from '../providers/connectors';
import type { ChargeEvents } from './events';
import type { createChargeLifecycle } from './lifecycle';
import { CONFIRM_CAPTURE_QUEUE, CONFIRM_REFUND_QUEUE, CONFIRM_VOID_QUEUE, REVERSE_QUEUE } from './queues';
import { reverseAttempt } from './reversal';

/** A charge still PROCESSING after this long was abandoned by a process that died. */
const STUCK_AFTER_MS = 2 * 60_000;
/** An abandoned charge whose reversal is still not confirmed after this long is logged for staff at every sweep. */
const UNRESOLVED_AFTER_MS = 24 * 3_600_000;

type Lifecycle = ReturnType<typeof createChargeLifecycle>;

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
export function createChargeRecovery({ db, clock, logger, config }: Dependencies, lifecycle: Lifecycle, events: ChargeEvents) {
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
  };

  /**
   * Charges left PROCESSING by a process that died between its provider call and its answer: the
   * provider may have authorised, but the merchant never heard of it, so the authorisation is
   * reversed and the charge failed. A charge whose reversal is not confirmed waits for the next sweep.
   */
  async function sweepAbandoned(): Promise<number> {
    const stuck = await db.charge.findMany({
      // Debits have a settling job of their own that sends them again; a batch row's charge, its
      // batch job, and a subscription payment, its billing job, which send its attempts again with
      // the same keys (services/batches, services/subscriptions).
      where: {
        status: 'PROCESSING',
        paymentType: { notIn: ['BANK_ACCOUNT', 'PAYTO'] },
        batchId: null,
        subscriptionId: null,
        dateAdded: { lt: new Date(clock.now().getTime() - STUCK_AFTER_MS) },
      },
      take: 100,
    });
    let failed = 0;
    for (const charge of stuck) {
      if (charge.providerId && !(await reverse(charge.providerId, `${charge.id}:${charge.attemptCount}`))) {
        if (clock.now().getTime() - charge.dateAdded.getTime() > UNRESOLVED_AFTER_MS)
          logger.error(
            { chargeId: charge.id, providerId: charge.providerId },
            'abandoned charge still not reversed after 24 h: check the payment at the provider',
          );
        continue;
      }
      const { count } = await events.changing(
        charge,
        (tx) =>
          tx.charge.updateMany({
            where: { id: charge.id, status: 'PROCESSING' },
            data: {
              status: 'FAILED',
              failureCode: 80,
              failureMessage: 'The gateway stopped before the provider answered; any authorisation was reversed',
            },
          }),
        (result) => result.count === 1,
      );
      failed += count;
    }
    if (failed > 0) logger.warn({ failed }, 'abandoned charges reversed and failed');
    return failed;
  }

  return { jobHandlers, sweepAbandoned };
}

import { ApiError } from '@gateway/core';
import type { Account, Charge, Prisma, Provider, UnknownOutcome } from '@gateway/db';
import type { ChargeView } from '../../schemas/charge';
import type { JobHandler } from '@gateway/jobs';
import type { Dependencies } from '../deps';
import type { KeyAnswer } from '../idempotency';
import { UnconfirmedOutcome } from '../providers/connectors';
import type { ChargeEvents } from './events';
import type { createChargeLifecycle } from './lifecycle';
import { CONFIRM_CAPTURE_QUEUE, CONFIRM_REFUND_QUEUE, CONFIRM_VOID_QUEUE, RECOVER_QUEUE, REVERSE_QUEUE } from './queues';
import { giveBackSlot } from '../payment-links/slots';
import { keptAttempt, reverseAttempt } from './reversal';
import { typeOfProvider } from '../providers/currencies';
import { heldError, resendable, type UnknownOutcomes } from './unknown-outcomes';
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
  // A payment held for staff (unknown-outcomes.ts) stays PROCESSING until they settle it.
  unknownOutcomes: { none: {} },
} satisfies Prisma.ChargeWhereInput;

const text = (payload: unknown, name: string): string => {
  const value = (payload as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string') throw new Error(`job payload lacks ${name}`);
  return value;
};

/** What became of a charge abandoned in PROCESSING: failed after its reversal, held for staff, or left for later. */
export type Recovered = 'failed' | 'held' | 'later';

/**
 * Reverses the last attempt of a charge abandoned in PROCESSING, then fails it (with its event).
 * What the provider can neither tell nor undo is held for staff instead (unknown-outcomes.ts); a
 * reversal not confirmed yet is tried again later. Used by the sweep, by an Idempotency-Key's
 * repeat, and by a batch or billing run that resumes a charge it may not send again (NAB Transact).
 */
export function createAbandonedRecovery(
  { db, clock, logger, config }: Dependencies,
  events: ChargeEvents,
  unknownOutcomes: UnknownOutcomes,
) {
  async function reverse(provider: Provider, idempotencyKey: string): Promise<'reversed' | 'later' | 'unknown'> {
    const result = await reverseAttempt(db, config, provider, idempotencyKey);
    if (result.ok) return 'reversed';
    if (result.failure.category === 'outcome_unknown') return 'unknown';
    if (result.failure.retryable) return 'later';
    // The provider refuses for good: there may be nothing (more) to reverse, or money it keeps. Staff look.
    logger.error(
      { idempotencyKey, gatewayCode: result.failure.gatewayCode },
      'reversal refused by the provider: check the payment at the provider',
    );
    return 'reversed';
  }

  async function recoverAbandoned(charge: Charge): Promise<Recovered> {
    const idempotencyKey = `${charge.id}:${charge.attemptCount}`;
    const provider = charge.providerId ? await db.provider.findUniqueOrThrow({ where: { id: charge.providerId } }) : undefined;
    // A call that cannot be sent twice is kept before it leaves (attempts.ts): one not kept never left.
    const left = provider && (resendable(provider) || keptAttempt(charge, idempotencyKey) !== undefined);
    const reversal = left ? await reverse(provider, idempotencyKey) : 'reversed';
    if (reversal === 'unknown' && provider) {
      await unknownOutcomes.hold({ charge, provider, operation: 'payment', idempotencyKey, amount: charge.amount });
      return 'held';
    }
    if (reversal === 'later') {
      if (clock.now().getTime() - charge.dateAdded.getTime() > UNRESOLVED_AFTER_MS)
        logger.error(
          { chargeId: charge.id, providerId: charge.providerId },
          'abandoned charge still not reversed after 24 h: check the payment at the provider',
        );
      return 'later';
    }
    const failed = { status: 'FAILED', failureCode: ABANDONED.code, failureMessage: ABANDONED.message } as const;
    const decided = await events.changing(
      charge,
      (tx) => decide(tx, charge, failed),
      (changed) => changed,
    );
    return decided ? 'failed' : 'later';
  }

  /** Decides a charge still PROCESSING; false when something else decided it first. */
  async function decide(tx: Prisma.TransactionClient, charge: Charge, data: Prisma.ChargeUpdateManyMutationInput): Promise<boolean> {
    const { count } = await tx.charge.updateMany({ where: { id: charge.id, status: 'PROCESSING' }, data });
    // A failed payment of a payment link gives its slot back, as one declined does.
    if (count === 1 && data.status === 'FAILED' && charge.paymentLinkId) await giveBackSlot(tx, charge.paymentLinkId);
    return count === 1;
  }

  /**
   * Settles a payment held for staff (unknown-outcomes.ts) as they found it at the provider, in
   * their transaction, with its event: made (a sale SUCCESS, an authorisation AUTHORISE, under the
   * provider's id of it) or not (FAILED). False when the charge is no longer PROCESSING.
   */
  async function settleHeldPayment(tx: Prisma.TransactionClient, held: UnknownOutcome, made: MadePayment | false): Promise<boolean> {
    const charge = await tx.charge.findUniqueOrThrow({ where: { id: held.chargeId } });
    const data = made
      ? madeChange(charge, made)
      : ({ status: 'FAILED', failureCode: NOT_MADE.code, failureMessage: NOT_MADE.message } as const);
    const decided = await decide(tx, charge, data);
    if (decided) await events.statusChanged(tx, charge);
    return decided;
  }

  /** A charge whose payment the provider made: a sale SUCCESS, an authorisation AUTHORISE, under the provider's id of it. */
  const madeChange = (charge: Charge, { providerChargeId, sale }: MadePayment): Prisma.ChargeUpdateManyMutationInput =>
    sale
      ? { status: 'SUCCESS', providerChargeId, capturedAmount: charge.amount, successDate: clock.now() }
      : { status: 'AUTHORISE', providerChargeId };

  /**
   * A batch row's or subscription payment's charge a dead run left PROCESSING at a provider that
   * cannot take a call twice (stored.ts resumePaymentMethodCharge), whose call left (it was kept
   * before): recorded as made when the connector kept the provider's approval, else recovered as
   * an abandoned one (reversed and failed, or held for staff).
   */
  async function resumeUnsendable(charge: Charge, provider: Provider): Promise<void> {
    const kept = keptAttempt(charge, `${charge.id}:${charge.attemptCount}`);
    const approved = kept && typeOfProvider(provider).noIdempotency?.approvedIn(kept.providerData);
    if (!kept || !approved) {
      await recoverAbandoned(charge);
      return;
    }
    const made = madeChange(charge, { providerChargeId: approved, sale: kept.capture });
    await events.changing(
      charge,
      (tx) => decide(tx, charge, made),
      (changed) => changed,
    );
  }

  return { reverse, recoverAbandoned, settleHeldPayment, resumeUnsendable };
}

/** A payment the provider made, as the gateway names it, and whether it was a sale. */
interface MadePayment {
  providerChargeId: string;
  sale: boolean;
}

/** The failure of a payment held for staff that they found the provider never made. */
const NOT_MADE = new ApiError('GatewayTimeout', {
  message: 'The provider never answered, and staff found it never made the payment',
});

export type AbandonedRecovery = ReturnType<typeof createAbandonedRecovery>;

/** The failure of a charge abandoned in PROCESSING, once its authorisation was reversed. */
export const ABANDONED = new ApiError('GatewayTimeout', {
  message: 'The gateway stopped before the provider answered; any authorisation was reversed',
});

/**
 * What the gateway does in the background so that a lost answer or a crash never moves money
 * twice: confirm captures, voids and refunds whose outcome is unknown, reverse authorisations
 * whose outcome is unknown, and fail (after reversing) charges abandoned in PROCESSING.
 */
export function createChargeRecovery(
  { db, clock, logger, jobs }: Dependencies,
  lifecycle: Lifecycle,
  { reverse, recoverAbandoned }: AbandonedRecovery,
  unknownOutcomes: UnknownOutcomes,
) {
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
      const provider = await db.provider.findUniqueOrThrow({ where: { id: text(payload, 'providerId') } });
      if ((await reverse(provider, text(payload, 'idempotencyKey'))) === 'later') throw new Error('reversal not confirmed yet');
    },
    [CONFIRM_CAPTURE_QUEUE]: confirming((p) => lifecycle.confirmOperation(text(p, 'chargeId'), 'capture', BigInt(text(p, 'amount')))),
    [CONFIRM_VOID_QUEUE]: confirming((p) => lifecycle.confirmOperation(text(p, 'chargeId'), 'void')),
    [CONFIRM_REFUND_QUEUE]: confirming((p) => lifecycle.confirmRefund(text(p, 'refundId'))),
    [RECOVER_QUEUE]: async (payload) => {
      const charge = await db.charge.findUniqueOrThrow({ where: { id: text(payload, 'chargeId') } });
      // A charge that waited for its payer's 3-D Secure is its timeout job's (three-d-secure.ts); a held one is staff's.
      if (charge.status !== 'PROCESSING' || charge.threeDsStartedAt !== null) return;
      if ((await recoverAbandoned(charge)) === 'later') throw new Error('reversal not confirmed yet');
    },
  };

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
    for (const charge of stuck) if ((await recoverAbandoned(charge)) !== 'later') failed += 1;
    if (failed > 0) logger.warn({ failed }, 'abandoned charges reversed and failed, or held for staff');
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
      const attemptKey = `${charge.id}:${charge.attemptCount}`;
      const held = charge.provider !== null && !resendable(charge.provider) && (await unknownOutcomes.isHeld(attemptKey));
      if (held) return { error: heldError('payment', { chargeId }) };
      if (abandoned) await recoverWhenStuck(charge);
      return 'pending';
    }
    return charge.status === 'FAILED' ? { error: failureOf(charge) } : { data: toChargeView(charge) };
  }

  return { jobHandlers, sweepAbandoned, chargeAnswer };
}

import { ApiError, notFound, toWireAmount } from '@gateway/core';
import type { Account, Charge, Prisma, Provider, UnknownOutcome } from '@gateway/db';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';
import { typeOfProvider } from '../providers/currencies';
import type { createChargeLifecycle } from './lifecycle';
import type { AbandonedRecovery } from './recovery';
import { PROVIDER_OUTCOME_TX } from './events';
import { keptAttempt } from './reversal';

type ChargeLifecycle = ReturnType<typeof createChargeLifecycle>;

/**
 * Calls whose outcome nobody can know (docs/outcome-unknown.md). A provider without idempotency
 * keys (NAB Transact) cannot be sent a call again after its answer was lost, nor asked what it did
 * with it, and without the call's transaction id the gateway cannot undo it either. Such a call is
 * not guessed: it is held (an UnknownOutcome row) with what staff look it up by at the provider, its
 * charge stays as it was (a payment PROCESSING, a capture or void leased, a refund PENDING), and
 * nothing sends it again until staff settle it.
 */

export type UnknownOperation = 'payment' | 'capture' | 'void' | 'refund';
/** As staff see it: a payment that was an authorisation only is named so. */
type HeldOperation = UnknownOperation | 'authorisation';

/** Whether a call to this provider may be sent again with its key after a lost answer (every type but NAB Transact's). */
export const resendable = (provider: Pick<Provider, 'type'>): boolean => typeOfProvider(provider).noIdempotency === undefined;

/** The gateway code of a held call's answer (and of a batch row whose charge is held). */
export const OUTCOME_UNKNOWN = 'OUTCOME_UNKNOWN';

/** What a request (or a repeat of its Idempotency-Key) is answered when its call is held. */
export function heldError(operation: UnknownOperation, details: Record<string, string>): ApiError {
  return new ApiError('GatewayTimeout', {
    message: `The provider did not answer the ${operation} and cannot be asked what became of it: the gateway holds it for staff to settle with the provider. Do not repeat the ${operation}.`,
    retryable: false,
    gatewayCode: OUTCOME_UNKNOWN,
    gatewayMessage: 'Outcome unknown at the provider: held for staff',
    details,
  });
}

export interface HeldCall {
  charge: Pick<Charge, 'id' | 'accountId'>;
  provider: Provider;
  operation: UnknownOperation;
  /** The call's idempotency key (the held row's id). */
  idempotencyKey: string;
  amount: bigint;
  refundId?: string;
  /** The payment a capture, void or refund quoted. */
  providerChargeId?: string | null;
}

export function createUnknownOutcomes({ db, logger }: Pick<Dependencies, 'db' | 'logger'>) {
  return {
    /** Holds a call for staff (once: holding it again changes nothing). */
    async hold(call: HeldCall): Promise<void> {
      const { charge, provider, operation, idempotencyKey, amount, refundId, providerChargeId } = call;
      const lookup = typeOfProvider(provider).noIdempotency?.lookupReference;
      const providerReference = lookup ? lookup({ idempotencyKey, providerChargeId }) : idempotencyKey;
      const { count } = await db.unknownOutcome.createMany({
        data: [
          {
            id: idempotencyKey,
            accountId: charge.accountId,
            chargeId: charge.id,
            operation,
            refundId: refundId ?? null,
            providerId: provider.id,
            providerReference,
            amount,
          },
        ],
        skipDuplicates: true,
      });
      if (count === 1)
        logger.error(
          { chargeId: charge.id, operation, providerId: provider.id, providerReference },
          'outcome unknown at the provider: held for staff to look up at the provider',
        );
    },

    /** Whether the call with this key is held, not settled yet. */
    async isHeld(idempotencyKey: string): Promise<boolean> {
      return (await db.unknownOutcome.count({ where: { id: idempotencyKey, resolvedAt: null } })) > 0;
    },
  };
}

export type UnknownOutcomes = ReturnType<typeof createUnknownOutcomes>;

/** How staff found a held call at the provider. */
export interface Settlement {
  id: string;
  made: boolean;
  /** The provider's id of the payment or refund it made (NAB: txnID). */
  transactionId?: string;
  /** For an authorisation made, the provider's id of it (NAB: preauthID). */
  authorisationId?: string;
}

/** The settling transaction may wait for a batch chunk's closing one (60 s at most) to release the row it settles. */
const SETTLING_TX = { ...PROVIDER_OUTCOME_TX, timeout: 60_000 };

/** Told, in the settling transaction, of a held payment staff settled (a batch row it made follows it). */
export type SettledPaymentListener = (tx: Prisma.TransactionClient, chargeId: string) => Promise<void>;

/**
 * Staff's list of held calls, and their settling (the dashboard's "Outcome unknown"): each as they
 * found it at the provider, once; a second settling the same way changes nothing, another way is
 * refused.
 */
export function createUnknownOutcomeSettling(
  { db, clock, logger }: Pick<Dependencies, 'db' | 'clock' | 'logger'>,
  settle: {
    payment: AbandonedRecovery['settleHeldPayment'];
    operation: ChargeLifecycle['settleHeld'];
    paymentSettled: SettledPaymentListener;
  },
) {
  /** The open held calls (or the settled ones), newest first: the account's last 100, or all of one charge. */
  async function list(account: Account, open: boolean, chargeId?: string) {
    const rows = await db.unknownOutcome.findMany({
      where: { accountId: account.id, resolvedAt: open ? null : { not: null }, ...(chargeId && { chargeId }) },
      orderBy: { dateAdded: 'desc' },
      take: 100,
      include: {
        charge: {
          select: {
            currency: true,
            reference: true,
            cardMasked: true,
            attemptData: true,
            provider: true,
            status: true,
            pendingOperation: true,
            refunds: { where: { status: 'PENDING' }, select: { id: true } },
          },
        },
      },
    });
    // An open one whose charge moved on meanwhile (a live run's late answer decided it) waits for nobody.
    const held = open ? rows.filter(({ charge, ...row }) => stillHeld(row, charge)) : rows;
    // Who settled each (resolvedBy is "staff:<user id>"), as people read it.
    const settlers = await db.staffUser.findMany({
      where: { accountId: account.id, id: { in: held.flatMap((row) => row.resolvedBy?.match(/^staff:(.+)$/)?.[1] ?? []) } },
      select: { id: true, name: true, email: true },
    });
    const staff = new Map(settlers.map(({ id, name, email }) => [`staff:${id}`, { name, email }]));
    return held.map(({ charge, ...row }) => ({
      id: row.id,
      chargeId: row.chargeId,
      operation: shownOperation(row, charge),
      refundId: row.refundId,
      providerId: row.providerId,
      providerName: charge.provider?.name ?? '',
      providerType: charge.provider?.type ?? '',
      providerReference: row.providerReference,
      amount: toWireAmount(row.amount, requireCurrency(charge.currency)),
      currency: charge.currency,
      reference: charge.reference,
      cardMasked: charge.cardMasked,
      dateAdded: row.dateAdded.toISOString(),
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
      resolution: row.resolution as 'made' | 'not_made' | null,
      resolvedBy: row.resolvedBy,
      resolvedByStaff: staff.get(row.resolvedBy ?? '') ?? null,
    }));
  }

  /**
   * Settles a held call as staff found it, in one transaction with the change of its charge (or
   * refund): a crash leaves either both or neither. The same settling again answers as the first
   * did and changes nothing; another is refused (409), as is one whose charge changed meanwhile.
   */
  async function resolve(account: Account, staff: string, settlement: Settlement): Promise<{ chargeId: string }> {
    const held = await db.unknownOutcome.findFirst({
      where: { id: settlement.id, accountId: account.id },
      include: { charge: { include: { provider: true } } },
    });
    if (!held) throw notFound('NoTransactionFound', 'Unknown outcome');
    const { charge, ...row } = held;
    const { chargeId } = row;
    const resolution = settlement.made ? 'made' : 'not_made';
    const conflict = (why: string) => new ApiError('InvalidChargeStatus', { http: 409, message: why, details: { chargeId } });
    const otherwise = () => conflict(`Staff already settled this ${shownOperation(row, charge)} otherwise`);
    if (row.resolvedAt && row.resolution !== resolution) throw otherwise();
    const reference = settlement.made ? madeAs(row, charge, settlement) : null;
    if (row.resolvedAt) {
      if (row.resolvedReference === reference) return { chargeId };
      throw otherwise();
    }
    await db.$transaction(async (tx) => {
      const { count } = await tx.unknownOutcome.updateMany({
        where: { id: row.id, resolvedAt: null },
        data: { resolvedAt: clock.now(), resolution, resolvedBy: staff, resolvedReference: reference },
      });
      if (count !== 1) throw conflict(`Staff already settled this ${shownOperation(row, charge)}`);
      const changed =
        row.operation === 'payment'
          ? await settle.payment(tx, row, reference !== null && { providerChargeId: reference, sale: saleOf(charge, row.id) })
          : await settle.operation(tx, row, reference !== null && { providerReference: reference });
      if (!changed) throw conflict('The charge changed meanwhile: look at it again');
      if (row.operation === 'payment') await settle.paymentSettled(tx, chargeId);
    }, SETTLING_TX);
    logger.warn({ chargeId, operation: row.operation, resolution, staff }, 'held call settled by staff');
    return { chargeId };
  }

  /** What staff found made, as the gateway names it: the payment's id at the provider (a completion's too), or the refund's (nothing for a void). */
  function madeAs(row: UnknownOutcome, charge: Charge & { provider: Provider | null }, settlement: Settlement): string {
    const missing = (field: string, why: string) =>
      new ApiError('ValidationError', { message: 'The request is not valid', details: { [field]: why } });
    if (row.operation === 'void') return '';
    if (!settlement.transactionId) throw missing('transactionId', 'The provider’s id of what it made is required');
    if (row.operation === 'refund' || !charge.provider) return settlement.transactionId;
    const capture = row.operation === 'capture';
    const found = typeOfProvider(charge.provider).noIdempotency?.paymentFound({
      idempotencyKey: row.id,
      amount: row.amount,
      currency: charge.currency,
      capture: capture || saleOf(charge, row.id),
      transactionId: settlement.transactionId,
      ...(settlement.authorisationId && { authorisationId: settlement.authorisationId }),
      ...(capture && charge.providerChargeId && { completes: charge.providerChargeId }),
    });
    if (!found) throw missing('authorisationId', 'The provider’s id of the authorisation is required');
    return found;
  }

  return { list, resolve };
}

/** Whether a held payment was a sale (else an authorisation only), as kept before it left (attempts.ts). */
const saleOf = (charge: Pick<Charge, 'attemptData'>, idempotencyKey: string) => keptAttempt(charge, idempotencyKey)?.capture !== false;

/** A held call's operation as staff read it: a payment that was an authorisation only is named so. */
const shownOperation = (row: UnknownOutcome, charge: Pick<Charge, 'attemptData'>): HeldOperation =>
  row.operation === 'payment' && !saleOf(charge, row.id) ? 'authorisation' : (row.operation as UnknownOperation);

/** Whether a held call's charge still waits for it (a payment PROCESSING, a capture or void leased, a refund PENDING). */
function stillHeld(
  row: Pick<UnknownOutcome, 'operation' | 'refundId'>,
  charge: Pick<Charge, 'status' | 'pendingOperation'> & { refunds: Array<{ id: string }> },
): boolean {
  if (row.operation === 'payment') return charge.status === 'PROCESSING';
  if (row.operation === 'refund') return charge.refunds.some((refund) => refund.id === row.refundId);
  return charge.pendingOperation === row.operation;
}

import { ApiError } from '@gateway/core';
import type { Charge, Prisma, Provider } from '@gateway/db';
import type { Dependencies } from '../deps';
import { typeOfProvider } from '../providers/currencies';

/**
 * Calls whose outcome nobody can know (docs/outcome-unknown.md). A provider without idempotency
 * keys (NAB Transact) cannot be sent a call again after its answer was lost, nor asked what it did
 * with it, and without the call's transaction id the gateway cannot undo it either. Such a call is
 * not guessed: it is held (an UnknownOutcome row) with what staff look it up by at the provider, its
 * charge stays as it was (a payment PROCESSING, a capture or void leased, a refund PENDING), and
 * nothing sends it again until staff settle it.
 */

export type UnknownOperation = 'payment' | 'capture' | 'void' | 'refund';

/** Whether a call to this provider may be sent again with its key after a lost answer (every type but NAB Transact's). */
export const resendable = (provider: Pick<Provider, 'type'>): boolean => typeOfProvider(provider).noIdempotency === undefined;

/** The gatewayCode of a held call's answer (a batch row's too). */
export const HELD_CODE = 'OUTCOME_UNKNOWN';

/** What a request (or a repeat of its Idempotency-Key) is answered when its call is held. */
export function heldError(operation: UnknownOperation, details: Record<string, string>): ApiError {
  return new ApiError('GatewayTimeout', {
    message: `The provider did not answer the ${operation} and cannot be asked what became of it: the gateway holds it for staff to settle with the provider. Do not repeat the ${operation}.`,
    retryable: false,
    gatewayCode: HELD_CODE,
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
    async hold(call: HeldCall, tx: Prisma.TransactionClient = db): Promise<void> {
      const { charge, provider, operation, idempotencyKey, amount, refundId, providerChargeId } = call;
      const lookup = typeOfProvider(provider).noIdempotency?.lookupReference;
      const providerReference = lookup ? lookup({ idempotencyKey, providerChargeId }) : idempotencyKey;
      await tx.unknownOutcome.createMany({
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

import { ApiError } from '@gateway/core';
import type { Prisma } from '@gateway/db';

/**
 * A payment link's slots: a payment takes one with one conditional UPDATE (countPayments <
 * limitPayments), in the transaction that writes its charge, so concurrent payers can never
 * exceed the limit and a crash never leaves a slot taken without a charge; a charge that fails
 * gives its slot back.
 */
export async function takeSlot(tx: Prisma.TransactionClient, paymentLinkId: string): Promise<void> {
  const taken = await tx.$executeRaw`
    UPDATE "PaymentLink" SET "countPayments" = "countPayments" + 1
    WHERE "id" = ${paymentLinkId} AND ("limitPayments" IS NULL OR "countPayments" < "limitPayments")`;
  if (taken !== 1) throw new ApiError('UnableToCharge', { message: 'This payment link takes no more payments' });
}

export async function giveBackSlot(tx: Prisma.TransactionClient, paymentLinkId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "PaymentLink" SET "countPayments" = "countPayments" - 1 WHERE "id" = ${paymentLinkId}`;
}

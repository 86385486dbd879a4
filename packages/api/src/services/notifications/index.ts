import { ApiError, isUuid, newId, toWireAmount } from '@gateway/core';
import type { Account, Prisma, Provider, ProviderModification, ProviderNotification as NotificationRow } from '@gateway/db';
import { providerType, type ProviderNotification, type ProviderNotificationOutcome } from '@gateway/providers';
import type { ChargeEvents } from '../charges/events';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';
import { storedParameters } from '../providers/credentials';

/**
 * Provider notifications (`POST /provider/{providerId}/notification`) and the modifications they
 * settle. A capture, void or refund the provider answers "received" (Adyen) shows on the charge at
 * once and is kept as a pending modification; its notification confirms it, or fails it and puts the
 * charge back as it was, with a Transaction event and the failure kept for staff (also when the
 * provider fails it after confirming it). A confirmation for another amount or currency confirms
 * nothing: it is kept, logged, and listed for staff with both figures. Every verified
 * notification is kept by the provider's id, so a repeat changes nothing; one that arrives before
 * the gateway kept its modification waits in the table and settles it when it is kept. Both sides
 * take one lock per modification reference, so neither can miss the other.
 */

export type ModificationKind = 'capture' | 'void' | 'refund';

export interface PendingModification {
  providerId: string;
  chargeId: string;
  kind: ModificationKind;
  amount: bigint;
  refundId?: string;
  providerReference?: string;
}

/** What the endpoint answers: the provider's own acknowledgement, or an API error. */
export interface NotificationAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** Default of GATEWAY_NOTIFICATION_TIMEOUT_MINUTES: past it, a pending modification is listed for staff. */
export const DEFAULT_NOTIFICATION_TIMEOUT_MINUTES = 60;

/** What a notification told about a modification, as kept. */
type Report = Pick<NotificationRow, 'notificationId' | 'success' | 'amount' | 'currency' | 'gatewayCode' | 'gatewayMessage'>;

/** How long a notification's id is kept to recognise it delivered again. */
const KEEP_NOTIFICATIONS_MS = 35 * 24 * 60 * 60_000;

/** The most modifications listed for staff at once (newest first). */
const ATTENTION_LIMIT = 200;

const SETTLED_EVENTS: ReadonlySet<string> = new Set<ModificationKind>(['capture', 'void', 'refund']);

/** What hears of a payment's authorisation from its provider: charges waiting for their payer's 3-D Secure (charges/three-d-secure.ts). */
export interface AuthorisationListener {
  notified(providerId: string, providerChargeId: string, outcome: ProviderNotificationOutcome): Promise<void>;
}

export function createNotificationService(
  { db, clock, logger, config }: Dependencies,
  events: ChargeEvents,
  authorisations: AuthorisationListener,
) {
  const timeoutMs = (config.notificationTimeoutMinutes ?? DEFAULT_NOTIFICATION_TIMEOUT_MINUTES) * 60_000;

  /** Serialises the two sides that meet on one modification: keeping it, and a notification about it. */
  const lock = (tx: Prisma.TransactionClient, providerId: string, providerReference: string) =>
    tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`notification:${providerId}:${providerReference}`}))`;

  /** Confirms a pending modification, or fails it and puts its charge back as it was before it. */
  async function settle(tx: Prisma.TransactionClient, modification: ProviderModification, outcome: Report) {
    const now = clock.now();
    if (outcome.success) {
      await tx.providerModification.update({
        where: { id: modification.id },
        data: { status: 'CONFIRMED', dateConfirmed: now, dateSettled: now },
      });
      logger.info({ chargeId: modification.chargeId, kind: modification.kind }, 'provider confirmed a pending modification');
      return;
    }
    await tx.providerModification.update({
      where: { id: modification.id },
      data: {
        status: 'FAILED',
        dateSettled: now,
        gatewayCode: outcome.gatewayCode,
        gatewayMessage: outcome.gatewayMessage,
      },
    });
    const { chargeId, amount } = modification;
    const reverted =
      modification.kind === 'capture'
        ? await tx.$executeRaw`
            UPDATE "Charge" SET "status" = 'AUTHORISE', "capturedAmount" = 0, "successDate" = NULL
            WHERE "id" = ${chargeId} AND "status" = 'SUCCESS' AND "refundedAmount" = 0 AND "refundPendingAmount" = 0`
        : modification.kind === 'void'
          ? await tx.$executeRaw`
            UPDATE "Charge" SET "status" = 'AUTHORISE', "voidDate" = NULL WHERE "id" = ${chargeId} AND "status" = 'AUTHORISE_CANCELLED'`
          : await tx.$executeRaw`
            UPDATE "Charge" SET
              "refundedAmount" = "refundedAmount" - ${amount},
              "status" = (CASE WHEN "refundedAmount" = ${amount} THEN 'SUCCESS' ELSE 'PARTIAL_REFUND' END)::"ChargeStatus"
            WHERE "id" = ${chargeId} AND "status" IN ('REFUND', 'PARTIAL_REFUND') AND "refundedAmount" >= ${amount}`;
    if (modification.refundId) await tx.refund.update({ where: { id: modification.refundId }, data: { status: 'FAILED' } });
    const charge = await tx.charge.findUniqueOrThrow({ where: { id: chargeId }, select: { id: true, accountId: true, webhook: true } });
    if (reverted === 1) await events.statusChanged(tx, charge);
    // Staff see it in the pending-notification list; the log line is for alerting.
    const afterConfirmation = modification.status === 'CONFIRMED';
    logger.warn(
      { chargeId, kind: modification.kind, gatewayCode: outcome.gatewayCode, reverted: reverted === 1, afterConfirmation },
      reverted === 1
        ? 'provider failed a modification: the charge was put back'
        : 'provider failed a modification the charge has moved on from: staff must resolve it',
    );
  }

  /**
   * The modification a notification settles: a pending one; for a failure, also one confirmed
   * before (Adyen may send REFUND_FAILED after REFUND, Stripe fail a refund it called succeeded), or
   * a refund the provider answered done at once, kept now so that it can fail like the others.
   */
  async function modificationFor(
    tx: Prisma.TransactionClient,
    providerId: string,
    providerReference: string,
    notification: ProviderNotification,
  ): Promise<ProviderModification | null> {
    const status = notification.success ? ['PENDING' as const] : ['PENDING' as const, 'CONFIRMED' as const];
    const kept = await tx.providerModification.findFirst({
      where: { providerId, providerReference, kind: notification.event, status: { in: status } },
    });
    if (kept || notification.success || notification.event !== 'refund') return kept;
    const refund = await tx.refund.findFirst({
      where: { providerRefundId: providerReference, status: 'SUCCEEDED', charge: { providerId } },
    });
    if (!refund) return null;
    const { id: refundId, chargeId, amount, dateAdded } = refund;
    return tx.providerModification.create({
      data: {
        id: newId(),
        providerId,
        chargeId,
        kind: 'refund',
        refundId,
        amount,
        providerReference,
        status: 'CONFIRMED',
        dateConfirmed: dateAdded,
      },
    });
  }

  /** Why a confirmation does not match its modification, if it does not: a void moves no amount, only its currency counts. */
  async function mismatchOf(tx: Prisma.TransactionClient, modification: ProviderModification, report: Report) {
    // No amount in the event (Stripe's charge.refunded): nothing to compare.
    if (!report.success || report.currency === null) return undefined;
    const { currency } = await tx.charge.findUniqueOrThrow({ where: { id: modification.chargeId }, select: { currency: true } });
    if (report.currency !== currency) return 'currency';
    return modification.kind !== 'void' && report.amount !== modification.amount ? 'amount' : undefined;
  }

  /**
   * Settles a modification with a notification that names it, and ties the two; a confirmation for
   * another amount or currency leaves it pending, its figures kept for staff. True once settled.
   */
  async function apply(tx: Prisma.TransactionClient, modification: ProviderModification, report: Report): Promise<boolean> {
    const { id: modificationId, providerId, chargeId, kind } = modification;
    const mismatch = await mismatchOf(tx, modification, report);
    if (mismatch) {
      await tx.providerModification.update({
        where: { id: modificationId },
        data: { notifiedAmount: report.amount, notifiedCurrency: report.currency },
      });
      // Ids only: the figures are for staff (the attention list), and the provider's text is never logged.
      logger.warn(
        { providerId, chargeId, modificationId, kind, mismatch },
        'provider notification does not match its pending modification: left pending',
      );
    } else {
      await settle(tx, modification, report);
    }
    await tx.providerNotification.update({
      where: { providerId_notificationId: { providerId, notificationId: report.notificationId } },
      data: { modificationId, mismatch: mismatch !== undefined },
    });
    return !mismatch;
  }

  /** Keeps one verified notification (unless it came before) and settles the modification it names. */
  async function take(provider: Provider, notification: ProviderNotification) {
    const { providerReference } = notification;
    const report: Report = {
      notificationId: notification.id,
      success: notification.success,
      amount: notification.amount ?? null,
      currency: notification.currency ?? null,
      gatewayCode: notification.failure?.gatewayCode ?? null,
      gatewayMessage: notification.failure?.gatewayMessage ?? null,
    };
    await db.$transaction(async (tx) => {
      if (providerReference) await lock(tx, provider.id, providerReference);
      const inserted = await tx.$executeRaw`
        INSERT INTO "ProviderNotification"
          ("providerId", "notificationId", "event", "success", "providerChargeId", "providerReference", "gatewayCode", "gatewayMessage",
           "amount", "currency")
        VALUES (${provider.id}, ${report.notificationId}, ${notification.event}, ${report.success}, ${notification.providerChargeId ?? null},
          ${providerReference ?? null}, ${report.gatewayCode}, ${report.gatewayMessage}, ${report.amount}, ${report.currency})
        ON CONFLICT DO NOTHING`;
      if (inserted === 0) {
        logger.info({ providerId: provider.id, notificationId: notification.id }, 'provider notification repeated: nothing changed');
        return;
      }
      if (!providerReference || !SETTLED_EVENTS.has(notification.event)) return;
      const modification = await modificationFor(tx, provider.id, providerReference, notification);
      if (modification) await apply(tx, modification, report);
    });
    // A payment's authorisation completes a charge waiting for its payer (3-D Secure), after the
    // notification is kept: that asks the provider, which no transaction should wait for. A repeat
    // does too (only a charge still waiting is changed): the first may have been answered with an
    // error because the provider could not confirm the outcome then.
    const { event, providerChargeId, success, failure, threeDs } = notification;
    if (event === 'authorisation' && providerChargeId)
      await authorisations.notified(provider.id, providerChargeId, { success, failure, threeDs });
  }

  /** Verifies a notification's raw bytes with the provider's scheme and takes what it reports. */
  async function receive(providerId: string, rawBody: Buffer, headers: Readonly<Record<string, string | undefined>>) {
    // Provider ids are UUIDs: any other id (say a NUL byte, which PostgreSQL refuses) names no
    // provider, and is not logged (it is whatever the caller put in the path, card digits included).
    const wellFormed = isUuid(providerId);
    const provider = wellFormed ? await db.provider.findUnique({ where: { id: providerId } }) : null;
    const format = provider ? providerType(provider.type)?.notifications : undefined;
    if (!provider || !format) {
      logger.warn(
        { providerId: wellFormed ? providerId : 'malformed' },
        'provider notification refused: no such provider takes notifications',
      );
      throw new ApiError('InvalidProviderId', { http: 404, message: 'No provider with this id takes notifications' });
    }
    const read = format.read({ rawBody, headers, parameters: storedParameters(provider, config.keyring), now: clock.now() });
    if (!read.ok) {
      logger.warn({ providerId, reason: read.reason }, 'provider notification refused: not verified');
      throw new ApiError('InvalidAuthentication', { message: 'The notification could not be verified' });
    }
    for (const notification of read.notifications) await take(provider, notification);
    return format.accepted as NotificationAnswer;
  }

  /**
   * In the transaction that shows a modification on its charge: keeps it pending, and settles it at
   * once with the first notification that came before it and matches it.
   */
  async function keepPending(tx: Prisma.TransactionClient, pending: PendingModification) {
    const { providerId, providerReference } = pending;
    if (providerReference) await lock(tx, providerId, providerReference);
    const modification = await tx.providerModification.create({
      data: { id: newId(), ...pending, refundId: pending.refundId ?? null, providerReference: providerReference ?? null },
    });
    if (!providerReference) return;
    const early = await tx.providerNotification.findMany({
      where: { providerId, providerReference, event: pending.kind, modificationId: null },
      orderBy: { dateReceived: 'asc' },
    });
    for (const report of early) if (await apply(tx, modification, report)) return;
  }

  /**
   * What staff must look at for the account (or one provider): modifications a provider failed
   * (before or after confirming them), ones a notification named with another amount or currency,
   * and ones still waiting for their notification past GATEWAY_NOTIFICATION_TIMEOUT_MINUTES.
   */
  async function attention(account: Account, providerId?: string) {
    const overdue = new Date(clock.now().getTime() - timeoutMs);
    const ofAccount = { accountId: account.id, ...(providerId && { id: providerId }) };
    const [rows, pending] = await Promise.all([
      db.providerModification.findMany({
        where: {
          provider: ofAccount,
          OR: [{ status: 'FAILED' }, { status: 'PENDING', OR: [{ dateAdded: { lt: overdue } }, { notifiedCurrency: { not: null } }] }],
        },
        include: { charge: { select: { currency: true, reference: true } }, provider: { select: { name: true } } },
        orderBy: { dateAdded: 'desc' },
        take: ATTENTION_LIMIT,
      }),
      db.providerModification.groupBy({ by: ['providerId'], where: { provider: ofAccount, status: 'PENDING' }, _count: true }),
    ]);
    return {
      timeoutMinutes: timeoutMs / 60_000,
      pending: pending.map((p) => ({ providerId: p.providerId, count: p._count })),
      modifications: rows.map((m) => ({
        modificationId: m.id,
        providerId: m.providerId,
        providerName: m.provider.name,
        chargeId: m.chargeId,
        reference: m.charge.reference,
        kind: m.kind as ModificationKind,
        amount: toWireAmount(m.amount, requireCurrency(m.charge.currency)),
        currency: m.charge.currency,
        status: m.status as 'PENDING' | 'FAILED',
        gatewayCode: m.gatewayCode,
        gatewayMessage: m.gatewayMessage,
        notified: m.notifiedCurrency === null ? null : notifiedFigures(m.notifiedAmount, m.notifiedCurrency),
        reversedAfterConfirmation: m.status === 'FAILED' && m.dateConfirmed !== null,
        dateAdded: m.dateAdded.toISOString(),
        dateSettled: m.dateSettled?.toISOString() ?? null,
      })),
    };
  }

  /** Forgets notifications older than any redelivery (Adyen retries for up to 30 days, Stripe for 3). */
  const sweep = async () =>
    (await db.providerNotification.deleteMany({ where: { dateReceived: { lt: new Date(clock.now().getTime() - KEEP_NOTIFICATIONS_MS) } } }))
      .count;

  return { receive, keepPending, attention, sweep };
}

/** A provider's figures for the wire: the amount stays null when they could not be counted in ISO minor units. */
const notifiedFigures = (amount: bigint | null, currency: string) => ({
  amount: amount === null ? null : toWireAmount(amount, requireCurrency(currency)),
  currency,
});

export type NotificationService = ReturnType<typeof createNotificationService>;

import { randomBytes } from 'node:crypto';
import { ApiError, publicStatus } from '@gateway/core';
import { PermanentJobError, type JobContext } from '@gateway/jobs';
import type { Account, Charge, Prisma } from '@gateway/db';
import type {
  AuthenticationRequest,
  AuthenticationResult,
  Authorisation,
  BrowserInfo,
  ProviderFailure,
  ProviderNotificationOutcome,
} from '@gateway/providers';
import type { ChargeFieldsInput } from '../../schemas/charge';
import type { Dependencies, ServiceConfig } from '../deps';
import type { NotificationService } from '../notifications';
import { giveBackSlot } from '../payment-links/slots';
import { connectorFor, providerError } from '../providers/connectors';
import { PROVIDER_OUTCOME_TX, type ChargeEvents } from './events';
import { THREE_DS_TIMEOUT_QUEUE } from './queues';
import { failedAttemptRow, failedCharge } from './records';
import { reverseAttempt } from './reversal';
import { chargeInclude, isWaitingForPayer, pendingChallengeOf, WAITING_FOR_PAYER, type ChargeRecord, type PendingChallenge } from './view';

/**
 * 3-D Secure through the provider's redirect (docs/three-d-secure.md). A charge whose request asked
 * for it (threeDSNotificationUrl, the payer present) may answer PENDING with a threeDsRedirectUrl:
 * the gateway's own URL, which sends the payer's browser to the provider's page. The provider
 * sends the browser back to the gateway's return URL; the gateway asks the provider for the
 * outcome (never trusting the return's query), completes the charge with one conditional update,
 * and sends the browser on to threeDSNotificationUrl. A provider notification completes it the
 * same way when the payer never comes back, and a job gives up after GATEWAY_THREEDS_TIMEOUT_SECONDS:
 * whichever comes first wins, the others change nothing.
 */

/** Default of GATEWAY_THREEDS_TIMEOUT_SECONDS: how long a charge waits for its payer to authenticate. */
export const DEFAULT_THREE_DS_TIMEOUT_SECONDS = 1800;

/** How long a charge waits for its payer, by the configuration. */
export const threeDsTimeoutMs = (config: Pick<ServiceConfig, 'threeDsTimeoutSeconds'>) =>
  (config.threeDsTimeoutSeconds ?? DEFAULT_THREE_DS_TIMEOUT_SECONDS) * 1000;

/**
 * How often the job that gives up on a charge tries (with the job backoff: days): a provider that
 * will not confirm the cancellation keeps the charge waiting no longer than that, and then the
 * failed job is left for staff (docs/three-d-secure.md).
 */
const GIVE_UP_ATTEMPTS = 25;

/**
 * How many of those runs ask the provider where the payment stands before cancelling without its
 * answer (with the backoff: 6 to 11 hours): the cancellation undoes whatever it holds.
 */
const ASK_ATTEMPTS = 12;

/** A charge's 3-D Secure, decided before its row is written: the token of its URLs and what the provider is asked. */
export interface ThreeDsPlan {
  token: string;
  request: AuthenticationRequest;
}

/** The gateway's URLs of a charge's authentication: where the merchant sends the payer, and where the provider sends the payer back. */
export const threeDsUrls = (publicUrl: string, token: string) => {
  const page = `${publicUrl.replace(/\/+$/, '')}/3ds/${token}`;
  return { page, return: `${page}/return` };
};

/**
 * The plan of a charge that takes part in 3-D Secure: its request gave threeDSNotificationUrl and
 * the payer is there (not a recurring or merchant-initiated payment: those never ask). Undefined
 * otherwise: a card whose issuer demands authentication is then refused.
 */
export function threeDsPlan(
  account: Pick<Account, 'name'>,
  input: Pick<ChargeFieldsInput, 'threeDSNotificationUrl' | 'threeDSRequest' | 'browserInfo' | 'initiator'> & { recurring?: boolean },
  payer: { publicUrl: string; browser?: BrowserInfo },
): ThreeDsPlan | undefined {
  const notificationUrl = input.threeDSNotificationUrl;
  if (!notificationUrl || input.recurring || input.initiator === 'MERCHANT') return undefined;
  const token = randomBytes(24).toString('base64url');
  return {
    token,
    request: {
      returnUrl: threeDsUrls(payer.publicUrl, token).return,
      origin: new URL(notificationUrl).origin,
      // What the merchant passed of its payer's browser, the request's own headers for the rest.
      browser: { ...payer.browser, ...input.browserInfo },
      request: input.threeDSRequest,
      merchantName: account.name,
    },
  };
}

/** An authentication run elsewhere for a provider (type) that cannot take one: refused, never dropped. */
export const externalThreeDsRefused = () =>
  new ApiError('FeatureUnavailable', {
    message: 'This provider cannot take an authentication run elsewhere (externalThreeDsData): choose a provider that can, or leave it out',
  });

/** The error of a payment the provider refused for authentication: why, and (before an opt-in) how to take part. */
export function authenticationError(failure: ProviderFailure, optedIn: boolean, details: Record<string, string>): ApiError {
  const message = optedIn
    ? `3-D Secure authentication failed or was unavailable: ${failure.gatewayMessage}`
    : 'The card needs 3-D Secure authentication, which needs its payer: send threeDSNotificationUrl with a charge the payer makes (not recurring or merchant-initiated) to take them through it (docs/three-d-secure.md)';
  return new ApiError('ThreeDSecureFailed', {
    message,
    retryable: false,
    gatewayCode: failure.gatewayCode,
    gatewayMessage: failure.gatewayMessage,
    details,
  });
}

/** The error a failure gives a charge: an authentication's own, or the provider's usual one. */
export function chargeFailure(failure: ProviderFailure, optedIn: boolean, details: Record<string, string>): ApiError {
  return failure.category === 'authentication_required'
    ? authenticationError(failure, optedIn, details)
    : providerError(failure, { details });
}

/** The changes of a charge that now waits for its payer: PENDING, with where the payer goes, from now. */
export function awaitingPayer(
  publicUrl: string,
  charge: Pick<Charge, 'threeDsToken'>,
  value: Authorisation,
  capture: boolean,
  now: Date,
): Partial<Charge> {
  const challenge: PendingChallenge = {
    url: threeDsUrls(publicUrl, charge.threeDsToken!).page,
    redirect: value.challenge!.redirect,
    capture,
  };
  return {
    status: 'PENDING',
    providerChargeId: value.providerChargeId,
    threeDsChallenge: challenge as unknown as Prisma.JsonValue,
    threeDsStartedAt: now,
    threeDs: null,
  };
}

/** What the gateway's URL of a charge's authentication answers. */
export type ChallengeAnswer =
  | { kind: 'redirect'; url: string }
  | { kind: 'form'; url: string; data: Record<string, string> }
  /** The charge is decided: where the payer may go on to (the merchant's URL with chargeId and status). */
  | { kind: 'over'; status: string; continueUrl: string }
  /** Not decided yet, and not waiting for the payer either: in a moment. */
  | { kind: 'wait' };

export function createThreeDs(
  { db, clock, logger, config, jobs }: Dependencies,
  events: ChargeEvents,
  { keepPending }: Pick<NotificationService, 'keepPending'>,
) {
  const timeoutMs = threeDsTimeoutMs(config);
  const timeoutKey = (chargeId: string) => `3ds-timeout:${chargeId}`;
  const waiting = WAITING_FOR_PAYER;

  /** In the transaction that makes a charge wait for its payer: the job that gives up after the timeout. */
  const scheduleTimeout = (tx: Prisma.TransactionClient, charge: Pick<Charge, 'id' | 'accountId'>, startedAt: Date) =>
    jobs.enqueue(
      THREE_DS_TIMEOUT_QUEUE,
      { chargeId: charge.id },
      {
        runAt: new Date(startedAt.getTime() + timeoutMs),
        dedupeKey: timeoutKey(charge.id),
        group: charge.accountId,
        maxAttempts: GIVE_UP_ATTEMPTS,
        tx,
      },
    );

  /**
   * Completes a charge waiting for its payer with the provider's outcome, under one conditional
   * update (from PENDING): only the first of a return, a notification and the timeout changes it.
   */
  async function complete(charge: ChargeRecord, outcome: Exclude<AuthenticationResult, { state: 'waiting' }>): Promise<void> {
    const challenge = pendingChallengeOf(charge)!;
    await db.$transaction(async (tx) => {
      let changed: number;
      if (outcome.state === 'authorised') {
        const { authorisation } = outcome;
        const captured = authorisation.captured;
        ({ count: changed } = await tx.charge.updateMany({
          where: { id: charge.id, ...waiting },
          data: {
            status: captured ? 'SUCCESS' : 'AUTHORISE',
            capturedAmount: captured ? charge.amount : 0n,
            successDate: captured ? clock.now() : null,
            threeDs: authorisation.threeDs as Prisma.InputJsonValue | undefined,
          },
        }));
        const pending = captured && authorisation.capture?.pending ? authorisation.capture : undefined;
        if (changed === 1 && pending && charge.providerId) {
          await keepPending(tx, {
            providerId: charge.providerId,
            chargeId: charge.id,
            kind: 'capture',
            amount: charge.amount,
            providerReference: pending.providerReference,
          });
        }
      } else {
        const error = chargeFailure(outcome.failure, true, { chargeId: charge.id });
        ({ count: changed } = await tx.charge.updateMany({
          where: { id: charge.id, ...waiting },
          data: { ...failedCharge(error, outcome.failure), threeDs: outcome.threeDs as Prisma.InputJsonValue | undefined },
        }));
        if (changed === 1 && charge.providerId) {
          await tx.chargeAttempt.create({ data: failedAttemptRow(charge.id, charge.providerId, error, outcome.failure) });
        }
        // A payment of a payment link gives its slot back, as one declined at once does.
        if (changed === 1 && charge.paymentLinkId) await giveBackSlot(tx, charge.paymentLinkId);
      }
      if (changed !== 1) return;
      await jobs.cancel(timeoutKey(charge.id), { tx });
      await events.statusChanged(tx, charge);
    }, PROVIDER_OUTCOME_TX);
    logger.info({ chargeId: charge.id, outcome: outcome.state, capture: challenge.capture }, '3-D Secure completed');
  }

  /**
   * Asks the provider where a charge waiting for its payer stands, and completes it when it is
   * decided: 'decided' (by this call or before it), 'waiting' (the payer has not finished),
   * 'unknown' (the provider could not tell now: ask again later) or 'untold' (the provider refuses
   * to tell, for good: asking again will not help).
   */
  async function settle(
    charge: ChargeRecord,
    how: { returned?: Record<string, string>; notified?: ProviderNotificationOutcome } = {},
  ): Promise<'decided' | 'waiting' | 'unknown' | 'untold'> {
    const challenge = pendingChallengeOf(charge);
    if (!isWaitingForPayer(charge) || !challenge || !charge.provider || !charge.providerChargeId) return 'decided';
    const result = await connectorFor(charge.provider, config).authenticationResult({
      providerChargeId: charge.providerChargeId,
      idempotencyKey: `${charge.id}:${charge.attemptCount}`,
      amount: charge.amount,
      currency: charge.currency,
      capture: challenge.capture,
      ...how,
    });
    if (!result.ok) {
      const { gatewayCode, retryable } = result.failure;
      logger.warn({ chargeId: charge.id, gatewayCode, retryable }, '3-D Secure outcome not told by the provider');
      return retryable ? 'unknown' : 'untold';
    }
    if (result.value.state === 'waiting') return 'waiting';
    await complete(charge, result.value);
    return 'decided';
  }

  const byToken = (token: string) => db.charge.findUnique({ where: { threeDsToken: token }, include: chargeInclude });
  const reload = (charge: Pick<Charge, 'id'>) => db.charge.findUniqueOrThrow({ where: { id: charge.id }, include: chargeInclude });

  /** The merchant's threeDSNotificationUrl with the charge's id and status added to its query. */
  function notificationUrl(charge: Pick<Charge, 'id' | 'status' | 'threeDsNotificationUrl'>): string {
    const url = new URL(charge.threeDsNotificationUrl!);
    url.searchParams.set('chargeId', charge.id);
    url.searchParams.set('status', publicStatus(charge.status));
    return url.toString();
  }

  /**
   * What the provider told of a payment by a notification the gateway kept: a success lets the
   * timeout keep a late payment even where the provider cannot be asked (Adyen).
   */
  async function keptAuthorisation(charge: ChargeRecord): Promise<ProviderNotificationOutcome | undefined> {
    if (!charge.providerId || !charge.providerChargeId) return undefined;
    const kept = await db.providerNotification.findFirst({
      where: { providerId: charge.providerId, providerChargeId: charge.providerChargeId, event: 'authorisation', success: true },
    });
    return kept ? { success: true } : undefined;
  }

  /**
   * Gives up on a charge whose payer did not authenticate in time. The provider is asked first (a
   * late success is kept, from a kept notification too); then the charge is claimed, moved from
   * PENDING to PROCESSING, so that no return or notification can complete it while what the
   * provider holds is cancelled (a payment the payer finished meanwhile is undone with it); then it
   * ends FAILED with code 94. A provider that refuses for good to tell, or cannot tell after
   * ASK_ATTEMPTS runs, is not waited for: the cancellation undoes whatever it holds. A cancellation not confirmed yet is tried again, from
   * the claim; one the provider refuses for good leaves the charge PROCESSING and the job failed,
   * for staff: the provider may hold money the gateway could not give back.
   */
  async function giveUp(chargeId: string, attempt: number): Promise<void> {
    const charge = await db.charge.findUnique({ where: { id: chargeId }, include: chargeInclude });
    if (!charge?.provider || !charge.threeDsStartedAt) return;
    if (charge.status === 'PENDING') {
      const asked = await settle(charge, { notified: await keptAuthorisation(charge) });
      if (asked === 'decided') return;
      if (asked === 'unknown' && attempt < ASK_ATTEMPTS) throw new Error('the provider could not tell where the payment stands yet');
      const { count } = await db.charge.updateMany({ where: { id: chargeId, ...waiting }, data: { status: 'PROCESSING' } });
      if (count !== 1) return;
    } else if (charge.status !== 'PROCESSING') return;
    const reversal = await reverseAttempt(db, config, charge.provider, `${charge.id}:${charge.attemptCount}`, charge.providerChargeId);
    if (!reversal.ok && reversal.failure.retryable) throw new Error('the payment waiting for authentication is not cancelled yet');
    if (!reversal.ok) {
      const { gatewayCode, gatewayMessage } = reversal.failure;
      logger.error(
        { chargeId, gatewayCode },
        '3-D Secure abandoned, but the provider refuses to cancel: check the payment at the provider',
      );
      throw new PermanentJobError(
        `the provider refuses to cancel the payment (${gatewayCode}: ${gatewayMessage}); the charge stays PROCESSING`,
      );
    }
    const error = new ApiError('Timeout', {
      message: `The payer did not complete 3-D Secure authentication within ${timeoutMs / 1000} s`,
      details: { chargeId },
    });
    const failure: ProviderFailure = {
      category: 'authentication_required',
      retryable: false,
      gatewayCode: 'TIMEOUT',
      gatewayMessage: error.message,
    };
    await db.$transaction(async (tx) => {
      const { count } = await tx.charge.updateMany({ where: { id: chargeId, status: 'PROCESSING' }, data: failedCharge(error, failure) });
      if (count !== 1) return;
      await tx.chargeAttempt.create({ data: failedAttemptRow(charge.id, charge.provider!.id, error, failure) });
      if (charge.paymentLinkId) await giveBackSlot(tx, charge.paymentLinkId);
      await events.statusChanged(tx, charge);
    }, PROVIDER_OUTCOME_TX);
    logger.info({ chargeId }, '3-D Secure abandoned by the payer: the charge failed');
  }

  return {
    scheduleTimeout,

    /** GET /3ds/{token}: where the payer goes while the charge waits; once decided, that it is over. */
    async challengePage(token: string): Promise<ChallengeAnswer | undefined> {
      const charge = await db.charge.findUnique({ where: { threeDsToken: token } });
      if (!charge) return undefined;
      const challenge = pendingChallengeOf(charge);
      // Between the provider's answer and the charge's wait (or while the gateway gives up): not decided yet.
      if (charge.status === 'PROCESSING') return { kind: 'wait' };
      if (!isWaitingForPayer(charge) || !challenge)
        return { kind: 'over', status: publicStatus(charge.status), continueUrl: notificationUrl(charge) };
      const { url, method, data } = challenge.redirect;
      return method === 'POST' ? { kind: 'form', url, data: data ?? {} } : { kind: 'redirect', url };
    },

    /**
     * The provider's return (GET or POST /3ds/{token}/return): completes the charge from what the
     * provider says, then sends the browser to threeDSNotificationUrl. A second visit changes nothing.
     */
    async returned(token: string, returned: Record<string, string>): Promise<{ location: string } | undefined> {
      const charge = await byToken(token);
      if (!charge) return undefined;
      await settle(charge, { returned });
      return { location: notificationUrl(await reload(charge)) };
    },

    /**
     * A verified notification of a payment's authorisation: completes a charge that waits for its
     * payer. Throws when the provider could not tell yet, so that the notification is answered
     * with an error and sent again (a repeat completes a charge still waiting too).
     */
    async notified(providerId: string, providerChargeId: string, notified: ProviderNotificationOutcome): Promise<void> {
      const charge = await db.charge.findFirst({ where: { providerId, providerChargeId, ...waiting }, include: chargeInclude });
      if (charge && (await settle(charge, { notified })) === 'unknown') throw new Error('the payment’s outcome could not be confirmed yet');
    },

    jobHandlers: {
      [THREE_DS_TIMEOUT_QUEUE]: async (payload: unknown, { attempt }: JobContext) =>
        giveUp(String((payload as { chargeId?: unknown }).chargeId), attempt),
    },
  };
}

export type ThreeDs = ReturnType<typeof createThreeDs>;

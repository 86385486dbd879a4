import { ApiError, detectScheme, lookupIin, type Currency } from '@gateway/core';
import type { Charge, ChargeAttempt, Prisma } from '@gateway/db';
import type { Authorisation, CardSummary, ExternalThreeDs, PaymentSource, ProviderFailure } from '@gateway/providers';
import type { ChargeView } from '../../schemas/charge';
import type { Dependencies } from '../deps';
import type { NotificationService } from '../notifications';
import { connectorFor } from '../providers/connectors';
import type { ProviderWithFees } from '../providers/selection';
import { PROVIDER_OUTCOME_TX, type ChargeEvents } from './events';
import { REVERSE_QUEUE } from './queues';
import { failedAttemptRow, failedCharge } from './records';
import { claimAttempt, keeper, reverseAttempt } from './reversal';
import { awaitingPayer, chargeFailure, type ThreeDs, type ThreeDsPlan } from './three-d-secure';
import { updateCharge, updateCharges } from './statements';
import { heldError, resendable, type UnknownOutcomes } from './unknown-outcomes';
import { toChargeView } from './view';

/** One way to take the payment: a provider and what to charge there. */
export interface ChargeRoute {
  provider: ProviderWithFees;
  estimatedCost: bigint | undefined;
  source: PaymentSource;
  /** What the charge shows of the saved payment method this route takes, when it is one (fallbacks differ by route). */
  chargeColumns?: Prisma.ChargeUncheckedUpdateInput;
}

export interface AttemptPlan {
  charge: Charge;
  currency: Currency;
  capture: boolean;
  routes: ChargeRoute[];
  /** The number of the first route's attempt (1 unless a resumed charge goes on from the attempt its dead run had got to). */
  firstAttempt?: number;
  /** Move on to the next route after a retryable failure (least cost, fallback payment methods). */
  failover: boolean;
  recurring?: boolean;
  /** The payer takes part in 3-D Secure: the provider may answer a challenge, and the charge then waits PENDING. */
  threeDs?: ThreeDsPlan;
  /** An authentication the merchant ran elsewhere, passed to the provider. */
  externalThreeDs?: ExternalThreeDs;
  /**
   * Takes a success (its charge and the changes) that the caller writes itself, with others in one
   * statement (a batch chunk: updateCharges), instead of its own write. Until then the charge stays
   * PROCESSING, as after a crash during the provider call: a run that finds it sends it again with
   * the same keys. A capture the provider settles later (Adyen) is still written at once.
   */
  settle?: (charge: Charge, changes: Partial<Charge>) => void;
}

/**
 * Trying further routes stops once this much time has gone: the client SDKs give up after 60 s,
 * and an answer that arrives after they did is a payment the merchant does not know about.
 */
const FAILOVER_BUDGET_MS = 45_000;

/** A connector answered a challenge the request did not allow (a connector's mistake): reversed, never waited for. */
const UNASKED_CHALLENGE: ProviderFailure = {
  category: 'processor_error',
  retryable: true,
  gatewayCode: 'UNASKED_CHALLENGE',
  gatewayMessage: 'The provider asked for an authentication the payment did not allow',
};

/** Masked-card columns of a charge for a card the provider described (stored cards, wallets). */
export function cardColumnsFromSummary(card: CardSummary) {
  const iin = lookupIin(card.iin.padEnd(card.length, '0'));
  return {
    cardMasked: `${card.iin}${'*'.repeat(Math.max(0, card.length - 10))}${card.last4}`,
    cardIin: card.iin,
    cardScheme: detectScheme(card.iin),
    cardType: iin.cardType,
    cardExpiry: `${String(card.expiryMonth).padStart(2, '0')}/${String(card.expiryYear % 100).padStart(2, '0')}`,
    cardholder: card.cardholder ?? null,
    cardIssuer: iin.issuer,
    cardCountryCode: iin.countryCode,
    cardCountry: iin.country,
  };
}

/**
 * Authorises (and captures) a charge whose row exists in PROCESSING, route after route. Every
 * call carries the key `<chargeId>:<attempt>`. A failure whose outcome is unknown (timeout, lost
 * connection, provider error) is reversed before anything else is tried: the provider may have
 * taken the money. When the reversal cannot be confirmed either, the charge stops there and a job
 * keeps reversing, so that no payer is ever charged twice; when the provider can neither tell nor
 * undo it (NAB Transact without a transaction id), the charge is held for staff (unknown-outcomes.ts).
 */
export type AttemptRunner = ReturnType<typeof createAttemptRunner>;

/** What the attempts came to: the charge as it is now (or as `settle` will write it), on the provider that took it. */
export interface AttemptOutcome {
  charge: Charge;
  provider: ProviderWithFees;
  failedAttempts: ChargeAttempt[];
}

export function createAttemptRunner(
  { db, clock, logger, config, jobs }: Dependencies,
  events: ChargeEvents,
  { keepPending }: Pick<NotificationService, 'keepPending'>,
  { scheduleTimeout }: Pick<ThreeDs, 'scheduleTimeout'>,
  unknownOutcomes: UnknownOutcomes,
) {
  /** The charge now waits for its payer to authenticate (3-D Secure): PENDING, with its timeout, and its event. */
  async function awaitPayer(charge: Charge, value: Authorisation, capture: boolean, card: CardSummary | undefined): Promise<Charge> {
    const now = clock.now();
    const changes = awaitingPayer(config.publicUrl, charge, value, capture, now);
    const withCard = card && !charge.cardMasked ? { ...changes, ...cardColumnsFromSummary(card) } : changes;
    return db.$transaction(async (tx) => {
      const waiting = await updateCharge(tx, charge, 'PROCESSING', withCard);
      await scheduleTimeout(tx, charge, now);
      await events.statusChanged(tx, charge);
      return waiting;
    }, PROVIDER_OUTCOME_TX);
  }

  /**
   * Reverses an attempt whose outcome is unknown: true when done, false when left to a job. What
   * the provider can neither tell nor undo (`outcome_unknown`) is held for staff, the charge staying
   * PROCESSING, and the request is answered so (heldError): it is never failed on a guess.
   */
  async function reverse(route: ChargeRoute, charge: Charge, idempotencyKey: string): Promise<boolean> {
    const reversal = await reverseAttempt(db, config, route.provider, idempotencyKey);
    if (reversal.ok) return true;
    if (reversal.failure.category === 'outcome_unknown') {
      await unknownOutcomes.hold({ charge, provider: route.provider, operation: 'payment', idempotencyKey, amount: charge.amount });
      throw heldError('payment', { chargeId: charge.id });
    }
    await jobs.enqueue(
      REVERSE_QUEUE,
      { providerId: route.provider.id, idempotencyKey },
      { dedupeKey: `reverse:${idempotencyKey}`, group: route.provider.accountId },
    );
    logger.warn({ idempotencyKey, providerId: route.provider.id, gatewayCode: reversal.failure.gatewayCode }, 'reversal left to a job');
    return false;
  }

  /** Records a failed attempt; the last one also fails the charge (with its event). */
  async function recordFailure(charge: Charge, route: ChargeRoute, failure: ProviderFailure, error: ApiError, last: boolean) {
    const recordAttempt = (tx: Prisma.TransactionClient) =>
      tx.chargeAttempt.create({ data: failedAttemptRow(charge.id, route.provider.id, error, failure) });
    if (!last) return recordAttempt(db);
    return db.$transaction(async (tx) => {
      const attempt = await recordAttempt(tx);
      await tx.charge.update({ where: { id: charge.id, status: 'PROCESSING' }, data: failedCharge(error, failure) });
      await events.statusChanged(tx, charge);
      return attempt;
    }, PROVIDER_OUTCOME_TX);
  }

  async function attempt(plan: AttemptPlan): Promise<AttemptOutcome> {
    const { currency, capture, routes } = plan;
    let { charge } = plan;
    const started = clock.now().getTime();
    const failedAttempts: ChargeAttempt[] = [];
    for (const [index, route] of routes.entries()) {
      const attempt = (plan.firstAttempt ?? 1) + index;
      const { provider, estimatedCost } = route;
      const idempotencyKey = `${charge.id}:${attempt}`;
      const parameters = {
        idempotencyKey,
        amount: charge.amount,
        currency: currency.code,
        capture,
        recurring: plan.recurring,
        reference: charge.reference ?? undefined,
        descriptor: charge.descriptor ?? undefined,
      };
      // The charge names the attempt before anything of it can leave (a NAB claim, the call): a run
      // that resumes it goes on from this attempt, the ones before having ended.
      if (attempt > 1) {
        // Only while nothing decided it: a run whose lease ran out changes no charge another run finished.
        charge = await db.charge.update({
          where: { id: charge.id, status: 'PROCESSING' },
          data: {
            providerId: provider.id,
            ...route.chargeColumns,
            attemptCount: attempt,
            estimatedCost: estimatedCost ?? null,
            estimatedCostCurrency: estimatedCost === undefined ? null : currency.code,
          },
        });
      }
      // A call that cannot be sent twice is claimed before it leaves, once (reversal.ts claimAttempt):
      // what a held call was, and that it may have left. One claimed already is never sent again: it
      // is another run's, or left before a crash (stored.ts resumes that one otherwise).
      if (!resendable(provider) && !(await claimAttempt(db, parameters))) {
        throw new ApiError('InvalidChargeStatus', { http: 409, retryable: true, message: 'This charge is being made by another request' });
      }
      const keep = keeper(db, parameters);
      const result = await connectorFor(provider, config).authorise({
        ...parameters,
        source: route.source,
        keep,
        authentication: plan.threeDs?.request,
        externalThreeDs: plan.externalThreeDs,
      });

      if (result.ok && result.value.challenge && plan.threeDs) {
        const waiting = await awaitPayer(charge, result.value, capture, result.value.card);
        logger.info({ chargeId: charge.id, providerId: provider.id, attempt }, 'charge waits for 3-D Secure');
        return { charge: waiting, provider, failedAttempts };
      }
      if (result.ok && !result.value.challenge) {
        const { providerChargeId, captured, card, capture: pendingCapture, threeDs } = result.value;
        const decided: Partial<Charge> = captured
          ? { status: 'SUCCESS', providerChargeId, capturedAmount: charge.amount, successDate: clock.now() }
          : { status: 'AUTHORISE', providerChargeId };
        const data = threeDs ? { ...decided, threeDs: threeDs as Charge['threeDs'] } : decided;
        const changes = card && !charge.cardMasked ? { ...data, ...cardColumnsFromSummary(card) } : data;
        const write = (tx: Prisma.TransactionClient) => updateCharge(tx, charge, 'PROCESSING', changes);
        // A sale whose capture the provider settles later (Adyen): kept with the charge, pending its notification.
        const pending = captured && pendingCapture?.pending ? pendingCapture : undefined;
        let updated: Charge;
        if (pending) {
          updated = await db.$transaction(async (tx) => {
            const written = await write(tx);
            await events.statusChanged(tx, charge);
            const kept = { providerId: provider.id, chargeId: charge.id, kind: 'capture' as const, amount: charge.amount };
            await keepPending(tx, { ...kept, providerReference: pending.providerReference });
            return written;
          }, PROVIDER_OUTCOME_TX);
        } else if (plan.settle) {
          // Written (and logged, a line per chunk) by the caller: a line per charge here would say
          // "completed" before the charge is, and cost a batch row as much as its bulk statements.
          plan.settle(charge, changes);
          return { charge: { ...charge, ...changes }, provider, failedAttempts };
        } else {
          updated = await events.changing(charge, write, () => true);
        }
        logger.info({ chargeId: charge.id, providerId: provider.id, status: updated.status, attempt }, 'charge completed');
        return { charge: updated, provider, failedAttempts };
      }

      // A challenge nobody asked for is not waited for: the payment is reversed like an unknown outcome.
      const failure = result.ok ? UNASKED_CHALLENGE : result.failure;
      const error = chargeFailure(failure, plan.threeDs !== undefined, { chargeId: charge.id });
      const reversed = !failure.retryable || (await reverse(route, charge, idempotencyKey));
      const next = routes[index + 1];
      const last =
        !failure.retryable ||
        !reversed ||
        !plan.failover ||
        !next ||
        clock.now().getTime() - started + next.provider.timeoutMs > FAILOVER_BUDGET_MS;
      failedAttempts.push(await recordFailure(charge, route, failure, error, last));
      logger.info(
        { chargeId: charge.id, providerId: provider.id, attempt, category: failure.category, retryable: failure.retryable },
        'provider attempt failed',
      );
      if (last) throw error;
    }
    throw new ApiError('NoCardProvidersConfigured');
  }

  return {
    attempt,
    /**
     * Writes successes left to `settle`, in the caller's transaction, in one statement, each with
     * its event when anyone listens; answers the ids written. A charge no longer PROCESSING was
     * decided by another run (which may have reversed the payment: a timeout on its resumed call),
     * so it is left as it is, and the caller must take its outcome from the charge.
     */
    async settleCharges(tx: Prisma.TransactionClient, settled: Array<{ charge: Charge; changes: Partial<Charge> }>) {
      const written = new Set(
        await updateCharges(
          tx,
          'PROCESSING',
          settled.map(({ charge, changes }) => ({ id: charge.id, changes })),
        ),
      );
      for (const { charge } of settled) if (written.has(charge.id)) await events.statusChanged(tx, charge);
      return written;
    },
    /** The attempts, answered as the API shows the charge. */
    async runAttempts(plan: AttemptPlan): Promise<ChargeView> {
      const { charge, provider, failedAttempts } = await attempt(plan);
      // A new charge has no refunds yet and its attempts are in hand: only its customer is read.
      const customer = charge.customerId ? await db.customer.findUnique({ where: { id: charge.customerId } }) : null;
      return toChargeView({ ...charge, provider, customer, refunds: [], attempts: failedAttempts });
    },
  };
}

import { ApiError, ERRORS, formatAmount } from '@gateway/core';
import { Prisma, type Account, type Batch, type BatchRow, type BatchStatus, type Charge } from '@gateway/db';
import type { JobHandler } from '@gateway/jobs';
import { atOnce } from '../at-once';
import type { ChargeService } from '../charges';
import { PROVIDER_OUTCOME_TX } from '../charges/events';
import { heldError, OUTCOME_UNKNOWN } from '../charges/unknown-outcomes';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';
import { openWebhook, type WebhookService } from '../webhooks';
import { toBatchStatusView } from './view';

export const BATCH_QUEUE = 'batch.charge-rows';

/**
 * Rows one job charges, recorded together with the job's completion: about a tenth of the batch,
 * from 50 to 500. A small batch still moves in steps, with both lanes busy; a large one spreads a
 * chunk's fixed cost (its job, its reads, its transaction) over 500 rows.
 */
const chunkRowsOf = (count: number) => Math.min(500, Math.max(50, Math.ceil(count / 10)));
/** The rows of a chunk enqueued before chunks were sized by their batch. */
const FORMER_CHUNK_ROWS = 50;
/** Jobs of one batch that run at once (normally): each hands its lane on to the chunk LANES further on. */
const LANES = 2;
/** A chunk still running this long after it started (its worker died, or hangs) no longer holds up its lane. */
const LANE_WAIT_MS = 2 * 60_000;
/**
 * Rows one job charges at once: many on the simulated acquirer; few when a row goes to a real
 * provider, whose rate limit (Stripe: 100 calls a second in live mode) a batch must not use up.
 */
const ROWS_AT_ONCE = { simulated: 64, real: 8 };
/** The transaction that ends a chunk run. */
const CHUNK_TX = { ...PROVIDER_OUTCOME_TX, timeout: 60_000 };
/** A chunk retries (database trouble, rows waiting for their charges) for about two days. */
const CHUNK_ATTEMPTS = 25;
/** Why a row whose chunk gave up before charging it failed. */
const NOT_CHARGED = 'The gateway could not charge this row (its batch job failed for good): send it again in a new batch';

/** What a processed row records; FAILED rows name why. */
type RowOutcome =
  | { status: 'SUCCESS' }
  | {
      status: 'FAILED';
      failureReason: string;
      gatewayErrorCode: string | null;
      gatewayErrorResponse: string | null;
      isRetryable: boolean;
    };

/** `rows`: rows per chunk of the batch (chunkRowsOf), handed on from chunk to chunk. */
type ChunkPayload = { batchId: string; chunk: number; rows?: number };

const failed = (reason: string, gatewayCode: string | null, gatewayMessage: string | null, retryable: boolean): RowOutcome => ({
  status: 'FAILED',
  failureReason: reason,
  gatewayErrorCode: gatewayCode,
  gatewayErrorResponse: gatewayMessage,
  isRetryable: retryable,
});

export interface BatchProcessingDeps {
  charges: Pick<ChargeService, 'createPaymentMethodCharges' | 'resumePaymentMethodCharge' | 'settleCharges'>;
  webhooks: Pick<WebhookService, 'record'>;
}

/**
 * Charges the rows of batches in the background. A batch's rows are cut into chunks (chunkRowsOf);
 * LANES jobs of a batch run at a time, each charging its rows together (one insert for their
 * charges, ROWS_AT_ONCE provider calls at a time, one write of the successes), so a batch normally
 * keeps LANES × ROWS_AT_ONCE charges in flight (128 on the simulated acquirer, 16 on real
 * providers) and leaves room to other jobs. A chunk that fails, hangs or dies with its worker is
 * retried on its own, not holding up the rest.
 *
 * Every row has its charge id from the start, so it can make one charge only, whatever happens to
 * the workers: a job that runs the rows of a run that died finds their charges taken, records what
 * they became, and sends those the dead run left PROCESSING again with the same provider keys. A
 * chunk writes its successful charges, its rows, the batch's counters and its own completion in one
 * transaction, with conditional and arithmetic updates, so concurrent jobs never count a row twice.
 */
export function createBatchProcessing({ db, clock, logger, jobs, config }: Dependencies, { charges, webhooks }: BatchProcessingDeps) {
  /** Enqueues a chunk once, due at `runAt` (now by default); a chunk pending for later is brought forward. */
  function enqueueChunk(
    batch: Pick<Batch, 'id' | 'accountId'>,
    chunk: number,
    rows: number,
    { tx, runAt }: { tx?: Prisma.TransactionClient; runAt?: Date } = {},
  ) {
    const payload: ChunkPayload = { batchId: batch.id, chunk, rows };
    const key = `batch:${batch.id}:${chunk}`;
    const group = batch.accountId;
    return jobs.enqueue(BATCH_QUEUE, payload, { tx, runAt, dedupeKey: key, advance: true, maxAttempts: CHUNK_ATTEMPTS, group });
  }

  /** Enqueues the first chunk of each lane of a new batch, in the transaction that creates it. */
  async function start(tx: Prisma.TransactionClient, batch: Batch) {
    const rows = chunkRowsOf(batch.count);
    for (let chunk = 0; chunk < LANES && chunk * rows < batch.count; chunk += 1) await enqueueChunk(batch, chunk, rows, { tx });
  }

  /** Moves the batch from `from` to `to`, with its event; it completes when it leaves IN_PROGRESS (a settled row changes no date). */
  async function changeStatus(tx: Prisma.TransactionClient, batch: Batch, from: BatchStatus, to: BatchStatus) {
    const completed = from === 'IN_PROGRESS';
    const { count } = await tx.batch.updateMany({
      where: { id: batch.id, status: from },
      data: { status: to, ...(completed && { dateCompleted: clock.now() }) },
    });
    if (count === 0) return;
    logger.info({ batchId: batch.id, status: to }, 'batch status changed');
    await webhooks.record(tx, {
      accountId: batch.accountId,
      type: 'Batch',
      eventType: 'batch.status.changed',
      resourceId: batch.id,
      data: toBatchStatusView({ ...batch, status: to }),
      webhook: openWebhook(config.keyring, 'Batch', batch.id, batch.webhook),
    });
  }

  /**
   * The row's outcome from its charge; undefined while the charge is still being made. A charge
   * held for staff (its outcome unknown at the provider) is a failed row that must not be repeated;
   * one staff then found never made is a failed row the merchant may send again.
   */
  function outcomeOf(
    charge: Charge & { attempts: Array<{ isRetryable: boolean }>; unknownOutcomes: Array<{ resolution: string | null }> },
  ): RowOutcome | undefined {
    if (charge.status === 'PROCESSING' && charge.unknownOutcomes.some((held) => held.resolution === null)) {
      const held = heldError('payment', { chargeId: charge.id });
      return failed(held.message, held.gatewayCode ?? null, held.gatewayMessage ?? null, false);
    }
    if (charge.status === 'PROCESSING') return undefined;
    if (charge.status !== 'FAILED') return { status: 'SUCCESS' };
    const notMade = charge.unknownOutcomes.some((held) => held.resolution === 'not_made');
    const retryable = notMade || (charge.attempts[0]?.isRetryable ?? false);
    return failed(charge.failureMessage ?? 'Failed', charge.gatewayCode, charge.gatewayMessage, retryable);
  }

  /**
   * A row recorded FAILED while its charge was held for staff (OUTCOME_UNKNOWN), in the transaction
   * in which staff settle that charge (which changed the charge first, under its lock): a payment the
   * provider made makes the row a success (the batch's counters follow, and a batch that had ended
   * FAILED for want of one ends SUCCESS); one it never made stays a failure the merchant may now
   * send again. A row not recorded yet is left to its chunk (record).
   */
  async function recordSettledRow(tx: Prisma.TransactionClient, chargeId: string): Promise<void> {
    const charge = await readCharge(chargeId, tx);
    const outcome = charge.batchId !== null && outcomeOf(charge);
    if (!outcome) return;
    const cleared = { failureReason: null, gatewayErrorCode: null, gatewayErrorResponse: null, isRetryable: null };
    const { count } = await tx.batchRow.updateMany({
      where: { chargeId, status: 'FAILED', gatewayErrorCode: OUTCOME_UNKNOWN },
      data: outcome.status === 'SUCCESS' ? { ...cleared, status: 'SUCCESS' } : outcome,
    });
    if (count === 0 || outcome.status !== 'SUCCESS') return;
    const row = await tx.batchRow.findUniqueOrThrow({ where: { chargeId }, select: { batchId: true } });
    const batch = await tx.batch.update({ where: { id: row.batchId }, data: { success: { increment: 1 }, failure: { decrement: 1 } } });
    if (batch.status === 'FAILED') await changeStatus(tx, batch, 'FAILED', 'SUCCESS');
  }

  /** The outcome of a row's charge, read under the lock a change of the charge takes (not one that stops rows referring to it). */
  async function lockedOutcome(tx: Prisma.TransactionClient, chargeId: string): Promise<RowOutcome | undefined> {
    await tx.$queryRaw`SELECT 1 FROM "Charge" WHERE "id" = ${chargeId} FOR NO KEY UPDATE`;
    return outcomeOf(await readCharge(chargeId, tx));
  }

  /** A charge with its last attempt, which says whether its failure is retryable (outcomeOf). */
  const withLastAttempt = {
    attempts: { orderBy: { dateAttempted: 'desc' as const }, take: 1 },
    unknownOutcomes: { where: { operation: 'payment' }, select: { resolution: true } },
  };
  const readCharge = (id: string, client: Pick<Prisma.TransactionClient, 'charge'> = db) =>
    client.charge.findUniqueOrThrow({ where: { id }, include: withLastAttempt });

  /** What charging a row sends: its payment method's charge for the row's amount, linked to the batch. */
  const requestOf = (row: BatchRow) => ({
    input: {
      paymentMethodId: row.paymentMethodId,
      amount: formatAmount(row.amount, requireCurrency(row.currency)),
      currency: row.currency,
      reference: row.reference ?? undefined,
      // Merchant-initiated on stored details: no payer present (Stripe off_session, Adyen ContAuth).
      recurring: true,
    },
    origin: { chargeId: row.chargeId, batchId: row.batchId },
  });

  /**
   * A row whose charge exists (a run that died made it before it could record the row): its outcome
   * from the charge; a charge left PROCESSING (the run died during the provider call, or before it
   * wrote the answer) is sent again with the same keys, so the payer pays at most once. Undefined:
   * the charge is still being made.
   */
  async function resumeRow(account: Account, row: BatchRow): Promise<RowOutcome | undefined> {
    const charge = await readCharge(row.chargeId);
    if (charge.status !== 'PROCESSING' || charge.paymentType !== 'CARD') return outcomeOf(charge);
    await charges.resumePaymentMethodCharge(account, requestOf(row).input, row.chargeId).catch((error: unknown) => {
      if (!(error instanceof ApiError)) throw error;
      logger.warn({ chargeId: row.chargeId, error: error.message }, 'batch charge refused on resumption');
    });
    return outcomeOf(await readCharge(row.chargeId));
  }

  /**
   * Charges `rows` together (createPaymentMethodCharges: one insert for their charges, ROWS_AT_ONCE
   * provider calls at a time), then resumes those whose charge existed (few: a run died),
   * ROWS_AT_ONCE.real at a time; takes no more after an error or once the lease is lost. A charge
   * made (SUCCESS, or a debit the provider accepted) is a SUCCESS row; a refusal, before or at the
   * provider, a FAILED one. The successes come back unwritten, for the chunk's closing transaction
   * (charges.settleCharges).
   */
  async function chargeRows(account: Account, rows: BatchRow[], signal: AbortSignal) {
    const settled: Parameters<BatchProcessingDeps['charges']['settleCharges']>[1] = [];
    const made = await charges.createPaymentMethodCharges(account, rows.map(requestOf), {
      inFlight: ROWS_AT_ONCE,
      signal,
      settle: (charge, changes) => settled.push({ charge, changes }),
    });
    let { error } = made;
    const outcomes: Array<[BatchRow, RowOutcome]> = [];
    const taken: BatchRow[] = [];
    for (const [index, row] of rows.entries()) {
      const outcome = made.outcomes[index];
      if (outcome === 'taken') taken.push(row);
      else if (outcome === 'charged') outcomes.push([row, { status: 'SUCCESS' }]);
      else if (outcome)
        outcomes.push([row, failed(outcome.message, outcome.gatewayCode ?? null, outcome.gatewayMessage ?? null, outcome.retryable)]);
    }
    const resume = async (row: BatchRow) => {
      try {
        const outcome = await resumeRow(account, row);
        if (outcome) outcomes.push([row, outcome]);
      } catch (failure) {
        error ??= failure;
      }
    };
    await atOnce(taken, ROWS_AT_ONCE.real, resume, () => error !== undefined || signal.aborted);
    return { outcomes, settled, error };
  }

  /**
   * Records processed rows once each, and the batch's counters; completes the batch with its last
   * row. A row held for staff takes its charge's outcome as read again under the charge's lock:
   * staff may have settled it since (recordSettledRow, which takes that lock first, then found the
   * row not recorded yet and left it to this).
   */
  async function record(tx: Prisma.TransactionClient, batchId: string, given: Array<[BatchRow, RowOutcome]>) {
    const isHeld = (outcome: RowOutcome) => outcome.status === 'FAILED' && outcome.gatewayErrorCode === OUTCOME_UNKNOWN;
    // Locked in one order, whatever order the rows came in: two runs of a chunk never wait on each other in a circle.
    const heldCharges = given.flatMap(([row, outcome]) => (isHeld(outcome) ? [row.chargeId] : [])).sort();
    const settled = new Map<string, RowOutcome | undefined>();
    for (const chargeId of heldCharges) settled.set(chargeId, await lockedOutcome(tx, chargeId));
    const outcomes = given.map(([row, outcome]): [BatchRow, RowOutcome] => [row, settled.get(row.chargeId) ?? outcome]);
    const processedAt = clock.now();
    const succeeded = outcomes.filter(([, outcome]) => outcome.status === 'SUCCESS').map(([row]) => row.id);
    let success = 0;
    let failure = 0;
    if (succeeded.length > 0) {
      const updated = await tx.batchRow.updateMany({
        where: { id: { in: succeeded }, status: 'CREATED' },
        data: { status: 'SUCCESS', processedAt },
      });
      success = updated.count;
    }
    for (const [row, outcome] of outcomes) {
      if (outcome.status !== 'FAILED') continue;
      failure += (await tx.batchRow.updateMany({ where: { id: row.id, status: 'CREATED' }, data: { ...outcome, processedAt } })).count;
    }
    if (success + failure === 0) return;
    const batch = await tx.batch.update({
      where: { id: batchId },
      data: { processed: { increment: success + failure }, success: { increment: success }, failure: { increment: failure } },
    });
    if (batch.processed === batch.count) await changeStatus(tx, batch, 'IN_PROGRESS', batch.success > 0 ? 'SUCCESS' : 'FAILED');
  }

  /** The rows of a chunk not yet recorded, in line order. */
  const rowsToCharge = (client: Pick<Prisma.TransactionClient, 'batchRow'>, batchId: string, chunk: number, rows: number) =>
    client.batchRow.findMany({
      where: { batchId, status: 'CREATED', line: { gt: chunk * rows, lte: (chunk + 1) * rows } },
      orderBy: { line: 'asc' },
    });

  /**
   * After the last attempt of a chunk, so that its batch can finish, in one transaction: a row whose
   * charge was never made gets a FAILED charge under its charge id (with its payment method's type
   * and customer when the method exists), which no run still going can then make, as the id is
   * taken, and is recorded FAILED; a row whose charge exists is recorded from it, unless that
   * charge is still being made.
   */
  async function giveUp(batch: Batch, chunk: number, chunkRows: number) {
    await db.$transaction(async (tx) => {
      const rows = await rowsToCharge(tx, batch.id, chunk, chunkRows);
      const methods = await tx.paymentMethod.findMany({
        where: { accountId: batch.accountId, id: { in: rows.map((row) => row.paymentMethodId) } },
        select: { id: true, type: true, customerId: true },
      });
      const methodOf = new Map(methods.map((method) => [method.id, method]));
      const made = await tx.charge.createManyAndReturn({
        data: rows.map((row) => {
          const method = methodOf.get(row.paymentMethodId);
          return {
            id: row.chargeId,
            accountId: batch.accountId,
            batchId: batch.id,
            status: 'FAILED' as const,
            currency: row.currency,
            amount: row.amount,
            reference: row.reference,
            ...(method && { paymentType: method.type, paymentMethodId: method.id, customerId: method.customerId }),
            failureCode: ERRORS.UnableToCharge.code,
            failureMessage: NOT_CHARGED,
          };
        }),
        skipDuplicates: true,
        select: { id: true },
      });
      const notCharged = new Set(made.map((charge) => charge.id));
      const existing = await tx.charge.findMany({
        where: { id: { in: rows.filter((row) => !notCharged.has(row.chargeId)).map((row) => row.chargeId) } },
        include: withLastAttempt,
      });
      const chargeOf = new Map(existing.map((charge) => [charge.id, charge]));
      const outcomes: Array<[BatchRow, RowOutcome]> = [];
      for (const row of rows) {
        const charge = chargeOf.get(row.chargeId);
        const outcome = notCharged.has(row.chargeId) ? failed(NOT_CHARGED, null, null, true) : charge && outcomeOf(charge);
        if (outcome) outcomes.push([row, outcome]);
      }
      await record(tx, batch.id, outcomes);
    });
  }

  /**
   * The outcomes to record: a success whose charge was not written (another run decided the charge,
   * and may have reversed its payment) takes its outcome from the charge as it is now, or is left
   * out while the charge is still PROCESSING.
   */
  async function fromUnwritten(
    tx: Prisma.TransactionClient,
    outcomes: Array<[BatchRow, RowOutcome]>,
    written: ReadonlySet<string>,
    settled: ReadonlySet<string>,
  ): Promise<Array<[BatchRow, RowOutcome]>> {
    const result: Array<[BatchRow, RowOutcome]> = [];
    for (const [row, outcome] of outcomes) {
      if (!settled.has(row.chargeId) || written.has(row.chargeId)) {
        result.push([row, outcome]);
        continue;
      }
      const now = outcomeOf(await readCharge(row.chargeId, tx));
      if (now) result.push([row, now]);
    }
    return result;
  }

  /**
   * Runs a chunk. The next chunk of its lane is enqueued first, due LANE_WAIT_MS later, and brought
   * forward when this run ends, well (with this chunk's completion) or not: only a run that hangs
   * or dies holds its lane, and not for long. Chunks cover different rows: no row is charged twice.
   */
  const chargeChunk: JobHandler = async (payload, ctx) => {
    const { batchId, chunk, rows: chunkRows = FORMER_CHUNK_ROWS } = payload as ChunkPayload;
    const batch = await db.batch.findUniqueOrThrow({ where: { id: batchId }, include: { account: true } });
    const next = chunk + LANES;
    const handOn = (options: { tx?: Prisma.TransactionClient; runAt?: Date } = {}) =>
      next * chunkRows < batch.count ? enqueueChunk(batch, next, chunkRows, options) : undefined;
    await handOn({ runAt: new Date(clock.now().getTime() + LANE_WAIT_MS) });
    try {
      if (batch.status === 'CREATED') await db.$transaction((tx) => changeStatus(tx, batch, 'CREATED', 'IN_PROGRESS'));
      const rows = await rowsToCharge(db, batchId, chunk, chunkRows);
      const charged = await chargeRows(batch.account, rows, ctx.signal);
      const { settled, error } = charged;
      // It writes what the providers did, up to 500 charges with their events when anyone listens:
      // it waits for a connection and runs as long as that takes (Prisma's defaults: 2 s and 5 s).
      const outcomes = await db.$transaction(async (tx) => {
        const written = await charges.settleCharges(tx, settled);
        const recorded = await fromUnwritten(tx, charged.outcomes, written, new Set(settled.map(({ charge }) => charge.id)));
        await record(tx, batchId, recorded);
        if (recorded.length !== rows.length) return recorded;
        await handOn({ tx });
        await ctx.complete(tx);
        return recorded;
      }, CHUNK_TX);
      const done = outcomes.length === rows.length;
      const failed = outcomes.filter(([, outcome]) => outcome.status === 'FAILED').length;
      logger.info({ batchId, chunk, rows: rows.length, succeeded: outcomes.length - failed, failed }, 'batch chunk recorded');
      if (error !== undefined) throw error;
      if (!done) throw new Error(`${rows.length - outcomes.length} rows of the chunk wait for their charges to finish`);
    } catch (error) {
      await handOn();
      if (ctx.attempt >= CHUNK_ATTEMPTS) {
        await giveUp(batch, chunk, chunkRows).catch((failure: unknown) =>
          logger.error({ batchId, chunk, err: failure }, 'batch chunk could not give up'),
        );
      }
      throw error;
    }
  };

  return { start, recordSettledRow, jobHandlers: { [BATCH_QUEUE]: chargeChunk } };
}

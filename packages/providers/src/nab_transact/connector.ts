import {
  summaryOf,
  type Authorisation,
  type AuthoriseRequest,
  type CredentialCheck,
  type ProviderConnector,
  type ProviderResult,
} from '../connector.js';
import { HttpTimeoutError, requestText, type TextAnswer } from '../http-json.js';
import type { Environment } from '../provider-type.js';
import { unsupported } from '../provider-type.js';
import { declineFor, failureFor, outcomeUnknown, statusFailure, type NabCode } from './codes.js';
import { toNabAmount } from './currencies.js';
import {
  customerReference,
  echoMessage,
  paymentId,
  paymentMessage,
  periodicMessage,
  purchaseOrderNo,
  readAnswer,
  readPaymentId,
  TXN_TYPE,
  type Envelope,
  type NabAnswer,
  type NabPayment,
  type PeriodicAction,
  type Txn,
} from './transformers.js';

/**
 * NAB Transact's XML API (xml-4.2) over HTTPS POST, and its periodic API (spxml-4.2) for stored
 * cards. NAB has no idempotency key (docs/providers/nab_transact.md, "Retry safety"):
 *
 * - every payment or pre-authorisation carries its own `purchaseOrderNo`, the attempt's key
 *   (`<chargeId>:<attempt>`), so no two attempts are ever one transaction at NAB;
 * - as soon as NAB answers a payment, its `txnID` is kept with the attempt (`AuthoriseRequest.keep`)
 *   before anything else happens, so a gateway that dies then can still reverse it;
 * - every call without a definite answer (none in time, the connection lost, a server error, an
 *   answer that is not NAB's) or whose answer says the bank's was lost (111, 112) fails with the
 *   category `timeout` (`outcomeUnknown`): NAB may have done it; a definite answer, even a decline
 *   that may be retried (91), never does;
 * - `reverse` (an unknown outcome) reverses by that `txnID` (txnType 6); without one NAB cannot be
 *   asked what became of the payment, and `reverse` answers OUTCOME_UNKNOWN, not retryable: the
 *   charge is not guessed, the gateway logs it for staff to check in NAB Transact.
 *
 * A charge's `providerChargeId` carries what later calls must quote: `txnID*purchaseOrderNo*preauthID*amount*currency`.
 */
export interface NabConnectorConfig {
  /** NAB's host (https://demo.transact.nab.com.au, https://transact.nab.com.au) or the operator's override. */
  baseUrl: string;
  timeoutMs: number;
  environment: Environment;
  merchantId: string;
  password: string;
  now?: () => number;
}

type Result<T> = ProviderResult<T>;

const TYPE = 'nab_transact';
const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = (code: NabCode): { ok: false; failure: ReturnType<typeof failureFor> } => ({ ok: false, failure: failureFor(code) });

/** Errors of a connection that was never made (refused, or no such host): nothing reached NAB. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const neverConnected = (error: unknown) => NEVER_CONNECTED.has(String((error as { code?: unknown } | null)?.code));

/** Where each API answers, as NAB publishes it: the live payment API is under /live. */
export function nabPaths(environment: Environment): { payment: string; periodic: string } {
  return { payment: environment === 'PRODUCTION' ? '/live/xmlapi/payment' : '/xmlapi/payment', periodic: '/xmlapi/periodic' };
}

export function createNabConnector(config: NabConnectorConfig): ProviderConnector {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const paths = nabPaths(config.environment);
  const now = config.now ?? Date.now;

  const envelope = (): Envelope => ({
    merchantId: config.merchantId,
    password: config.password,
    timeoutSeconds: Math.max(1, Math.ceil(config.timeoutMs / 1000)),
    now: new Date(now()),
  });

  const post = (path: string, xml: string): Promise<TextAnswer> =>
    requestText('POST', `${baseUrl}${path}`, Buffer.from(xml, 'utf8'), { 'content-type': 'text/xml; charset=utf-8' }, config.timeoutMs);

  /** One message to NAB, its answer read; the failure when none came, or none NAB would give. */
  async function call(path: string, xml: string): Promise<Result<NabAnswer>> {
    let answer: TextAnswer;
    try {
      answer = await post(path, xml);
    } catch (error) {
      return fail(error instanceof HttpTimeoutError ? 'TIMEOUT' : neverConnected(error) ? 'UNREACHABLE' : 'NETWORK');
    }
    if (answer.status >= 500) return fail('HTTP_5XX');
    try {
      const read = readAnswer(answer.text);
      return read.statusCode === '000' ? ok(read) : { ok: false, failure: statusFailure(read.statusCode) };
    } catch {
      return fail('BAD_RESPONSE');
    }
  }

  /** The texts of an approved transaction or periodic item, else the failure its response code stands for. */
  const outcome = (item: Record<string, string>, approved: boolean): Result<Record<string, string>> =>
    approved ? ok(item) : { ok: false, failure: declineFor(item.responseCode) };

  /** A transaction of the payment API: its texts when NAB approved it, else the failure its response code stands for. */
  async function transact(txn: Txn, declined?: (item: Record<string, string>) => Promise<void>): Promise<Result<Record<string, string>>> {
    const answer = await call(paths.payment, paymentMessage(envelope(), txn));
    if (!answer.ok) return answer;
    const item = answer.value.item;
    if (!item) return fail('BAD_RESPONSE');
    // NAB's approved flag decides: an approval with a bank code the table does not list is still money taken.
    const approved = item.approved?.toLowerCase() === 'yes';
    if (!approved) await declined?.(item);
    return outcome(item, approved);
  }

  async function periodic(
    action: PeriodicAction,
    declined?: (item: Record<string, string>) => Promise<void>,
  ): Promise<Result<Record<string, string>>> {
    const answer = await call(paths.periodic, periodicMessage(envelope(), action));
    if (!answer.ok) return answer;
    const item = answer.value.item;
    if (!item) return fail('BAD_RESPONSE');
    const approved = item.successful?.toLowerCase() === 'yes';
    if (!approved) await declined?.(item);
    return outcome(item, approved);
  }

  function amountIn(currency: string, amount: bigint): Result<bigint> {
    const value = toNabAmount(currency, amount);
    return value === undefined ? fail('AMOUNT') : ok(value);
  }

  /** A payment NAB approved, as the gateway names it; kept with the attempt at once, so that it can be reversed whatever happens next. */
  async function approved(req: AuthoriseRequest, payment: NabPayment, captured: boolean): Promise<Result<Authorisation>> {
    await req.keep?.({ providerChargeId: paymentId(payment), approved: 'yes' });
    const card = req.source.type === 'card' ? { card: summaryOf(req.source.card) } : {};
    return ok({ providerChargeId: paymentId(payment), captured, amount: req.amount, ...card });
  }

  async function authorise(req: AuthoriseRequest): Promise<Result<Authorisation>> {
    const { source } = req;
    if (source.type === 'network_token') return unsupported(TYPE, 'network tokens');
    if (source.type === 'wallet') return unsupported(TYPE, 'wallets');
    if (req.amount === 0n) return unsupported(TYPE, 'card verification without an amount');
    const amount = amountIn(req.currency, req.amount);
    if (!amount.ok) return amount;
    const order = purchaseOrderNo(req.idempotencyKey);
    const base = { amount: amount.value, currency: req.currency, purchaseOrderNo: order };
    // NAB answered and did not approve. A definite decline that may be retried (91) is kept as
    // declined: its reversal has nothing to do. When NAB says the bank's answer was lost (111, 112)
    // it may hold the payment: the transaction id it gave is kept for the reversal; without one
    // (txnID 000000) nothing is kept, and `reverse` answers that the outcome is unknown.
    const declined = async ({ txnID, responseCode }: Record<string, string>) => {
      const failure = declineFor(responseCode);
      if (!failure.retryable) return;
      if (!outcomeUnknown(failure)) await req.keep?.({ declined: responseCode ?? '' });
      else if (txnID && !/^0+$/.test(txnID)) await req.keep?.({ providerChargeId: paymentId({ txnID, ...base }) });
    };
    // No connection to NAB could be made: nothing was sent, and a reversal has nothing to do.
    const notPaid = async <T>(failed: Result<T>): Promise<Result<T>> => {
      if (!failed.ok && failed.failure.gatewayCode === 'UNREACHABLE') await req.keep?.({ notSent: 'UNREACHABLE' });
      return failed;
    };

    if (source.type === 'stored_card') {
      // A triggered payment on the customer reference number: always a purchase.
      if (!req.capture) return unsupported(TYPE, 'authorise-only payments on stored cards');
      const paid = await periodic({ actionType: 'trigger', crn: source.providerToken, ...base, transactionReference: order }, declined);
      if (!paid.ok) return notPaid(paid);
      if (!paid.value.txnID) return fail('BAD_RESPONSE');
      return approved(req, { txnID: paid.value.txnID, ...base }, true);
    }

    const txnType = req.capture ? TXN_TYPE.payment : TXN_TYPE.preauthorise;
    const paid = await transact({ txnType, ...base, card: source.card }, declined);
    if (!paid.ok) return notPaid(paid);
    const { txnID, preauthID } = paid.value;
    if (!txnID || (!req.capture && !preauthID)) return fail('BAD_RESPONSE');
    return approved(req, { txnID, ...base, ...(!req.capture && { preauthID }) }, req.capture);
  }

  /** The NAB payment a providerChargeId names, or a failure for one this connector did not make. */
  function paymentOf(providerChargeId: string): Result<NabPayment> {
    const payment = readPaymentId(providerChargeId);
    return payment ? ok(payment) : fail('NOT_NAB_PAYMENT');
  }

  /** Reverses (txnType 6) a payment or pre-authorisation in full. */
  async function reversal(payment: NabPayment): Promise<Result<void>> {
    const { txnID, purchaseOrderNo: order, amount, currency } = payment;
    const reversed = await transact({ txnType: TXN_TYPE.reversal, txnID, purchaseOrderNo: order, amount, currency });
    return reversed.ok ? ok(undefined) : reversed;
  }

  async function checkCredentials(): Promise<CredentialCheck> {
    let answer: TextAnswer;
    try {
      answer = await post(paths.payment, echoMessage(envelope()));
    } catch (error) {
      return error instanceof HttpTimeoutError
        ? { ok: false, cause: 'timed_out', timeoutMs: config.timeoutMs }
        : { ok: false, cause: 'unreachable' };
    }
    try {
      const { statusCode } = readAnswer(answer.text);
      if (statusCode === '000') return { ok: true };
      return statusFailure(statusCode).category === 'credentials_refused'
        ? { ok: false, cause: 'refused', httpStatus: answer.status }
        : { ok: false, cause: 'answered', httpStatus: answer.status };
    } catch {
      return { ok: false, cause: 'answered', httpStatus: answer.status };
    }
  }

  return {
    authorise,

    capture: async (req) => {
      const payment = paymentOf(req.providerChargeId);
      if (!payment.ok) return payment;
      const { preauthID, purchaseOrderNo: order, currency } = payment.value;
      if (!preauthID) return fail('NOT_NAB_PAYMENT');
      const { amount } = req;
      const completed = await transact({ txnType: TXN_TYPE.complete, preauthID, purchaseOrderNo: order, amount, currency });
      if (!completed.ok) return completed;
      // The completion is a transaction of its own: refunds quote its txnID, not the pre-authorisation's.
      const { txnID } = completed.value;
      if (!txnID) return fail('BAD_RESPONSE');
      return ok({ amount, providerChargeId: paymentId({ txnID, purchaseOrderNo: order, amount, currency }) });
    },

    void: async (req) => {
      const payment = paymentOf(req.providerChargeId);
      if (!payment.ok) return payment;
      const reversed = await reversal(payment.value);
      return reversed.ok ? ok({}) : reversed;
    },

    refund: async (req) => {
      const payment = paymentOf(req.providerChargeId);
      if (!payment.ok) return payment;
      const { txnID, purchaseOrderNo: order, currency } = payment.value;
      const refunded = await transact({ txnType: TXN_TYPE.refund, txnID, purchaseOrderNo: order, amount: req.amount, currency });
      if (!refunded.ok) return refunded;
      return refunded.value.txnID ? ok({ providerRefundId: refunded.value.txnID }) : fail('BAD_RESPONSE');
    },

    reverse: async (req) => {
      const named = req.providerChargeId ?? req.providerData?.providerChargeId;
      // NAB declined it, or it was never sent: nothing to reverse.
      if (!named && (req.providerData?.declined !== undefined || req.providerData?.notSent !== undefined)) return ok(undefined);
      const payment = named ? readPaymentId(named) : undefined;
      // NAB has no call that finds a transaction by purchaseOrderNo: without its txnID, nobody can tell.
      return payment ? reversal(payment) : fail('OUTCOME_UNKNOWN');
    },

    checkCredentials,

    storeCard: async (req) => {
      if (req.source.type === 'single_use_token') return unsupported(TYPE, 'single-use tokens');
      const crn = customerReference(req.idempotencyKey);
      const stored = await periodic({ actionType: 'add', crn, card: req.source.card });
      return stored.ok ? ok({ providerToken: crn, card: summaryOf(req.source.card) }) : stored;
    },

    describeStoredCard: async () => unsupported(TYPE, 'describing a customer reference number it did not store'),
    updateStoredCard: async () => unsupported(TYPE, 'updating stored cards'),

    deleteStoredCard: async (req) => {
      const deleted = await periodic({ actionType: 'delete', crn: req.providerToken });
      return deleted.ok ? ok(undefined) : deleted;
    },

    authenticationResult: async () => unsupported(TYPE, '3-D Secure'),
    createNetworkToken: async () => unsupported(TYPE, 'network tokens'),
    debit: async () => unsupported(TYPE, 'bank account debits and PayTo'),
    paymentState: async () => unsupported(TYPE, 'bank account debits and PayTo'),
    createPayToAgreement: async () => unsupported(TYPE, 'PayTo'),
  };
}

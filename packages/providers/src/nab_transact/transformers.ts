import { createHash, randomBytes } from 'node:crypto';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { CardDetails } from '../connector.js';

/**
 * NAB Transact's XML messages (API `xml-4.2` for payments, `spxml-4.2` for the periodic API that
 * keeps cards), built and read with fast-xml-parser (no I/O here). The builder escapes every text
 * and attribute it writes; the parser reads every value as text (never as a number: "009887" stays
 * a transaction id), and an answer that declares a DOCTYPE (entities) is refused before parsing.
 */

export const PAYMENT_API_VERSION = 'xml-4.2';
export const PERIODIC_API_VERSION = 'spxml-4.2';

/** NAB's transaction types (`txnType`). */
export const TXN_TYPE = { payment: '0', refund: '4', reversal: '6', preauthorise: '10', complete: '11' } as const;
/** `txnSource` 23: a transaction sent over the XML API. */
const TXN_SOURCE = '23';
/** `periodicType`: 5 keeps a card under a customer reference number, 8 pays with one (triggered). */
export const PERIODIC_TYPE = { store: '5', trigger: '8' } as const;

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false });
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false });

type Element = { [name: string]: string | Element | undefined };

/** NAB's `messageTimestamp`: YYYYDDMMHHNNSSKKK000sOOO (day before month; KKK milliseconds; sOOO the offset in minutes), in UTC. */
export function messageTimestamp(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getUTCFullYear()}${two(at.getUTCDate())}${two(at.getUTCMonth() + 1)}` +
    `${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}${String(at.getUTCMilliseconds()).padStart(3, '0')}000+000`
  );
}

export interface Envelope {
  merchantId: string;
  password: string;
  /** Seconds NAB may take (its `timeoutValue`). */
  timeoutSeconds: number;
  now: Date;
}

function message(envelope: Envelope, apiVersion: string, requestType: 'Payment' | 'Periodic' | 'Echo', body: Element): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    NABTransactMessage: {
      MessageInfo: {
        // At most 30 characters, unique per message.
        messageID: randomBytes(15).toString('hex'),
        messageTimestamp: messageTimestamp(envelope.now),
        timeoutValue: String(envelope.timeoutSeconds),
        apiVersion,
      },
      MerchantInfo: { merchantID: envelope.merchantId, password: envelope.password },
      RequestType: requestType,
      ...body,
    },
  }) as string;
}

/** `expiryDate` as NAB takes it: MM/YY. */
const expiryOf = (card: CardDetails) => `${String(card.expiryMonth).padStart(2, '0')}/${String(card.expiryYear % 100).padStart(2, '0')}`;

function cardInfo(card: CardDetails): Element {
  return { cardNumber: card.number, expiryDate: expiryOf(card), ...(card.cvc !== undefined && { cvv: card.cvc }) };
}

/** One transaction of the payment API. */
export interface Txn {
  txnType: (typeof TXN_TYPE)[keyof typeof TXN_TYPE];
  /** NAB's minor units (cents). */
  amount: bigint;
  currency: string;
  purchaseOrderNo: string;
  txnID?: string;
  preauthID?: string;
  card?: CardDetails;
}

export function paymentMessage(envelope: Envelope, txn: Txn): string {
  const element: Element = {
    '@_ID': '1',
    txnType: txn.txnType,
    txnSource: TXN_SOURCE,
    amount: txn.amount.toString(),
    currency: txn.currency,
    purchaseOrderNo: txn.purchaseOrderNo,
    ...(txn.txnID !== undefined && { txnID: txn.txnID }),
    ...(txn.preauthID !== undefined && { preauthID: txn.preauthID }),
    ...(txn.card && { CreditCardInfo: cardInfo(txn.card) }),
  };
  return message(envelope, PAYMENT_API_VERSION, 'Payment', { Payment: { TxnList: { '@_count': '1', Txn: element } } });
}

/** An Echo message: NAB answers it with the message status alone (the credential check). */
export const echoMessage = (envelope: Envelope) => message(envelope, PAYMENT_API_VERSION, 'Echo', {});

/** One item of the periodic API: keep a card (add), forget it (delete), or pay with it (trigger). */
export type PeriodicAction =
  | { actionType: 'add'; crn: string; card: CardDetails }
  | { actionType: 'delete'; crn: string }
  | { actionType: 'trigger'; crn: string; amount: bigint; currency: string; transactionReference: string };

export function periodicMessage(envelope: Envelope, action: PeriodicAction): string {
  const item: Element = {
    '@_ID': '1',
    actionType: action.actionType,
    periodicType: action.actionType === 'trigger' ? PERIODIC_TYPE.trigger : PERIODIC_TYPE.store,
    crn: action.crn,
  };
  if (action.actionType === 'add') item.CreditCardInfo = cardInfo(action.card);
  if (action.actionType === 'trigger') {
    item.transactionReference = action.transactionReference;
    item.amount = action.amount.toString();
    item.currency = action.currency;
  }
  return message(envelope, PERIODIC_API_VERSION, 'Periodic', { Periodic: { PeriodicList: { '@_count': '1', PeriodicItem: item } } });
}

/** What the connector reads of an answer: the message status, and the one transaction or periodic item, as text. */
export interface NabAnswer {
  statusCode: string;
  /** The Txn (payment API) or PeriodicItem (periodic API) element's texts, by name; CreditCardInfo's under `card.`. */
  item?: Record<string, string>;
}

const isElement = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function texts(element: Record<string, unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, value] of Object.entries(element)) {
    if (typeof value === 'string') found[name] = value.trim();
    else if (name === 'CreditCardInfo' && isElement(value)) {
      for (const [inner, text] of Object.entries(value)) if (typeof text === 'string') found[`card.${inner}`] = text.trim();
    }
  }
  return found;
}

/** Reads an answer; throws (an unreadable answer) when it is not a NABTransactMessage with a status. */
export function readAnswer(xml: string): NabAnswer {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SyntaxError('An answer with a DOCTYPE is not NAB’s');
  const root = (parser.parse(xml) as Record<string, unknown>).NABTransactMessage;
  if (!isElement(root) || !isElement(root.Status)) throw new SyntaxError('Not a NABTransactMessage with a Status');
  const statusCode = root.Status.statusCode;
  if (typeof statusCode !== 'string') throw new SyntaxError('No statusCode');
  const list = isElement(root.Payment) ? root.Payment.TxnList : isElement(root.Periodic) ? root.Periodic.PeriodicList : undefined;
  const item = isElement(list) ? (list.Txn ?? list.PeriodicItem) : undefined;
  return { statusCode: statusCode.trim(), ...(isElement(item) && { item: texts(item) }) };
}

/** NAB's limit on `purchaseOrderNo` (and what it refuses in one: spaces and single quotes). */
const PURCHASE_ORDER_LENGTH = 60;

/**
 * The `purchaseOrderNo` of a call: the gateway's key itself when NAB takes it, else a digest of it.
 * Unique per attempt (the key is `<chargeId>:<attempt>`), it is what ties NAB's transaction to the
 * attempt: NAB has no idempotency key. Never contains `*`, which separates the parts of a charge id.
 */
export function purchaseOrderNo(idempotencyKey: string): string {
  if (idempotencyKey.length <= PURCHASE_ORDER_LENGTH && /^[A-Za-z0-9:._-]+$/.test(idempotencyKey)) return idempotencyKey;
  return `h${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40)}`;
}

/** A customer reference number (`crn`) the gateway chooses for a card it keeps at NAB: 20 characters derived from the call's key. */
export function customerReference(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 20).toUpperCase();
}

/**
 * A NAB payment as the gateway names it (`providerChargeId`): what a later completion, refund or
 * reversal must quote of it, `txnID*purchaseOrderNo*preauthID*amount*currency` (preauthID empty
 * for a purchase), as ActiveMerchant joins NAB's authorisation.
 */
export interface NabPayment {
  txnID: string;
  purchaseOrderNo: string;
  preauthID?: string;
  amount: bigint;
  currency: string;
}

export const paymentId = (p: NabPayment) => [p.txnID, p.purchaseOrderNo, p.preauthID ?? '', p.amount.toString(), p.currency].join('*');

/** A `providerChargeId` read back, or undefined when it is not one this connector made. */
export function readPaymentId(id: string): NabPayment | undefined {
  const [txnID, order, preauthID, amount, currency, ...rest] = id.split('*');
  if (rest.length > 0 || !txnID || !order || !amount || !/^\d+$/.test(amount) || !currency) return undefined;
  return { txnID, purchaseOrderNo: order, ...(preauthID && { preauthID }), amount: BigInt(amount), currency };
}

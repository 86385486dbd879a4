import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { z } from 'zod';
import { paymentRequest, periodicRequest } from './schema.js';

/**
 * A stateful fake of NAB Transact's XML API (xml-4.2, `/xmlapi/payment` and `/live/xmlapi/payment`)
 * and its periodic API (spxml-4.2, `/xmlapi/periodic`), for tests: what NAB documents of its test
 * system. The merchant id and password must be the fake's (status 504 and 550 otherwise). The cents
 * of a payment's amount choose its bank response code, as on NAB's test gateway: 00, 08, 11, 16 and
 * 77 approve, any other is that decline (10.51 is 51, insufficient funds). Pre-authorisations are
 * completed once (in part or in full), refunds are bounded by what is left (134), reversals undo a
 * payment or pre-authorisation in full; customer reference numbers keep cards for triggered payments.
 * Every request is checked against schema.ts (violations are recorded, never thrown); the journal
 * keeps messages as parsed, with every card number, CCV and password masked in the tree (never by a
 * pattern over the text, which odd formatting would slip past). A request can be made to go wrong
 * (`failNext`): never answered, its connection dropped, an error page, an answer that is not NAB's,
 * or NAB's refusal with a gateway response code (111, 112: the bank's answer lost).
 */
export interface FakeNabOptions {
  port?: number;
  merchantId: string;
  password: string;
}

export interface NabJournalEntry {
  path: string;
  /**
   * The message as parsed and written again, every card number (but its first 6 and last 4 when it
   * is 13 to 19 digits, else all of it), CCV and password masked; a message that is not well-formed
   * XML is not kept.
   */
  body: string;
  /** What was asked: txnType, periodic actionType, or Echo. */
  kind: string;
  /** The HTTP status answered: absent while the request hangs, 0 when its connection was closed without an answer. */
  status?: number;
}

export interface NabViolation {
  path: string;
  problems: string[];
}

/** A transaction NAB holds (a payment, a pre-authorisation or a triggered payment), in cents. */
export interface FakeNabTransaction {
  txnID: string;
  preauthID?: string;
  /** A completed pre-authorisation's completion: a transaction of its own. */
  completionTxnID?: string;
  purchaseOrderNo: string;
  currency: string;
  authorised: number;
  captured: number;
  refunded: number;
  reversed: boolean;
  /** Paid with a customer reference number (periodic trigger). */
  recurring: boolean;
  cvcSent: boolean;
}

/** What a fault matches: a txnType (`0`, `10`, `11`, `4`, `6`), a periodic action (`trigger`, `add`, `delete`), or `Echo`. */
export type NabCall = string;

/**
 * How a request goes wrong: never answered (`hang`), its connection closed without an answer
 * (`drop`), an HTML error page with an HTTP status (`http`), an answer that is not NAB's
 * (`unreadable`), or NAB's answer refusing it with a response code (`declined`: 111 and 112 are the
 * bank's answer lost), quoting the transaction the fake made when `withTxnID`, else txnID 000000.
 */
export type NabFault =
  | { kind: 'hang' }
  | { kind: 'drop' }
  | { kind: 'http'; status: number }
  | { kind: 'unreadable' }
  | { kind: 'declined'; responseCode: string; withTxnID?: boolean };

export interface FakeNab {
  /** The fake's origin (GATEWAY_PROVIDER_ENDPOINTS: nab_transact=<url>). */
  url: string;
  requests: NabJournalEntry[];
  violations: NabViolation[];
  transactions(): FakeNabTransaction[];
  /** Customer reference numbers holding a card. */
  storedCards(): string[];
  /** The next request of this kind (or of any of these kinds) is acted on (when `processed`, the default) and never answered. */
  hangNext(call: NabCall | readonly NabCall[], options?: { processed?: boolean }): void;
  /** The next request of this kind (or of any of these kinds) is acted on (when `processed`, the default) and answered with `fault`. */
  failNext(call: NabCall | readonly NabCall[], fault: NabFault, options?: { processed?: boolean }): void;
  close(): Promise<void>;
}

export const NAB_TEST_CARD = '4444333322221111';
const APPROVED = new Set(['00', '08', '11', '16', '77']);
const MAX_BODY_BYTES = 64 * 1024;
const PATHS = new Set(['/xmlapi/payment', '/live/xmlapi/payment', '/xmlapi/periodic']);

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false });
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_' });

/** Elements (and attributes) whose text is never kept whole, by local name (a namespace prefix or `@_` aside). */
const MASKED = new Set(['cardNumber', 'cvv', 'password']);
const localName = (name: string) => name.replace(/^@_/, '').split(':').pop() ?? name;

/** A card number keeps its first 6 and last 4 digits when it is one (13 to 19 digits); anything else, and any CCV or password, is `***`. */
function maskedText(name: string, value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : undefined;
  return name === 'cardNumber' && text !== undefined && /^\d{13,19}$/.test(text) ? `${text.slice(0, 6)}******${text.slice(-4)}` : '***';
}

/** The parsed tree with every masked element or attribute replaced whole (its attributes, children and repeats too). */
function maskedTree(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(maskedTree);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([name, value]) => {
      const local = localName(name);
      if (!MASKED.has(local)) return [name, maskedTree(value)];
      return [name, Array.isArray(value) ? value.map((one) => maskedText(local, one)) : maskedText(local, value)];
    }),
  );
}

const NOT_KEPT = '(not well-formed XML: not kept)';

/** A message (parsed: undefined when it is not well-formed) as the journal keeps it: masked in the tree, written again. */
const journalBody = (parsed: unknown) => (parsed === undefined ? NOT_KEPT : (builder.build(maskedTree(parsed)) as string));

/** Parses a message, checking that it is well-formed; undefined when it is not. */
function parsedMessage(xml: string): unknown {
  try {
    return parser.parse(xml, true) as unknown;
  } catch {
    return undefined;
  }
}

/** A message as the journal keeps it: parsed, masked in the tree, written again; one that is not well-formed is not kept. */
export const maskedMessage = (xml: string): string => journalBody(parsedMessage(xml));

/** The Txn fields of NAB's answer to a transaction (txnID 000000 unless given). */
const txnAnswer = (txn: Record<string, any>, approved: boolean, responseCode: string, extra: Fields = {}): Fields => ({
  txnType: txn.txnType,
  txnSource: '23',
  amount: txn.amount,
  currency: txn.currency ?? 'AUD',
  purchaseOrderNo: txn.purchaseOrderNo,
  approved: approved ? 'Yes' : 'No',
  responseCode,
  responseText: approved ? 'Approved' : 'Declined',
  settlementDate: '20261126',
  txnID: '000000',
  ...extra,
});

/** The PeriodicItem fields of NAB's answer to a periodic action. */
const periodicAnswer = (item: Record<string, any>, successful: boolean, responseCode: string, extra: Fields = {}): Fields => ({
  actionType: item.actionType,
  crn: item.crn,
  responseCode,
  responseText: successful ? 'Successful' : 'Unsuccessful',
  successful: successful ? 'yes' : 'no',
  ...extra,
});

/** NAB's refusal of what it answered `fields` for: not approved, with `responseCode`, quoting no transaction (000000) unless `withTxnID`. */
function refusal(
  fields: Fields,
  periodicItem: boolean,
  { responseCode, withTxnID = false }: { responseCode: string; withTxnID?: boolean },
): Fields {
  const { txnID, preauthID: _preauthID, ...rest } = fields;
  const quoted = withTxnID && typeof txnID === 'string' ? txnID : undefined;
  return periodicItem
    ? { ...rest, responseCode, responseText: 'Unsuccessful', successful: 'no', ...(quoted && { txnID: quoted }) }
    : { ...rest, approved: 'No', responseCode, responseText: 'Declined', txnID: quoted ?? '000000' };
}

/** What a message asks for: its txnType, periodic actionType, or RequestType (Echo); `unknown` when it says none. */
function kindOf(parsed: unknown): string {
  const message = (parsed as { NABTransactMessage?: Record<string, any> } | undefined)?.NABTransactMessage;
  const kind: unknown =
    message?.Payment?.TxnList?.Txn?.txnType ?? message?.Periodic?.PeriodicList?.PeriodicItem?.actionType ?? message?.RequestType;
  return typeof kind === 'string' ? kind : 'unknown';
}

const problemsOf = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

type Fields = Record<string, string | Record<string, string>>;

export async function startFakeNab(options: FakeNabOptions): Promise<FakeNab> {
  const requests: NabJournalEntry[] = [];
  const violations: NabViolation[] = [];
  const transactions: FakeNabTransaction[] = [];
  const cards = new Map<string, { number: string; expiryDate: string }>();
  const faults: Array<{ calls: readonly NabCall[]; fault: NabFault; processed: boolean }> = [];
  const sockets = new Set<Socket>();
  let nextId = 100_000;

  const newId = () => String(++nextId);
  const maskedPan = (number: string) => `${number.slice(0, 6)}...${number.slice(-3)}`;

  /** The bank response code NAB's test system gives an amount: its cents. */
  const bankCode = (cents: string) => cents.padStart(2, '0').slice(-2);

  function answer(requestType: string, statusCode: string, body: Record<string, unknown> = {}): string {
    return builder.build({
      '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8', '@_standalone': 'no' },
      NABTransactMessage: {
        MessageInfo: { messageID: 'fake', messageTimestamp: '20261126120000000000+600', apiVersion: 'xml-4.2' },
        RequestType: requestType,
        MerchantInfo: { merchantID: options.merchantId },
        Status: { statusCode, statusDescription: statusCode === '000' ? 'Normal' : 'Refused' },
        ...body,
      },
    }) as string;
  }

  const expired = (expiryDate: string, now = new Date()) => {
    const [month, year] = expiryDate.split('/').map(Number) as [number, number];
    return 2000 + year < now.getUTCFullYear() || (2000 + year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
  };

  /** One payment-API transaction, acted on: its answer's Txn fields. */
  function transact(txn: Record<string, any>): Fields {
    const cents = Number(txn.amount);
    const find = (id: string | undefined) => transactions.find((t) => t.txnID === id && t.purchaseOrderNo === txn.purchaseOrderNo);
    // What a refund quotes: a purchase's txnID, or a completed pre-authorisation's completion (never the pre-authorisation's own).
    const refundable = (id: string | undefined) =>
      transactions.find(
        (t) => t.purchaseOrderNo === txn.purchaseOrderNo && (t.preauthID === undefined ? t.txnID === id : t.completionTxnID === id),
      );
    const result = (approved: boolean, responseCode: string, extra: Fields = {}) => txnAnswer(txn, approved, responseCode, extra);
    switch (txn.txnType) {
      case '0':
      case '10': {
        const card = txn.CreditCardInfo as { cardNumber: string; expiryDate: string; cvv?: string };
        const code = expired(card.expiryDate) ? '54' : bankCode(txn.amount);
        const info = { pan: maskedPan(card.cardNumber), expiryDate: card.expiryDate, cardType: '6', cardDescription: 'Visa' };
        if (!APPROVED.has(code)) return result(false, code, { CreditCardInfo: info });
        const txnID = newId();
        const preauth = txn.txnType === '10';
        transactions.push({
          txnID,
          ...(preauth && { preauthID: txnID }),
          purchaseOrderNo: txn.purchaseOrderNo,
          currency: txn.currency ?? 'AUD',
          authorised: cents,
          captured: preauth ? 0 : cents,
          refunded: 0,
          reversed: false,
          recurring: false,
          cvcSent: card.cvv !== undefined,
        });
        return result(true, code, { txnID, ...(preauth && { preauthID: txnID }), CreditCardInfo: info });
      }
      case '11': {
        const preauth = transactions.find((t) => t.preauthID === txn.preauthID && t.purchaseOrderNo === txn.purchaseOrderNo);
        if (!preauth) return result(false, '133');
        if (preauth.reversed || preauth.captured > 0 || cents > preauth.authorised) return result(false, '126');
        preauth.captured = cents;
        // A completion is a transaction of its own, with its own txnID: refunds quote it.
        preauth.completionTxnID = newId();
        return result(true, '00', { txnID: preauth.completionTxnID, preauthID: preauth.preauthID! });
      }
      case '4': {
        const original = refundable(txn.txnID);
        if (!original) return result(false, '133');
        if (original.reversed || original.refunded + cents > original.captured) return result(false, '134');
        original.refunded += cents;
        return result(true, '00', { txnID: newId() });
      }
      case '6': {
        const original = find(txn.txnID);
        if (!original) return result(false, '133');
        if (original.reversed || original.refunded > 0) return result(false, '137');
        original.reversed = true;
        return result(true, '00', { txnID: newId() });
      }
      default:
        return result(false, '126');
    }
  }

  function periodic(item: Record<string, any>): Fields {
    const reply = (successful: boolean, responseCode: string, extra: Fields = {}) => periodicAnswer(item, successful, responseCode, extra);
    const card = cards.get(item.crn);
    if (item.actionType === 'add') {
      if (card) return reply(false, '346');
      const { cardNumber, expiryDate } = item.CreditCardInfo as { cardNumber: string; expiryDate: string };
      cards.set(item.crn, { number: cardNumber, expiryDate });
      return reply(true, '00', { CreditCardInfo: { pan: maskedPan(cardNumber), expiryDate } });
    }
    if (!card) return reply(false, '133');
    if (item.actionType === 'delete') {
      cards.delete(item.crn);
      return reply(true, '00');
    }
    const code = expired(card.expiryDate) ? '54' : bankCode(item.amount);
    if (!APPROVED.has(code)) return reply(false, code, { amount: item.amount });
    const txnID = newId();
    transactions.push({
      txnID,
      purchaseOrderNo: item.transactionReference,
      currency: item.currency ?? 'AUD',
      authorised: Number(item.amount),
      captured: Number(item.amount),
      refunded: 0,
      reversed: false,
      recurring: true,
      cvcSent: false,
    });
    return reply(true, code, { txnID, amount: item.amount, settlementDate: '20261126' });
  }

  /**
   * A well-formed message, checked and (when `act`) acted on: NAB's answer to it, or its refusal
   * with a response code (`refuse`) of what it did or, when it did nothing, of the request.
   */
  function handle(path: string, parsed: unknown, act: boolean, refuse?: { responseCode: string; withTxnID?: boolean }): string {
    const periodicPath = path === '/xmlapi/periodic';
    const checked = (periodicPath ? periodicRequest : paymentRequest).safeParse(parsed);
    if (!checked.success) violations.push({ path, problems: problemsOf(checked.error) });
    const message = (parsed as { NABTransactMessage?: Record<string, any> }).NABTransactMessage ?? {};
    const requestType = String(message.RequestType ?? 'Payment');
    const merchant = message.MerchantInfo ?? {};
    if (merchant.merchantID !== options.merchantId) return answer(requestType, '504');
    if (merchant.password !== options.password) return answer(requestType, '550');
    if (!checked.success) return answer(requestType, '517');
    if (requestType === 'Echo') return answer('Echo', '000');
    const refused = (fields: Fields) => (refuse ? refusal(fields, periodicPath, refuse) : fields);
    if (periodicPath) {
      const item = message.Periodic.PeriodicList.PeriodicItem;
      const fields = refused(act ? periodic(item) : periodicAnswer(item, false, refuse?.responseCode ?? ''));
      return answer('Periodic', '000', { Periodic: { PeriodicList: { '@_count': '1', PeriodicItem: { '@_ID': '1', ...fields } } } });
    }
    const txn = message.Payment.TxnList.Txn;
    const fields = refused(act ? transact(txn) : txnAnswer(txn, false, refuse?.responseCode ?? ''));
    return answer('Payment', '000', { Payment: { TxnList: { '@_count': '1', Txn: { '@_ID': '1', ...fields } } } });
  }

  /** Takes the fault set for the next request of this kind, if any. */
  function faultFor(kind: string): (typeof faults)[number] | undefined {
    const index = faults.findIndex((f) => f.calls.includes(kind));
    return index < 0 ? undefined : faults.splice(index, 1)[0];
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      // Parsed once: what is kept (masked in the tree), what is asked, and what is done all come from the tree.
      const parsed = parsedMessage(Buffer.concat(chunks).toString('utf8'));
      const entry: NabJournalEntry = { path, body: journalBody(parsed), kind: kindOf(parsed) };
      requests.push(entry);
      const send = (status: number, contentType: string, body: string) => {
        entry.status = status;
        res.writeHead(status, { 'content-type': contentType }).end(body);
      };
      if (!PATHS.has(path)) {
        violations.push({ path, problems: ['not an address of NAB Transact'] });
        send(404, 'text/html', '<html><body>Not Found</body></html>');
        return;
      }
      if (req.method !== 'POST' || !/^text\/xml\b/.test(req.headers['content-type'] ?? '')) {
        violations.push({ path, problems: ['NAB takes POST with Content-Type text/xml'] });
      }
      if (parsed === undefined) {
        violations.push({ path, problems: ['not well-formed XML'] });
        send(200, 'text/xml;charset=UTF-8', answer('Payment', '517'));
        return;
      }
      const taken = faultFor(entry.kind);
      if (taken?.fault.kind === 'declined') {
        send(200, 'text/xml;charset=UTF-8', handle(path, parsed, taken.processed, taken.fault));
        return;
      }
      if (taken) {
        const { fault, processed } = taken;
        if (processed) handle(path, parsed, true);
        if (fault.kind === 'hang') return; // never answered
        if (fault.kind === 'drop') {
          entry.status = 0;
          req.socket.destroy();
        } else if (fault.kind === 'http') send(fault.status, 'text/html', `<html><body>Error ${fault.status}</body></html>`);
        else send(200, 'text/xml;charset=UTF-8', '<html><body>Service temporarily unavailable</body></html>');
        return;
      }
      send(200, 'text/xml;charset=UTF-8', handle(path, parsed, true));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function failNext(call: NabCall | readonly NabCall[], fault: NabFault, { processed = true } = {}) {
    faults.push({ calls: typeof call === 'string' ? [call] : call, fault, processed });
  }

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    transactions: () => transactions.map((t) => ({ ...t })),
    storedCards: () => [...cards.keys()],
    failNext,
    hangNext: (call, options) => failNext(call, { kind: 'hang' }, options),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

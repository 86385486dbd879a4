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
 * keeps messages with the card number, CCV and password masked.
 */
export interface FakeNabOptions {
  port?: number;
  merchantId: string;
  password: string;
}

export interface NabJournalEntry {
  path: string;
  /** The message as received, card number (but its first 6 and last 4), CCV and password masked. */
  body: string;
  /** What was asked: txnType, periodic actionType, or Echo. */
  kind: string;
  /** Absent while the request hangs. */
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

/** What a hang matches: a txnType (`0`, `10`, `11`, `4`, `6`) or a periodic action (`trigger`, `add`, `delete`). */
export type NabCall = string;

export interface FakeNab {
  /** The fake's origin (GATEWAY_PROVIDER_ENDPOINTS: nab_transact=<url>). */
  url: string;
  requests: NabJournalEntry[];
  violations: NabViolation[];
  transactions(): FakeNabTransaction[];
  /** Customer reference numbers holding a card. */
  storedCards(): string[];
  /** The next request of this kind is acted on (when `processed`) and never answered. */
  hangNext(call: NabCall, options?: { processed?: boolean }): void;
  close(): Promise<void>;
}

export const NAB_TEST_CARD = '4444333322221111';
const APPROVED = new Set(['00', '08', '11', '16', '77']);
const MAX_BODY_BYTES = 64 * 1024;
const PATHS = new Set(['/xmlapi/payment', '/live/xmlapi/payment', '/xmlapi/periodic']);

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false });
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_' });

export function maskedMessage(xml: string): string {
  return xml
    .replace(/<cardNumber>(\d{6})\d*(\d{4})<\/cardNumber>/g, '<cardNumber>$1******$2</cardNumber>')
    .replace(/<cvv>[^<]*<\/cvv>/g, '<cvv>***</cvv>')
    .replace(/<password>[^<]*<\/password>/g, '<password>***</password>');
}

const problemsOf = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

type Fields = Record<string, string | Record<string, string>>;

export async function startFakeNab(options: FakeNabOptions): Promise<FakeNab> {
  const requests: NabJournalEntry[] = [];
  const violations: NabViolation[] = [];
  const transactions: FakeNabTransaction[] = [];
  const cards = new Map<string, { number: string; expiryDate: string }>();
  const hangs: Array<{ call: NabCall; processed: boolean }> = [];
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
    const result = (approved: boolean, responseCode: string, extra: Fields = {}): Fields => ({
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
        return result(true, '00', { txnID: preauth.txnID, preauthID: preauth.preauthID! });
      }
      case '4': {
        const original = find(txn.txnID);
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
    const reply = (successful: boolean, responseCode: string, extra: Fields = {}): Fields => ({
      actionType: item.actionType,
      crn: item.crn,
      responseCode,
      responseText: successful ? 'Successful' : 'Unsuccessful',
      successful: successful ? 'yes' : 'no',
      ...extra,
    });
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

  function handle(path: string, xml: string): { kind: string; body: string } {
    const periodicPath = path === '/xmlapi/periodic';
    let parsed: unknown;
    try {
      parsed = parser.parse(xml, true);
    } catch {
      violations.push({ path, problems: ['not well-formed XML'] });
      return { kind: 'unknown', body: answer('Payment', '517') };
    }
    const checked = (periodicPath ? periodicRequest : paymentRequest).safeParse(parsed);
    if (!checked.success) violations.push({ path, problems: problemsOf(checked.error) });
    const message = (parsed as { NABTransactMessage?: Record<string, any> }).NABTransactMessage ?? {};
    const requestType = String(message.RequestType ?? 'Payment');
    const merchant = message.MerchantInfo ?? {};
    if (merchant.merchantID !== options.merchantId) return { kind: requestType, body: answer(requestType, '504') };
    if (merchant.password !== options.password) return { kind: requestType, body: answer(requestType, '550') };
    if (!checked.success) return { kind: requestType, body: answer(requestType, '517') };
    if (requestType === 'Echo') return { kind: 'Echo', body: answer('Echo', '000') };
    if (periodicPath) {
      const item = message.Periodic.PeriodicList.PeriodicItem;
      const fields = periodic(item);
      return {
        kind: item.actionType,
        body: answer('Periodic', '000', { Periodic: { PeriodicList: { '@_count': '1', PeriodicItem: { '@_ID': '1', ...fields } } } }),
      };
    }
    const txn = message.Payment.TxnList.Txn;
    const fields = transact(txn);
    return {
      kind: String(txn.txnType),
      body: answer('Payment', '000', { Payment: { TxnList: { '@_count': '1', Txn: { '@_ID': '1', ...fields } } } }),
    };
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
      const xml = Buffer.concat(chunks).toString('utf8');
      const entry: NabJournalEntry = { path, body: maskedMessage(xml), kind: 'unknown' };
      requests.push(entry);
      if (!PATHS.has(path)) {
        violations.push({ path, problems: ['not an address of NAB Transact'] });
        entry.status = 404;
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
        return;
      }
      if (req.method !== 'POST' || !/^text\/xml\b/.test(req.headers['content-type'] ?? '')) {
        violations.push({ path, problems: ['NAB takes POST with Content-Type text/xml'] });
      }
      const kindOf = () => {
        const match = /<txnType>(\d+)<\/txnType>|<actionType>(\w+)<\/actionType>/.exec(xml);
        return match?.[1] ?? match?.[2] ?? 'Echo';
      };
      const hang = hangs.findIndex((h) => h.call === kindOf());
      if (hang >= 0) {
        const [taken] = hangs.splice(hang, 1);
        entry.kind = kindOf();
        if (taken?.processed) handle(path, xml);
        return; // never answered
      }
      const { kind, body } = handle(path, xml);
      entry.kind = kind;
      entry.status = 200;
      res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' }).end(body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    transactions: () => transactions.map((t) => ({ ...t })),
    storedCards: () => [...cards.keys()],
    hangNext: (call, { processed = true } = {}) => void hangs.push({ call, processed }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

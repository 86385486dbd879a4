import { z } from 'zod';

/**
 * NAB Transact's requests as its XML API guide documents them (xml-4.2: MessageInfo, MerchantInfo,
 * RequestType, Payment/TxnList/Txn with the elements each txnType requires; spxml-4.2: the periodic
 * API's PeriodicList/PeriodicItem), read as fast-xml-parser reads them (every value text,
 * attributes prefixed `@_`). NAB publishes no machine-readable description: this is written from
 * its guide and ActiveMerchant's transcripts, and docs/providers/nab_transact.md lists what it
 * covers. Objects are strict: an element NAB does not document is a violation.
 */

const text = (pattern: RegExp, what: string) => z.string().regex(pattern, what);

const messageInfo = (apiVersion: string) =>
  z.strictObject({
    messageID: text(/^[\x21-\x7e]{1,30}$/, 'messageID: 1 to 30 characters'),
    messageTimestamp: text(
      /^\d{4}(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])([01]\d|2[0-3])[0-5]\d[0-5]\d\d{3}000[+-]\d{3}$/,
      'messageTimestamp: YYYYDDMMHHNNSSKKK000sOOO',
    ),
    timeoutValue: text(/^\d{1,3}$/, 'timeoutValue: seconds, up to 3 digits'),
    apiVersion: z.literal(apiVersion),
  });

const merchantInfo = z.strictObject({
  merchantID: text(/^[A-Z]{3}\d{4}(\d{2})?$/, 'merchantID: three letters and four digits, or with a two-digit suffix'),
  password: z.string().min(1).max(40),
});

const creditCardInfo = z.strictObject({
  cardNumber: text(/^\d{13,19}$/, 'cardNumber: 13 to 19 digits'),
  expiryDate: text(/^(0[1-9]|1[0-2])\/\d{2}$/, 'expiryDate: MM/YY'),
  cvv: text(/^\d{3,4}$/, 'cvv: 3 or 4 digits').optional(),
});

const amount = text(/^[1-9]\d{0,11}$/, 'amount: a positive integer in cents');
const currency = text(/^[A-Z]{3}$/, 'currency: an ISO 4217 code');
const purchaseOrderNo = text(/^[^ '\s]{1,60}$/, 'purchaseOrderNo: 1 to 60 characters, no spaces or single quotes');
const transactionId = text(/^\w{1,16}$/, 'an id NAB gave');

/** txnType → the elements NAB requires for it (the guide's "Transaction Type Required Element Map"). */
const REQUIRED: Record<string, readonly string[]> = {
  '0': ['CreditCardInfo'],
  '10': ['CreditCardInfo'],
  '11': ['preauthID'],
  '4': ['txnID'],
  '6': ['txnID'],
};

const txn = z
  .strictObject({
    '@_ID': z.literal('1'),
    txnType: z.enum(['0', '4', '6', '10', '11']),
    txnSource: z.literal('23'),
    amount,
    currency: currency.optional(),
    purchaseOrderNo,
    txnID: transactionId.optional(),
    preauthID: transactionId.optional(),
    CreditCardInfo: creditCardInfo.optional(),
  })
  .superRefine((t, ctx) => {
    for (const name of REQUIRED[t.txnType] ?? []) {
      if (t[name as keyof typeof t] === undefined) ctx.addIssue({ code: 'custom', message: `txnType ${t.txnType} requires ${name}` });
    }
  });

const envelope = { MerchantInfo: merchantInfo };

export const paymentRequest = z.strictObject({
  '?xml': z.unknown().optional(),
  NABTransactMessage: z.union([
    z.strictObject({
      MessageInfo: messageInfo('xml-4.2'),
      ...envelope,
      RequestType: z.literal('Payment'),
      Payment: z.strictObject({ TxnList: z.strictObject({ '@_count': z.literal('1'), Txn: txn }) }),
    }),
    z.strictObject({ MessageInfo: messageInfo('xml-4.2'), ...envelope, RequestType: z.literal('Echo') }),
  ]),
});

const crn = text(/^[A-Za-z0-9]{1,20}$/, 'crn: 1 to 20 letters or digits');

const periodicItem = z.discriminatedUnion('actionType', [
  z.strictObject({
    '@_ID': z.literal('1'),
    actionType: z.literal('add'),
    periodicType: z.literal('5'),
    crn,
    CreditCardInfo: creditCardInfo,
  }),
  z.strictObject({ '@_ID': z.literal('1'), actionType: z.literal('delete'), periodicType: z.literal('5'), crn }),
  z.strictObject({
    '@_ID': z.literal('1'),
    actionType: z.literal('trigger'),
    periodicType: z.literal('8'),
    crn,
    transactionReference: purchaseOrderNo,
    amount,
    currency: currency.optional(),
  }),
]);

export const periodicRequest = z.strictObject({
  '?xml': z.unknown().optional(),
  NABTransactMessage: z.strictObject({
    MessageInfo: messageInfo('spxml-4.2'),
    ...envelope,
    RequestType: z.literal('Periodic'),
    Periodic: z.strictObject({ PeriodicList: z.strictObject({ '@_count': z.literal('1'), PeriodicItem: periodicItem }) }),
  }),
});

export type PaymentRequest = z.infer<typeof paymentRequest>;
export type PeriodicRequest = z.infer<typeof periodicRequest>;

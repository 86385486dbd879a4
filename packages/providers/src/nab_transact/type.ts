import { CARD_OPERATIONS, readParameters, type Environment, type ProviderType } from '../provider-type.js';
import { createNabConnector } from './connector.js';
import { nabCurrencies, toNabAmount } from './currencies.js';
import { paymentId, purchaseOrderNo, readPaymentId } from './transformers.js';

/** NAB's merchant id: three letters and four digits (XYZ0010), or with a two-digit suffix. */
const MERCHANT_ID = /^[A-Z]{3}\d{4}(\d{2})?$/;

const PARAMETERS = [
  {
    name: 'MerchantId',
    required: true,
    secret: false,
    description: 'NAB Transact merchant id: three letters and four digits (e.g. XYZ0010), or with a two-digit suffix',
  },
  { name: 'Password', required: true, secret: true, description: 'The transaction password of the NAB Transact merchant id' },
] as const;

/** What each parameter must look like. Creating a provider never calls NAB: the dashboard's "check credentials" does. */
function problemOf(name: string, value: string): string | undefined {
  if (name === 'MerchantId')
    return MERCHANT_ID.test(value)
      ? undefined
      : 'MerchantId must be three letters and four digits (e.g. XYZ0010), or with a two-digit suffix';
  // Sent inside the XML message (escaped); held to printable characters so that nothing can be hidden in it.
  return /^[\x20-\x7e]{1,40}$/.test(value) ? undefined : 'Password must be 1 to 40 printable characters';
}

/** NAB's hosts; the connector adds each API's path (connector.ts, nabPaths). */
const endpoint = (environment: Environment) =>
  environment === 'PRODUCTION' ? 'https://transact.nab.com.au' : 'https://demo.transact.nab.com.au';

/** NAB Transact (XML API xml-4.2, periodic API spxml-4.2): cards, pre-authorisations, stored cards (customer reference numbers). */
export const NAB_TRANSACT: ProviderType = {
  type: 'nab_transact',
  displayName: 'NAB Transact',
  parameters: PARAMETERS,
  checkParameters: (parameters, environment) =>
    readParameters(PARAMETERS, Object.fromEntries(Object.entries(parameters).map(([n, v]) => [n, v.trim()])), environment, problemOf),
  // AUD, and what the operator allows (GATEWAY_NAB_TRANSACT_CURRENCIES), read when asked.
  get currencies() {
    return nabCurrencies();
  },
  providerAmount: toNabAmount,
  // NAB's periodic API keeps and forgets cards and pays with them: it cannot describe or update one,
  // take a token made elsewhere, or authorise only on one.
  operations: new Set(
    CARD_OPERATIONS.filter((op) => !['describeStoredCard', 'updateStoredCard', 'singleUseToken', 'multiUseToken'].includes(op)),
  ),
  endpoint,
  // NAB has no idempotency key: the gateway never sends a call again, and staff look one up by its purchase order number.
  noIdempotency: {
    lookupReference: ({ idempotencyKey, providerChargeId }) =>
      (providerChargeId && readPaymentId(providerChargeId)?.purchaseOrderNo) || purchaseOrderNo(idempotencyKey),
    // A pre-authorisation is completed by its preauthID, which NAB shows beside its txnID.
    paymentFound: ({ idempotencyKey, amount, currency, capture, transactionId, authorisationId, completes }) => {
      const nabAmount = toNabAmount(currency, amount);
      if (nabAmount === undefined || (!capture && !authorisationId)) return undefined;
      // A completion quotes the pre-authorisation's purchase order number.
      const order = (completes && readPaymentId(completes)?.purchaseOrderNo) || purchaseOrderNo(idempotencyKey);
      return paymentId({
        txnID: transactionId,
        purchaseOrderNo: order,
        amount: nabAmount,
        currency,
        ...(!capture && { preauthID: authorisationId }),
      });
    },
    // What the connector kept of an approval (connector.ts `approved`), not of a 111/112 it may reverse.
    approvedIn: (kept) => (kept.approved === 'yes' ? kept.providerChargeId : undefined),
  },
  connector: ({ baseUrl, timeoutMs, environment, parameters, now }) =>
    createNabConnector({
      baseUrl,
      timeoutMs,
      environment,
      merchantId: parameters.MerchantId ?? '',
      password: parameters.Password ?? '',
      ...(now && { now }),
    }),
};

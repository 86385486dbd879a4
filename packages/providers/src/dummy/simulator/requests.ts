/**
 * The simulated acquirer's request bodies, read into what the ledger takes. The wire format is the
 * connector's request (connector.ts) without the idempotency key, money as decimal strings.
 */
import type {
  AuthoriseRequest,
  CardDetails,
  DebitRequest,
  ExternalThreeDs,
  PaymentSource,
  PayToAgreementRequest,
  ProviderConnector,
  StoreCardRequest,
} from '../../connector.js';
import { boolean, card, CVC, expiryMonth, expiryYear, FormatError, minorUnits, object, optional, text } from './fields.js';
import { applePay } from './wallet.js';

/** A payment source as read: a wallet's payment data decoded into card details. */
export type SourceInput =
  | Exclude<PaymentSource, { type: 'wallet' }>
  | { type: 'wallet'; wallet: 'apple_pay'; card: CardDetails; transactionId: string };

export interface AuthoriseInput extends Omit<AuthoriseRequest, 'idempotencyKey' | 'source' | 'recurring' | 'authentication' | 'keep'> {
  source: SourceInput;
  recurring: boolean;
  /** The payer can be sent to the issuer's challenge page, and back to `returnUrl`. */
  authentication?: { returnUrl: string; merchantName: string };
}

/** What the payer pressed on the issuer's challenge page. */
export type ChallengeAction = 'complete' | 'fail' | 'cancel';

export type StoreCardInput = StoreCardRequest['source'];
export type CardChanges = Omit<Parameters<ProviderConnector['updateStoredCard']>[0], 'providerToken'>;
export type DebitInput = Omit<DebitRequest, 'idempotencyKey'>;
export type AgreementInput = Omit<PayToAgreementRequest, 'idempotencyKey'>;

type Body = Record<string, unknown>;

const CURRENCY = /^[A-Z]{3}$/;

export function readAuthorise(body: Body): AuthoriseInput {
  const amount = minorUnits(body.amount, 'amount', { allowZero: true });
  const capture = boolean(body.capture, 'capture');
  if (amount === 0n && capture) throw new FormatError('amount must be positive to capture');
  return {
    amount,
    currency: text(body.currency, 'currency', CURRENCY),
    capture,
    recurring: optional(body.recurring, (v) => boolean(v, 'recurring')) ?? false,
    source: readSource(object(body.source, 'source')),
    reference: optional(body.reference, (v) => text(v, 'reference')),
    descriptor: optional(body.descriptor, (v) => text(v, 'descriptor')),
    authentication: optional(body.authentication, (v) => readAuthentication(object(v, 'authentication'))),
    externalThreeDs: optional(body.externalThreeDs, (v) => readExternalThreeDs(object(v, 'externalThreeDs'))),
  };
}

function readAuthentication(authentication: Body): NonNullable<AuthoriseInput['authentication']> {
  return {
    returnUrl: text(authentication.returnUrl, 'authentication.returnUrl', /^https?:\/\/\S{1,2040}$/),
    merchantName: text(authentication.merchantName, 'authentication.merchantName'),
  };
}

function readExternalThreeDs(data: Body): ExternalThreeDs {
  return {
    eci: text(data.eci, 'externalThreeDs.eci', /^\d{2}$/),
    authenticationValue: text(data.authenticationValue, 'externalThreeDs.authenticationValue'),
    dsTransID: text(data.dsTransID, 'externalThreeDs.dsTransID'),
    threeDsVersion: text(data.threeDsVersion, 'externalThreeDs.threeDsVersion', /^2\.\d\.\d$/),
    transStatus: optional(data.transStatus, (v) => text(v, 'externalThreeDs.transStatus', /^[YANRU]$/) as ExternalThreeDs['transStatus']),
  };
}

export function readChallengeAction(body: Body): ChallengeAction {
  return text(body.action, 'action', /^(complete|fail|cancel)$/) as ChallengeAction;
}

function readSource(source: Body): SourceInput {
  switch (source.type) {
    case 'card':
      return { type: 'card', card: card(source.card, 'source.card') };
    case 'stored_card':
      return {
        type: 'stored_card',
        providerToken: text(source.providerToken, 'source.providerToken'),
        cvc: optional(source.cvc, (v) => text(v, 'source.cvc', CVC)),
      };
    case 'network_token':
      return { type: 'network_token', networkTokenId: text(source.networkTokenId, 'source.networkTokenId') };
    case 'wallet':
      text(source.wallet, 'source.wallet', /^apple_pay$/);
      return { type: 'wallet', wallet: 'apple_pay', ...applePay(source.paymentData, 'source.paymentData') };
    default:
      throw new FormatError('source.type is missing or malformed');
  }
}

export function readStoreCard(body: Body): StoreCardInput {
  const source = object(body.source, 'source');
  if (source.type === 'card') return { type: 'card', card: card(source.card, 'source.card') };
  if (source.type === 'single_use_token') return { type: 'single_use_token', token: text(source.token, 'source.token') };
  throw new FormatError('source.type is missing or malformed');
}

export function readCard(body: Body): CardDetails {
  return card(body.card, 'card');
}

export function readCardChanges(body: Body): CardChanges {
  return {
    expiryMonth: optional(body.expiryMonth, (v) => expiryMonth(v, 'expiryMonth')),
    expiryYear: optional(body.expiryYear, (v) => expiryYear(v, 'expiryYear')),
    cardholder: optional(body.cardholder, (v) => text(v, 'cardholder')),
  };
}

export function readDebit(body: Body): DebitInput {
  return {
    amount: minorUnits(body.amount, 'amount'),
    currency: text(body.currency, 'currency', CURRENCY),
    account: readAccount(object(body.account, 'account')),
    reference: optional(body.reference, (v) => text(v, 'reference')),
  };
}

function readAccount(account: Body): DebitInput['account'] {
  if (account.type === 'payto') return { type: 'payto', agreementId: text(account.agreementId, 'account.agreementId') };
  if (account.type !== 'bank_account') throw new FormatError('account.type is missing or malformed');
  return {
    type: 'bank_account',
    bankCode: text(account.bankCode, 'account.bankCode'),
    accountNumber: text(account.accountNumber, 'account.accountNumber', /^[0-9A-Z]{4,34}$/),
    accountName: text(account.accountName, 'account.accountName'),
  };
}

export function readAgreement(body: Body): AgreementInput {
  return {
    payerName: text(body.payerName, 'payerName'),
    payId: text(body.payId, 'payId'),
    payIdType: text(body.payIdType, 'payIdType'),
    description: text(body.description, 'description'),
    maximumAmount: minorUnits(body.maximumAmount, 'maximumAmount'),
    currency: text(body.currency, 'currency', CURRENCY),
  };
}

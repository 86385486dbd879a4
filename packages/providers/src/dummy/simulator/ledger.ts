import { randomUUID } from 'node:crypto';
import { isExpired } from '@gateway/core';
import { externalTransStatus, type DebitAccount, type PaymentState, type ThreeDsOutcome } from '../../connector.js';
import type { Journal, Table } from './journal.js';
import { Operations, type LedgerOperation, type OperationKind, type Outcome } from './operations.js';
import type { AgreementInput, AuthoriseInput, ChallengeAction, DebitInput, SourceInput } from './requests.js';
import { errorBody, type ResponseCode } from './response-codes.js';
import { bankAccountOutcome, DECLINED_PAY_ID } from './test-accounts.js';
import type { CardBehaviour, ThreeDsBehaviour } from './test-cards.js';
import { Vault, withoutCardData } from './vault.js';

/**
 * 'authorised' and 'captured' authorisations are live (hold or moved money); the others are not:
 * 'authenticating' waits for the payer's 3-D Secure challenge, 'failed' failed it (or was declined after it).
 */
export type AuthorisationStatus = 'authorised' | 'captured' | 'voided' | 'reversed' | 'authenticating' | 'failed';

export interface LedgerAuthorisation {
  type: 'authorisation';
  id: string;
  idempotencyKey: string;
  source: SourceInput['type'];
  recurring: boolean;
  status: AuthorisationStatus;
  currency: string;
  /** Authorised amount, in minor units; 0 for a card verification. */
  amount: bigint;
  captured: bigint;
  refunded: bigint;
  cardLast4: string;
  reference: string | undefined;
  descriptor: string | undefined;
  /** How the payer was authenticated (3-D Secure), when it was. */
  threeDs?: ThreeDsOutcome;
  /** Why a 'failed' authorisation failed. */
  failureCode?: ResponseCode;
}

/** A 3-D Secure challenge waiting for the payer, on the issuer's page (served by the gateway: issuer-page.ts). */
interface Challenge {
  id: string;
  paymentId: string;
  returnUrl: string;
  merchantName: string;
  behaviour: ThreeDsBehaviour;
  /** What the issuer answers once the payer is authenticated. */
  approvalCode: ResponseCode;
  /** Whether the approved payment is captured at once (a sale). */
  capture: boolean;
  state: 'waiting' | 'completed' | 'failed' | 'cancelled';
}

const THREE_DS_VERSION = '2.2.0';
const authenticated = (flow: 'challenge' | 'frictionless'): ThreeDsOutcome => ({
  flow,
  transStatus: 'Y',
  eci: '05',
  version: THREE_DS_VERSION,
  liabilityShift: true,
});
const NOT_AUTHENTICATED: ThreeDsOutcome = {
  flow: 'challenge',
  transStatus: 'N',
  eci: '07',
  version: THREE_DS_VERSION,
  liabilityShift: false,
};

/** What 3-D Secure makes of a payment before the issuer decides: refused, a challenge first, or go on (authenticated or not). */
type Authentication = { refused: true } | { challenge: true } | { threeDs?: ThreeDsOutcome };

function authenticationOf(behaviour: ThreeDsBehaviour | undefined, input: AuthoriseInput): Authentication {
  const external = input.externalThreeDs;
  if (external) {
    // The merchant authenticated the payer elsewhere: the issuer takes what its server said.
    if (external.transStatus === 'N' || external.transStatus === 'R') return { refused: true };
    const transStatus = externalTransStatus(external);
    return {
      threeDs: {
        transStatus,
        eci: external.eci,
        version: external.threeDsVersion,
        liabilityShift: transStatus === 'Y' || transStatus === 'A',
      },
    };
  }
  switch (behaviour) {
    case undefined:
      return {};
    case 'frictionless':
      return input.authentication ? { threeDs: authenticated('frictionless') } : {};
    case 'unavailable':
      return { refused: true };
    default:
      return input.authentication ? { challenge: true } : { refused: true };
  }
}

interface DebitRecord {
  type: 'debit';
  id: string;
  idempotencyKey: string;
  account: DebitAccount['type'];
  agreementId: string | undefined;
  currency: string;
  amount: bigint;
  refunded: bigint;
  reference: string | undefined;
  /** When the debit settles or fails, in ms since the epoch. */
  settlesAt: number;
  /** How it ends: '00' settled, or the code it fails with. */
  code: ResponseCode;
}

/** A direct debit; `state` as of the simulator's clock. */
export interface LedgerDebit extends DebitRecord {
  state: PaymentState['state'];
}

type Payment = LedgerAuthorisation | DebitRecord;

interface Agreement {
  currency: string;
  maximumAmount: bigint;
}

/** Read-only view of what the simulated acquirer recorded. */
export interface SimulatorLedger {
  authorisations(filter?: { idempotencyKey?: string }): LedgerAuthorisation[];
  debits(filter?: { idempotencyKey?: string }): LedgerDebit[];
  operations(filter?: { idempotencyKey?: string; kind?: OperationKind }): LedgerOperation[];
}

/**
 * The acquirer's payments and rules. Every operation runs synchronously from idempotency-key
 * lookup to state change, so concurrent requests cannot interleave and double-apply; every lookup
 * goes through a Map, by id or by idempotency key.
 */
export class Ledger implements SimulatorLedger {
  readonly vault: Vault;
  readonly #operations: Operations;
  readonly #payments: Table<Payment>;
  /** Payment id by `<type>:<idempotency key>`. */
  readonly #byKey = new Map<string, string>();
  readonly #agreements: Table<Agreement>;
  readonly #challenges: Table<Challenge>;
  readonly #now: () => number;

  constructor(journal: Journal, now: () => number) {
    this.#now = now;
    this.#operations = new Operations(journal.table('operation'), now);
    this.vault = new Vault(journal, this.#operations, now);
    this.#payments = journal.table('payment');
    this.#agreements = journal.table('agreement');
    this.#challenges = journal.table('challenge');
    for (const payment of this.#payments.rows.values()) this.#byKey.set(keyOf(payment.type, payment.idempotencyKey), payment.id);
  }

  authorisations(filter: { idempotencyKey?: string } = {}): LedgerAuthorisation[] {
    return this.#list('authorisation', filter.idempotencyKey).map((a) => ({ ...a }));
  }

  debits(filter: { idempotencyKey?: string } = {}): LedgerDebit[] {
    return this.#list('debit', filter.idempotencyKey).map((d) => ({ ...d, state: this.#state(d) }));
  }

  operations(filter: { idempotencyKey?: string; kind?: OperationKind } = {}): LedgerOperation[] {
    return this.#operations.list(filter);
  }

  authorise(key: string, input: AuthoriseInput): Outcome {
    return this.#operations.once('authorise', key, { ...input, source: withoutCardData(input.source) }, () => {
      // A reversal that overtook its authorisation must still win.
      if (this.#operations.has('reversal', key)) return { code: '12' };
      const charged = this.vault.cardFor(input.source);
      if (!charged) return { code: '25' };
      const { card, behaviour } = charged;
      const expired = isExpired({ month: card.expiryMonth, year: card.expiryYear }, new Date(this.#now()));
      if (behaviour.code === '00' && expired) return { code: '54' };
      const authentication = authenticationOf(behaviour.threeDs, input);
      if ('refused' in authentication) return { code: '1A' };
      const auth: LedgerAuthorisation = {
        type: 'authorisation',
        id: `auth_${randomUUID()}`,
        idempotencyKey: key,
        source: input.source.type,
        recurring: input.recurring,
        status: 'authenticating',
        currency: input.currency,
        amount: input.amount,
        captured: 0n,
        refunded: 0n,
        cardLast4: card.last4,
        reference: input.reference,
        descriptor: input.descriptor,
      };
      if ('challenge' in authentication) {
        const challenge = this.#challenge(auth, behaviour, input);
        this.#save(auth);
        return {
          code: '00',
          subject: auth.id,
          body: { id: auth.id, status: auth.status, amount: auth.amount, card, challenge: { id: challenge.id } },
        };
      }
      if (behaviour.code !== '00') return { code: behaviour.code };
      this.#approve(auth, input.capture, authentication.threeDs);
      return {
        code: '00',
        hold: behaviour.hold,
        subject: auth.id,
        body: { id: auth.id, status: auth.status, amount: auth.amount, card, threeDs: auth.threeDs },
      };
    });
  }

  /** A payment as it stands (3-D Secure included): what a gateway asks after the payer's challenge. */
  authorisation(id: string): Outcome {
    const auth = this.#payments.get(id);
    if (auth?.type !== 'authorisation') return { code: '25' };
    const { status, amount, captured, threeDs, failureCode } = auth;
    return { code: '00', body: { id, status, amount, captured, threeDs, ...(failureCode && errorBody(failureCode)) } };
  }

  /** What the issuer's challenge page shows: never the card number, only its last four digits. */
  challenge(id: string): Outcome {
    const challenge = this.#challenges.get(id);
    const auth = challenge && this.#payments.get(challenge.paymentId);
    if (!challenge || auth?.type !== 'authorisation') return { code: '25' };
    const { state, merchantName, returnUrl } = challenge;
    return {
      code: '00',
      body: { id, state, merchantName, returnUrl, amount: auth.amount, currency: auth.currency, cardLast4: auth.cardLast4 },
    };
  }

  /**
   * The payer's answer to a challenge, once: completing it authenticates the payer (and the issuer
   * then approves, declines, or still fails it, as the card says); failing or cancelling it fails
   * the payment. A payment reversed meanwhile (the gateway gave up) stays reversed.
   */
  answerChallenge(id: string, action: ChallengeAction): Outcome {
    const challenge = this.#challenges.get(id);
    const auth = challenge && this.#payments.get(challenge.paymentId);
    if (!challenge || auth?.type !== 'authorisation') return { code: '25' };
    if (challenge.state === 'waiting') {
      if (auth.status !== 'authenticating') challenge.state = 'cancelled';
      else if (action === 'complete') {
        challenge.state = 'completed';
        const threeDs = challenge.behaviour === 'challenge_fails' ? NOT_AUTHENTICATED : authenticated('challenge');
        const code = challenge.behaviour === 'challenge_fails' ? '1A' : challenge.approvalCode;
        if (code === '00') this.#approve(auth, challenge.capture, threeDs);
        else this.#fail(auth, code, threeDs);
      } else {
        challenge.state = action === 'fail' ? 'failed' : 'cancelled';
        this.#fail(auth, '1A', NOT_AUTHENTICATED);
      }
      this.#challenges.put(id, challenge);
    }
    return { code: '00', body: { id, state: challenge.state, returnUrl: challenge.returnUrl } };
  }

  #challenge(auth: LedgerAuthorisation, behaviour: CardBehaviour, input: AuthoriseInput): Challenge {
    const challenge: Challenge = {
      id: `chl_${randomUUID()}`,
      paymentId: auth.id,
      returnUrl: input.authentication!.returnUrl,
      merchantName: input.authentication!.merchantName,
      behaviour: behaviour.threeDs!,
      approvalCode: behaviour.code,
      capture: input.capture,
      state: 'waiting',
    };
    this.#challenges.put(challenge.id, challenge);
    return challenge;
  }

  #approve(auth: LedgerAuthorisation, capture: boolean, threeDs: ThreeDsOutcome | undefined): void {
    auth.status = capture ? 'captured' : 'authorised';
    auth.captured = capture ? auth.amount : 0n;
    auth.threeDs = threeDs;
    this.#save(auth);
  }

  #fail(auth: LedgerAuthorisation, code: ResponseCode, threeDs: ThreeDsOutcome): void {
    auth.status = 'failed';
    auth.failureCode = code;
    auth.threeDs = threeDs;
    this.#save(auth);
  }

  capture(key: string, paymentId: string, amount: bigint): Outcome {
    return this.#operations.once('capture', key, { subject: paymentId, amount }, () => {
      const auth = this.#authorised(paymentId);
      if (typeof auth === 'string') return { code: auth };
      if (amount > auth.amount) return { code: '61' };
      auth.status = 'captured';
      auth.captured = amount;
      this.#save(auth);
      return { code: '00', body: { paymentId, amount } };
    });
  }

  void(key: string, paymentId: string): Outcome {
    return this.#operations.once('void', key, { subject: paymentId }, () => {
      const auth = this.#authorised(paymentId);
      if (typeof auth === 'string') return { code: auth };
      auth.status = 'voided';
      this.#save(auth);
      return { code: '00', body: { paymentId } };
    });
  }

  /** Refunds a captured authorisation or a settled debit, up to what it moved. */
  refund(key: string, paymentId: string, amount: bigint): Outcome {
    return this.#operations.once('refund', key, { subject: paymentId, amount }, () => {
      const payment = this.#payments.get(paymentId);
      if (!payment) return { code: '25' };
      const refundable = this.#refundable(payment);
      if (refundable === undefined) return { code: '12' };
      if (payment.refunded + amount > refundable) return { code: '61' };
      payment.refunded += amount;
      this.#save(payment);
      return { code: '00', body: { id: `rf_${randomUUID()}`, paymentId, amount } };
    });
  }

  /** Cancels the authorisation made by the authorise call with `key`, if any. */
  reverse(key: string): Outcome {
    return this.#operations.once('reversal', key, {}, () => {
      const [auth] = this.#list('authorisation', key);
      if (!auth || auth.status === 'voided' || auth.status === 'reversed' || auth.status === 'failed') {
        return { code: '00', body: { reversed: false } };
      }
      // Money already returned by refunds cannot be returned again by a reversal.
      if (auth.refunded > 0n) return { code: '12', subject: auth.id };
      auth.status = 'reversed';
      this.#save(auth);
      return { code: '00', subject: auth.id, body: { reversed: true } };
    });
  }

  /** Accepts a direct debit, which settles or fails once `settlementDelayMs` has passed. */
  debit(key: string, input: DebitInput, settlementDelayMs: number): Outcome {
    return this.#operations.once('debit', key, input, () => {
      const { account } = input;
      if (account.type === 'payto') {
        const agreement = this.#agreements.get(account.agreementId);
        if (!agreement) return { code: '25' };
        if (agreement.currency !== input.currency) return { code: '12' };
        if (input.amount > agreement.maximumAmount) return { code: '61' };
      }
      const debit: DebitRecord = {
        type: 'debit',
        id: `dd_${randomUUID()}`,
        idempotencyKey: key,
        account: account.type,
        agreementId: account.type === 'payto' ? account.agreementId : undefined,
        currency: input.currency,
        amount: input.amount,
        refunded: 0n,
        reference: input.reference,
        settlesAt: this.#now() + settlementDelayMs,
        code: account.type === 'payto' ? '00' : bankAccountOutcome(account.accountNumber),
      };
      this.#save(debit);
      return { code: '00', subject: debit.id, body: { id: debit.id, state: this.#state(debit) } };
    });
  }

  debitState(paymentId: string): Outcome {
    const debit = this.#payments.get(paymentId);
    if (debit?.type !== 'debit') return { code: '25' };
    const state = this.#state(debit);
    return { code: '00', body: { id: paymentId, state, ...(state === 'failed' ? errorBody(debit.code) : {}) } };
  }

  createAgreement(key: string, input: AgreementInput): Outcome {
    return this.#operations.once('payto_agreement', key, input, () => {
      if (input.payId.toLowerCase() === DECLINED_PAY_ID) return { code: '05' };
      const id = `pta_${randomUUID()}`;
      this.#agreements.put(id, { currency: input.currency, maximumAmount: input.maximumAmount });
      return { code: '00', subject: id, body: { id, status: 'ACTIVE' } };
    });
  }

  /** The uncaptured authorisation `id`, or the code refusing to act on it. */
  #authorised(id: string): LedgerAuthorisation | ResponseCode {
    const payment = this.#payments.get(id);
    if (!payment) return '25';
    return payment.type === 'authorisation' && payment.status === 'authorised' ? payment : '12';
  }

  /** What a payment moved and may give back: nothing until captured or settled. */
  #refundable(payment: Payment): bigint | undefined {
    if (payment.type === 'authorisation') return payment.status === 'captured' ? payment.captured : undefined;
    return this.#state(payment) === 'settled' ? payment.amount : undefined;
  }

  #state(debit: DebitRecord): PaymentState['state'] {
    if (this.#now() < debit.settlesAt) return 'pending';
    return debit.code === '00' ? 'settled' : 'failed';
  }

  #list<T extends Payment['type']>(type: T, key: string | undefined): Array<Extract<Payment, { type: T }>> {
    const payments = key === undefined ? this.#payments.rows.values() : [this.#payments.get(this.#byKey.get(keyOf(type, key)) ?? '')];
    return [...payments].filter((p): p is Extract<Payment, { type: T }> => p?.type === type);
  }

  #save(payment: Payment): void {
    this.#payments.put(payment.id, payment);
    this.#byKey.set(keyOf(payment.type, payment.idempotencyKey), payment.id);
  }
}

function keyOf(type: Payment['type'], idempotencyKey: string): string {
  return `${type}:${idempotencyKey}`;
}

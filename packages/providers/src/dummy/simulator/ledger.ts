import { randomUUID } from 'node:crypto';
import { isExpired } from '@gateway/core';
import type { DebitAccount, PaymentState } from '../../connector.js';
import type { Journal, Table } from './journal.js';
import { Operations, type LedgerOperation, type OperationKind, type Outcome } from './operations.js';
import type { AgreementInput, AuthoriseInput, DebitInput, SourceInput } from './requests.js';
import { errorBody, type ResponseCode } from './response-codes.js';
import { bankAccountOutcome, DECLINED_PAY_ID } from './test-accounts.js';
import { Vault, withoutCardData } from './vault.js';

/** 'authorised' and 'captured' authorisations are live (hold or moved money); the others are not. */
export type AuthorisationStatus = 'authorised' | 'captured' | 'voided' | 'reversed';

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
  readonly #now: () => number;

  constructor(journal: Journal, now: () => number) {
    this.#now = now;
    this.#operations = new Operations(journal.table('operation'), now);
    this.vault = new Vault(journal, this.#operations, now);
    this.#payments = journal.table('payment');
    this.#agreements = journal.table('agreement');
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
      const code = behaviour.code === '00' && expired ? '54' : behaviour.code;
      if (code !== '00') return { code };
      const auth: LedgerAuthorisation = {
        type: 'authorisation',
        id: `auth_${randomUUID()}`,
        idempotencyKey: key,
        source: input.source.type,
        recurring: input.recurring,
        status: input.capture ? 'captured' : 'authorised',
        currency: input.currency,
        amount: input.amount,
        captured: input.capture ? input.amount : 0n,
        refunded: 0n,
        cardLast4: card.last4,
        reference: input.reference,
        descriptor: input.descriptor,
      };
      this.#save(auth);
      return { code, hold: behaviour.hold, subject: auth.id, body: { id: auth.id, status: auth.status, amount: auth.amount, card } };
    });
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
      if (!auth || auth.status === 'voided' || auth.status === 'reversed') return { code: '00', body: { reversed: false } };
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

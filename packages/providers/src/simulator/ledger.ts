import { createHash, randomUUID } from 'node:crypto';
import { stringify } from './json.js';
import type { ResponseCode } from './response-codes.js';
import { cardBehaviour } from './test-cards.js';

/** 'authorised' and 'captured' authorisations are live (hold or moved money); the others are not. */
export type AuthorisationStatus = 'authorised' | 'captured' | 'voided' | 'reversed';

export interface LedgerAuthorisation {
  id: string;
  idempotencyKey: string;
  status: AuthorisationStatus;
  currency: string;
  /** Authorised amount, in minor units. */
  amount: bigint;
  captured: bigint;
  refunded: bigint;
  cardLast4: string;
  reference: string | undefined;
  descriptor: string | undefined;
}

export type OperationKind = 'authorise' | 'capture' | 'void' | 'refund' | 'reversal';

export interface LedgerOperation {
  kind: OperationKind;
  /** For a reversal, the key of the authorise call it cancels. */
  idempotencyKey: string;
  authorisationId: string | undefined;
  amount: bigint | undefined;
  code: ResponseCode;
  /** Requests that carried this key, replays included. */
  requests: number;
}

/** Read-only view of what the simulated acquirer recorded. */
export interface SimulatorLedger {
  authorisations(filter?: { idempotencyKey?: string }): LedgerAuthorisation[];
  operations(filter?: { idempotencyKey?: string; kind?: OperationKind }): LedgerOperation[];
}

/** The acquirer's answer to an operation; stored under its idempotency key and replayed as is. */
export interface Outcome {
  code: ResponseCode;
  body?: Record<string, string | boolean>;
  /** Hold the response instead of answering (the timeout test card). */
  hold?: boolean;
  authorisationId?: string;
}

export interface AuthoriseInput {
  amount: bigint;
  currency: string;
  capture: boolean;
  card: { number: string; expiryMonth: number; expiryYear: number; cvc?: string; cardholder?: string };
  reference?: string;
  descriptor?: string;
}

interface Entry {
  fingerprint: string;
  outcome: Outcome;
  operation: LedgerOperation;
}

/**
 * The acquirer's state and rules. Every operation runs synchronously from idempotency-key lookup
 * to state change, so concurrent requests cannot interleave and double-apply.
 */
export class Ledger implements SimulatorLedger {
  readonly #authorisations = new Map<string, LedgerAuthorisation>();
  readonly #entries = new Map<string, Entry>();

  authorisations(filter: { idempotencyKey?: string } = {}): LedgerAuthorisation[] {
    return [...this.#authorisations.values()]
      .filter((a) => filter.idempotencyKey === undefined || a.idempotencyKey === filter.idempotencyKey)
      .map((a) => ({ ...a }));
  }

  operations(filter: { idempotencyKey?: string; kind?: OperationKind } = {}): LedgerOperation[] {
    return [...this.#entries.values()]
      .map((e) => e.operation)
      .filter((o) => filter.idempotencyKey === undefined || o.idempotencyKey === filter.idempotencyKey)
      .filter((o) => filter.kind === undefined || o.kind === filter.kind)
      .map((o) => ({ ...o }));
  }

  authorise(key: string, input: AuthoriseInput): Outcome {
    return this.#once('authorise', key, { ...input, authorisationId: undefined }, () => {
      // A reversal that overtook its authorisation must still win.
      if (this.#entries.has(entryId('reversal', key))) return { code: '12' };
      const { code, hold } = cardBehaviour(input.card.number);
      if (code !== '00') return { code };
      const auth: LedgerAuthorisation = {
        id: `auth_${randomUUID()}`,
        idempotencyKey: key,
        status: input.capture ? 'captured' : 'authorised',
        currency: input.currency,
        amount: input.amount,
        captured: input.capture ? input.amount : 0n,
        refunded: 0n,
        cardLast4: input.card.number.slice(-4),
        reference: input.reference,
        descriptor: input.descriptor,
      };
      this.#authorisations.set(auth.id, auth);
      return { code, hold, authorisationId: auth.id, body: { id: auth.id, status: auth.status, amount: String(auth.amount) } };
    });
  }

  capture(key: string, authorisationId: string, amount: bigint): Outcome {
    return this.#once('capture', key, { authorisationId, amount }, () => {
      const auth = this.#authorisations.get(authorisationId);
      if (!auth) return { code: '25' };
      if (auth.status !== 'authorised') return { code: '12' };
      if (amount > auth.amount) return { code: '61' };
      auth.status = 'captured';
      auth.captured = amount;
      return { code: '00', body: { authorisationId, amount: String(amount) } };
    });
  }

  void(key: string, authorisationId: string): Outcome {
    return this.#once('void', key, { authorisationId, amount: undefined }, () => {
      const auth = this.#authorisations.get(authorisationId);
      if (!auth) return { code: '25' };
      if (auth.status !== 'authorised') return { code: '12' };
      auth.status = 'voided';
      return { code: '00', body: { authorisationId } };
    });
  }

  refund(key: string, authorisationId: string, amount: bigint): Outcome {
    return this.#once('refund', key, { authorisationId, amount }, () => {
      const auth = this.#authorisations.get(authorisationId);
      if (!auth) return { code: '25' };
      if (auth.status !== 'captured') return { code: '12' };
      if (auth.refunded + amount > auth.captured) return { code: '61' };
      auth.refunded += amount;
      return { code: '00', body: { id: `rf_${randomUUID()}`, authorisationId, amount: String(amount) } };
    });
  }

  /** Cancels the authorisation made by the authorise call with `key`, if any. */
  reverse(key: string): Outcome {
    return this.#once('reversal', key, { authorisationId: undefined, amount: undefined }, () => {
      const auth = [...this.#authorisations.values()].find((a) => a.idempotencyKey === key);
      if (!auth || auth.status === 'voided' || auth.status === 'reversed') return { code: '00', body: { reversed: false } };
      // Money already returned by refunds cannot be returned again by a reversal.
      if (auth.refunded > 0n) return { code: '12', authorisationId: auth.id };
      auth.status = 'reversed';
      return { code: '00', authorisationId: auth.id, body: { reversed: true } };
    });
  }

  #once(
    kind: OperationKind,
    key: string,
    request: { authorisationId: string | undefined; amount: bigint | undefined },
    run: () => Outcome,
  ): Outcome {
    const id = entryId(kind, key);
    const fingerprint = createHash('sha256').update(stringify(request)).digest('hex');
    const seen = this.#entries.get(id);
    if (seen) {
      if (seen.fingerprint !== fingerprint) return { code: '94' };
      seen.operation.requests++;
      return seen.outcome;
    }
    const outcome = run();
    const operation: LedgerOperation = {
      kind,
      idempotencyKey: key,
      authorisationId: outcome.authorisationId ?? request.authorisationId,
      amount: request.amount,
      code: outcome.code,
      requests: 1,
    };
    this.#entries.set(id, { fingerprint, outcome, operation });
    return outcome;
  }
}

function entryId(kind: OperationKind, key: string): string {
  return `${kind}:${key}`;
}

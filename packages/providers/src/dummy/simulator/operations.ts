import { createHash } from 'node:crypto';
import type { Table } from './journal.js';
import { stringify } from './json.js';
import type { ResponseCode } from './response-codes.js';

const OPERATION_KINDS = [
  'authorise',
  'capture',
  'void',
  'refund',
  'reversal',
  'store_card',
  'network_token',
  'debit',
  'payto_agreement',
] as const;

export type OperationKind = (typeof OPERATION_KINDS)[number];

export interface LedgerOperation {
  kind: OperationKind;
  /** For a reversal, the key of the authorise call it cancels. */
  idempotencyKey: string;
  /** What the operation made or acted on: a payment id, card token, network token or agreement id. */
  subject: string | undefined;
  amount: bigint | undefined;
  code: ResponseCode;
  /** Requests that carried this key, replays included. */
  requests: number;
}

/** The acquirer's answer to an operation; stored under its idempotency key and replayed as is. */
export interface Outcome {
  code: ResponseCode;
  /** The answer on approval; money as bigints. */
  body?: Record<string, unknown>;
  /** Hold the response instead of answering (the timeout test card). */
  hold?: boolean;
  subject?: string;
}

interface Entry extends LedgerOperation {
  /** Hash of the request, card data left out. */
  fingerprint: string;
  /** When the key was first used, in ms since the epoch. */
  at: number;
  body?: Record<string, unknown>;
  hold?: boolean;
}

/** How long a key is remembered. Retries come within minutes; forgetting bounds memory. */
export const KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency: an operation runs once per kind and key. Repeating the key replays the first
 * outcome; reusing it with a different request is refused (code 94).
 */
export class Operations {
  readonly #entries: Table<Entry>;
  readonly #now: () => number;

  constructor(entries: Table<Entry>, now: () => number) {
    this.#entries = entries;
    this.#now = now;
  }

  /** `request` must hold no card number or CVC: its hash is kept. */
  once(
    kind: OperationKind,
    key: string,
    request: { subject?: string; amount?: bigint; [field: string]: unknown },
    run: () => Outcome,
  ): Outcome {
    this.#entries.dropOldest((entry) => entry.at <= this.#now() - KEY_RETENTION_MS);
    const id = entryId(kind, key);
    const fingerprint = createHash('sha256').update(stringify(request)).digest('base64url');
    const seen = this.#entries.get(id);
    if (seen) {
      if (seen.fingerprint !== fingerprint) return { code: '94' };
      seen.requests++;
      this.#entries.put(id, seen);
      return seen;
    }
    const outcome = run();
    this.#entries.put(id, {
      ...outcome,
      kind,
      idempotencyKey: key,
      subject: outcome.subject ?? request.subject,
      amount: request.amount,
      requests: 1,
      fingerprint,
      at: this.#now(),
    });
    return outcome;
  }

  has(kind: OperationKind, key: string): boolean {
    return this.#entries.rows.has(entryId(kind, key));
  }

  list(filter: { idempotencyKey?: string; kind?: OperationKind }): LedgerOperation[] {
    const { idempotencyKey: key, kind } = filter;
    const entries =
      key === undefined ? [...this.#entries.rows.values()] : OPERATION_KINDS.flatMap((k) => this.#entries.get(entryId(k, key)) ?? []);
    return entries
      .filter((e) => kind === undefined || e.kind === kind)
      .map((e) => ({
        kind: e.kind,
        idempotencyKey: e.idempotencyKey,
        subject: e.subject,
        amount: e.amount,
        code: e.code,
        requests: e.requests,
      }));
  }
}

function entryId(kind: OperationKind, key: string): string {
  return `${kind}:${key}`;
}

import { randomInt, randomUUID } from 'node:crypto';
import { passesLuhn } from '@gateway/core';
import type { CardDetails, CardSummary } from '../../connector.js';
import type { Journal, Table } from './journal.js';
import type { Operations, Outcome } from './operations.js';
import type { CardChanges, SourceInput, StoreCardInput } from './requests.js';
import { cardBehaviour, type CardBehaviour } from './test-cards.js';

/** A card as the acquirer keeps it: never the number or CVC, but the behaviour its number gave it. */
interface VaultCard {
  card: CardSummary;
  behaviour: CardBehaviour;
}

interface StoredCard extends VaultCard {
  networkTokens: string[];
}

interface SingleUseToken extends VaultCard {
  /** Ms since the epoch. */
  expiresAt: number;
  used: boolean;
}

interface NetworkToken {
  providerToken: string;
  schemeTokenId: string;
}

const SINGLE_USE_TOKEN_TTL_MS = 15 * 60 * 1000;

/**
 * The acquirer's card vault: stored cards (`tok_…`), single-use tokens a merchant's page gets
 * (`sut_…`, one exchange for a stored card within 15 minutes) and network tokens (`ntok_…`) of
 * stored cards.
 */
export class Vault {
  readonly #cards: Table<StoredCard>;
  readonly #singleUse: Table<SingleUseToken>;
  readonly #networkTokens: Table<NetworkToken>;
  readonly #operations: Operations;
  readonly #now: () => number;

  constructor(journal: Journal, operations: Operations, now: () => number) {
    this.#cards = journal.table('card');
    this.#singleUse = journal.table('single_use_token');
    this.#networkTokens = journal.table('network_token');
    this.#operations = operations;
    this.#now = now;
  }

  /** The card a payment source charges; undefined for a token the vault does not hold. */
  cardFor(source: SourceInput): VaultCard | undefined {
    switch (source.type) {
      case 'card':
      case 'wallet':
        return vaultCard(source.card);
      case 'stored_card':
        return this.#cards.get(source.providerToken);
      case 'network_token': {
        const token = this.#networkTokens.get(source.networkTokenId);
        return token && this.#cards.get(token.providerToken);
      }
    }
  }

  issueSingleUseToken(details: CardDetails): Outcome {
    this.#singleUse.dropOldest((t) => t.expiresAt <= this.#now());
    const card = vaultCard(details);
    if (card.behaviour.code === '14') return { code: '14' };
    const token = `sut_${randomUUID()}`;
    const expiresAt = this.#now() + SINGLE_USE_TOKEN_TTL_MS;
    this.#singleUse.put(token, { ...card, expiresAt, used: false });
    return { code: '00', body: { token, expiresAt: new Date(expiresAt).toISOString() } };
  }

  store(key: string, source: StoreCardInput): Outcome {
    return this.#operations.once('store_card', key, { source: withoutCardData(source) }, () => {
      const card = source.type === 'card' ? vaultCard(source.card) : this.#redeem(source.token);
      if (!card) return { code: '12' };
      if (card.behaviour.code === '14') return { code: '14' };
      const token = `tok_${randomUUID()}`;
      this.#cards.put(token, { ...card, networkTokens: [] });
      return { code: '00', subject: token, body: { token, card: card.card } };
    });
  }

  describe(token: string): Outcome {
    const stored = this.#cards.get(token);
    return stored ? { code: '00', body: { token, card: stored.card } } : { code: '25' };
  }

  update(token: string, changes: CardChanges): Outcome {
    const stored = this.#cards.get(token);
    if (!stored) return { code: '25' };
    stored.card = { ...stored.card, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    this.#cards.put(token, stored);
    return this.describe(token);
  }

  delete(token: string): Outcome {
    const stored = this.#cards.get(token);
    if (!stored) return { code: '25' };
    for (const id of stored.networkTokens) this.#networkTokens.drop(id);
    this.#cards.drop(token);
    return { code: '00', body: {} };
  }

  createNetworkToken(key: string, providerToken: string): Outcome {
    return this.#operations.once('network_token', key, { subject: providerToken }, () => {
      const stored = this.#cards.get(providerToken);
      if (!stored) return { code: '25' };
      const id = `ntok_${randomUUID()}`;
      const schemeTokenId = luhnNumber(stored.card.iin.slice(0, 1), 16);
      stored.networkTokens.push(id);
      this.#cards.put(providerToken, stored);
      this.#networkTokens.put(id, { providerToken, schemeTokenId });
      return { code: '00', subject: id, body: { id, schemeTokenId, status: 'ACTIVE' } };
    });
  }

  /** The card behind an unused, unexpired single-use token, which this uses up. */
  #redeem(token: string): VaultCard | undefined {
    const issued = this.#singleUse.get(token);
    if (!issued || issued.used || issued.expiresAt <= this.#now()) return undefined;
    this.#singleUse.put(token, { ...issued, used: true });
    return issued;
  }
}

/** A source as the ledger may keep or hash it: card details cut to their summary, no CVC. */
export function withoutCardData(source: SourceInput | StoreCardInput): object {
  return 'card' in source ? { ...source, card: summarise(source.card) } : { ...source, cvc: undefined };
}

function summarise({ number, expiryMonth, expiryYear, cardholder }: CardDetails): CardSummary {
  return { iin: number.slice(0, 6), last4: number.slice(-4), length: number.length, expiryMonth, expiryYear, cardholder };
}

function vaultCard(details: CardDetails): VaultCard {
  return { card: summarise(details), behaviour: cardBehaviour(details.number) };
}

/** A random number of `length` digits starting with `prefix`, with a valid Luhn check digit. */
function luhnNumber(prefix: string, length: number): string {
  let digits = prefix;
  while (digits.length < length - 1) digits += String(randomInt(10));
  for (let check = 0; ; check++) if (passesLuhn(`${digits}${check}`)) return `${digits}${check}`;
}

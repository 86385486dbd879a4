import type { Account, Prisma } from '@gateway/db';
import type { PublicChargeStatus } from '@gateway/core';
import { amountRange, containing, dateRange, paging, wordsOf } from '../../schemas/search';
import type { Dependencies } from '../deps';
import { chargeInclude, toChargeView, WAITING_FOR_PAYER } from './view';

export interface ChargeSearch {
  query?: string;
  reference?: string;
  referenceContains?: string;
  email?: string;
  cardLast4?: string;
  paymentLinkId?: string;
  providerId?: string;
  amountGreaterThan?: string | number;
  amountLessThan?: string | number;
  customerId?: string;
  status?: PublicChargeStatus;
  awaitingAuthentication?: boolean;
  addedAfter?: Date;
  addedBefore?: Date;
  paymentMethodId?: string;
  paymentType?: string;
  cardType?: string;
  currency?: string;
  cardNumber?: string;
  cardholder?: string;
  batchId?: string;
  subscriptionId?: string;
  sortBy?: 'None' | 'Date' | 'Amount' | 'Status' | 'Reference';
  limit?: number;
  skip?: number;
}

function authenticationFilter(awaiting: boolean | undefined): Prisma.ChargeWhereInput {
  if (awaiting === undefined) return {};
  return awaiting ? WAITING_FOR_PAYER : { NOT: WAITING_FOR_PAYER };
}

/** The card's last four digits, from its masked number (a trigram index finds them). */
const lastFour = (digits: string): Prisma.ChargeWhereInput => ({ cardMasked: { endsWith: digits } });

/** CardNumber matches by leading digits (the IIN) and, given 10 digits or more, the last four. */
function cardNumberFilter(text: string): Prisma.ChargeWhereInput {
  const digits = text.replace(/\D/g, '');
  if (!digits) return { id: '' };
  const iin = digits.length >= 6 ? { cardIin: digits.slice(0, 6) } : { cardIin: { startsWith: digits } };
  return digits.length >= 10 ? { ...iin, ...lastFour(digits.slice(-4)) } : iin;
}

/**
 * Our `query`: every word matches one of the reference or the email (in part), the card's last
 * four digits, the charge id or the provider's charge id, so one field finds any charge.
 */
function queryFilter(query: string): Prisma.ChargeWhereInput[] {
  return wordsOf(query).map((word) => ({
    OR: [
      { reference: containing(word) },
      { email: containing(word) },
      { id: word },
      { providerChargeId: word },
      ...(/^\d{4}$/.test(word) ? [lastFour(word)] : []),
    ],
  }));
}

function order(sortBy: ChargeSearch['sortBy']): Prisma.ChargeOrderByWithRelationInput[] {
  const newestFirst: Prisma.ChargeOrderByWithRelationInput[] = [{ dateAdded: 'desc' }, { id: 'desc' }];
  switch (sortBy) {
    case 'Amount':
      return [{ amount: 'desc' }, ...newestFirst];
    case 'Status':
      return [{ status: 'asc' }, ...newestFirst];
    case 'Reference':
      return [{ reference: 'asc' }, ...newestFirst];
    default:
      return newestFirst;
  }
}

export function createChargeSearch({ db }: Dependencies) {
  return async function search(account: Account, input: ChargeSearch) {
    const where: Prisma.ChargeWhereInput = {
      AND: [
        { accountId: account.id },
        ...(input.query !== undefined ? queryFilter(input.query) : []),
        input.reference !== undefined ? { reference: input.reference } : {},
        input.referenceContains !== undefined ? { reference: containing(input.referenceContains) } : {},
        input.email !== undefined ? { email: containing(input.email) } : {},
        input.cardLast4 !== undefined ? lastFour(input.cardLast4) : {},
        input.paymentLinkId !== undefined ? { paymentLinkId: input.paymentLinkId } : {},
        input.providerId !== undefined ? { providerId: input.providerId } : {},
        input.status === 'PENDING' ? { status: { in: ['PENDING', 'PROCESSING'] } } : input.status ? { status: input.status } : {},
        authenticationFilter(input.awaitingAuthentication),
        input.currency !== undefined ? { currency: input.currency.toUpperCase() } : {},
        input.paymentType !== undefined ? { paymentType: input.paymentType.toUpperCase() } : {},
        input.cardType !== undefined ? { cardScheme: input.cardType.toUpperCase() } : {},
        input.cardholder !== undefined ? { cardholder: input.cardholder } : {},
        input.cardNumber !== undefined ? cardNumberFilter(input.cardNumber) : {},
        input.customerId !== undefined ? { customerId: input.customerId } : {},
        input.paymentMethodId !== undefined ? { paymentMethodId: input.paymentMethodId } : {},
        input.batchId !== undefined ? { batchId: input.batchId } : {},
        input.subscriptionId !== undefined ? { subscriptionId: input.subscriptionId } : {},
        dateRange(input),
        amountRange(input.amountGreaterThan, input.amountLessThan),
      ],
    };
    const { take, skip } = paging(input);
    const [count, charges] = await Promise.all([
      db.charge.count({ where }),
      db.charge.findMany({ where, include: chargeInclude, orderBy: order(input.sortBy), take, skip }),
    ]);
    return { limit: take, skip, count, charges: charges.map(toChargeView) };
  };
}

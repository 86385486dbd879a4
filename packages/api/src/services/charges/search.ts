import type { Account, Prisma } from '@gateway/db';
import type { PublicChargeStatus } from '@gateway/core';
import { amountRange, dateRange, paging } from '../../schemas/search';
import type { Dependencies } from '../deps';
import { chargeInclude, toChargeView, WAITING_FOR_PAYER } from './view';

export interface ChargeSearch {
  reference?: string;
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

/** CardNumber matches by leading digits (the IIN) and, given 10 digits or more, the last four. */
function cardNumberFilter(text: string): Prisma.ChargeWhereInput {
  const digits = text.replace(/\D/g, '');
  if (!digits) return { id: '' };
  const iin = digits.length >= 6 ? { cardIin: digits.slice(0, 6) } : { cardIin: { startsWith: digits } };
  return digits.length >= 10 ? { ...iin, cardMasked: { endsWith: digits.slice(-4) } } : iin;
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
        input.reference !== undefined ? { reference: input.reference } : {},
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

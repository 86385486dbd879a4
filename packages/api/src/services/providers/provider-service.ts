import { newUuid, parseDecimal, toMinorUnits } from '@gateway/core';
import type { Account } from '@gateway/db';
import type { Dependencies } from '../deps';
import { requireCurrency } from '../money';

export interface FeeInput {
  cardScheme?: string | null;
  isInternationalCard?: boolean | null;
  /** Fixed fee per transaction in major units of the provider currency, e.g. "0.30". */
  transactionCost: string | number;
  /** Percentage of the amount, e.g. "1.75". */
  transactionPercentage: string | number;
}

export interface NewProvider {
  type: string;
  name: string;
  currency: string;
  country?: string | null;
  environment?: string;
  latency?: { minMs: number; maxMs: number };
  timeoutMs?: number;
  fees?: FeeInput[];
}

export function createProviderService({ db }: Dependencies) {
  return {
    async create(account: Account, input: NewProvider) {
      const currency = requireCurrency(input.currency);
      const fees = (input.fees ?? []).map((fee) => {
        const fixed = parseDecimal(fee.transactionCost);
        const percentage = parseDecimal(fee.transactionPercentage);
        const fixedMinor = fixed && toMinorUnits(fixed, currency);
        if (fixedMinor === undefined || !percentage) throw new Error('fee amounts must be decimals the currency can hold');
        return {
          id: newUuid(),
          cardScheme: fee.cardScheme?.toUpperCase() ?? null,
          isInternationalCard: fee.isInternationalCard ?? null,
          fixedMinor,
          percentage: String(fee.transactionPercentage),
        };
      });
      return db.provider.create({
        data: {
          id: newUuid(),
          accountId: account.id,
          type: input.type,
          name: input.name,
          currency: currency.code,
          country: input.country?.toUpperCase() ?? null,
          environment: input.environment ?? 'SANDBOX',
          latencyMinMs: input.latency?.minMs ?? 20,
          latencyMaxMs: input.latency?.maxMs ?? 150,
          timeoutMs: input.timeoutMs ?? 10_000,
          fees: { create: fees },
        },
        include: { fees: true },
      });
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;

import type { ResponseCode } from './response-codes.js';

export interface TestBankAccount {
  /** How the account number ends. */
  suffix: string;
  /** The code the debit fails with once its settlement delay has passed. */
  responseCode: ResponseCode;
  description: string;
}

/**
 * Bank accounts whose direct debits fail, by how the account number ends. The acquirer accepts
 * every debit at once; one on any other account settles once the settlement delay has passed.
 */
export const TEST_BANK_ACCOUNTS: readonly TestBankAccount[] = [
  { suffix: '0000', responseCode: '51', description: 'Fails: insufficient funds.' },
  { suffix: '9999', responseCode: '78', description: 'Fails: account closed.' },
];

/** The PayID whose payer refuses every PayTo agreement (do not honour, code 05). */
export const DECLINED_PAY_ID = 'declined@example.com';

/** How a debit on this bank account ends: '00' settled, or the code it fails with. */
export function bankAccountOutcome(accountNumber: string): ResponseCode {
  return TEST_BANK_ACCOUNTS.find((a) => accountNumber.endsWith(a.suffix))?.responseCode ?? '00';
}

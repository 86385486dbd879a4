import { describe, expect, it } from 'vitest';
import { ERRORS } from './catalogue';
import { failureReason } from './failure-reasons';

describe('failure reasons', () => {
  it('explains a decline by its catalogue code, as failedAttempts give it', () => {
    expect(failureReason(String(ERRORS.InsufficientFunds.code))).toEqual({
      summary: 'Declined: insufficient funds',
      meaning: 'The card’s account did not have enough money or credit left for this amount.',
      payerCan: 'Pay a smaller amount, add funds to the account, or use another card.',
    });
    expect(failureReason(ERRORS.CardBlocked.code).summary).toBe('Declined: card blocked');
    expect(failureReason('GatewayTimeout').summary).toBe('Failed: no answer from the provider');
  });

  it('falls back on the catalogue’s words for other errors, and on an unknown error for a code it does not know', () => {
    expect(failureReason('UnableToCharge').summary).toBe('Failed: unable to charge');
    expect(failureReason('9999').summary).toBe('Failed: unknown error');
    expect(failureReason('NotAName').summary).toBe('Failed: unknown error');
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError, ERRORS, ERROR_NAMES } from './catalogue';

describe('error catalogue', () => {
  it('numbers errors as the client SDKs do', () => {
    expect(ERROR_NAMES).toHaveLength(108);
    expect(ERRORS.InvalidCardNumber).toMatchObject({ code: 5, http: 400, message: 'Invalid Card Number', retryable: false });
    expect(ERRORS.InvalidCcv.code).toBe(6);
    expect(ERRORS.InvalidProviderId.code).toBe(39);
    expect(ERRORS.InvalidPaymentInformation.code).toBe(81);
    expect(ERRORS.ValidationError.code).toBe(90);
    expect(ERRORS.InvalidBatch.code).toBe(101);
    expect(ERRORS.UnableToUpdateThePaymentMethod.code).toBe(107);
    expect(ERRORS.GatewayTimeout.retryable).toBe(true);
  });

  it('lets a thrown error override the status and message', () => {
    const e = new ApiError('InvalidChargeId', { http: 404, message: 'Charge not found' });
    expect(e).toMatchObject({ code: 84, http: 404, message: 'Charge not found', retryable: false });
  });
});

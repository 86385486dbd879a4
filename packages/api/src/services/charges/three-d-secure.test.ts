import type { ProviderFailure } from '@gateway/providers';
import { describe, expect, it } from 'vitest';
import { authenticationError, chargeFailure, threeDsPlan, threeDsUrls } from './three-d-secure';

const account = { name: 'Corner Shop' };
const payer = { publicUrl: 'https://pay.example/', browser: { userAgent: 'Mozilla/5.0', acceptHeader: 'text/html' } };
const notificationUrl = 'https://shop.example/checkout/done?order=1';

describe('who takes part in 3-D Secure', () => {
  it('a present payer whose merchant gave threeDSNotificationUrl: a token, the return URL on the gateway, the merchant’s origin', () => {
    const plan = threeDsPlan(account, { threeDSNotificationUrl: notificationUrl }, payer)!;
    expect(plan.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(plan.request).toEqual({
      returnUrl: `https://pay.example/3ds/${plan.token}/return`,
      origin: 'https://shop.example',
      browser: payer.browser,
      merchantName: 'Corner Shop',
    });
    expect(threeDsPlan(account, { threeDSNotificationUrl: notificationUrl }, payer)!.token).not.toBe(plan.token);
  });

  it.each([
    ['no threeDSNotificationUrl', {}],
    ['a recurring payment', { threeDSNotificationUrl: notificationUrl, recurring: true }],
    ['a merchant-initiated payment', { threeDSNotificationUrl: notificationUrl, initiator: 'MERCHANT' as const }],
  ])('never %s', (_name, input) => {
    expect(threeDsPlan(account, input, payer)).toBeUndefined();
  });

  it('keeps the gateway’s URLs on its public address', () => {
    expect(threeDsUrls('https://pay.example/', 'tok')).toEqual({
      page: 'https://pay.example/3ds/tok',
      return: 'https://pay.example/3ds/tok/return',
    });
  });
});

describe('how a failure reads', () => {
  const refused: ProviderFailure = {
    category: 'authentication_required',
    retryable: false,
    gatewayCode: '1A',
    gatewayMessage: 'Authentication required',
  };
  const declined: ProviderFailure = { category: 'do_not_honour', retryable: false, gatewayCode: '05', gatewayMessage: 'Do not honour' };

  it('an authentication refused before the opt-in says how to opt in (code 18)', () => {
    const error = authenticationError(refused, false, { chargeId: 'c' });
    expect(error).toMatchObject({ code: 18, gatewayCode: '1A', retryable: false, details: { chargeId: 'c' } });
    expect(error.message).toContain('threeDSNotificationUrl');
  });

  it('after the opt-in, a failed authentication says so (18), and an issuer decline keeps its own code (43)', () => {
    expect(chargeFailure(refused, true, {})).toMatchObject({ code: 18, message: expect.stringContaining('failed or was unavailable') });
    expect(chargeFailure(declined, true, {})).toMatchObject({ code: 43, gatewayCode: '05' });
  });
});

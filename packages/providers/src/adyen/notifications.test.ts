import {
  notificationBody,
  notificationItem,
  signItem,
  type NotificationDraft,
  type NotificationRequestItem,
} from '@gateway/provider-fakes';
import { describe, expect, it } from 'vitest';
import type { NotificationRead } from '../provider-type.js';
import { REFUSALS } from './codes.js';
import { ADYEN_NOTIFICATIONS } from './notifications.js';
import { FAKE_ACCOUNT } from './testing.js';

const parameters = { ApiKey: FAKE_ACCOUNT.apiKey, MerchantAccount: FAKE_ACCOUNT.merchantAccount, HmacKey: FAKE_ACCOUNT.hmacKey };
const OTHER_KEY = '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF';

const capture: NotificationDraft = {
  eventCode: 'CAPTURE',
  success: true,
  pspReference: 'QFQTPCQ8HXSKGK82',
  originalReference: 'JVBXGSDM53RZNN82',
  merchantReference: 'c1f0:1:capture',
  amount: { currency: 'EUR', value: 600 },
};

const item = (draft: Partial<NotificationDraft> = {}, merchantAccount = FAKE_ACCOUNT.merchantAccount, key = FAKE_ACCOUNT.hmacKey) =>
  notificationItem({ ...capture, ...draft }, merchantAccount, key);

const read = (body: string | Buffer, with_ = parameters): NotificationRead =>
  ADYEN_NOTIFICATIONS.read({
    rawBody: Buffer.from(body),
    headers: { 'content-type': 'application/json' },
    parameters: with_,
    now: new Date(),
  });

const notificationsOf = (result: NotificationRead) => {
  if (!result.ok) throw new Error(`unverified: ${result.reason}`);
  return result.notifications;
};

describe('Adyen notifications', () => {
  it('read a successful capture', () => {
    expect(notificationsOf(read(notificationBody([item()])))).toEqual([
      {
        id: 'CAPTURE:QFQTPCQ8HXSKGK82:true:EUR:600',
        event: 'capture',
        success: true,
        providerChargeId: 'JVBXGSDM53RZNN82',
        reference: 'c1f0:1:capture',
        providerReference: 'QFQTPCQ8HXSKGK82',
        amount: 600n,
        currency: 'EUR',
      },
    ]);
  });

  it('read a failed refund with the gateway’s words, never Adyen’s reason', () => {
    const [refund] = notificationsOf(
      read(notificationBody([item({ eventCode: 'REFUND', success: false, reason: 'Insufficient balance on payment' })])),
    );
    expect(refund).toMatchObject({
      event: 'refund',
      success: false,
      failure: { category: 'processor_error', retryable: false, gatewayCode: 'REFUND' },
    });
    expect(JSON.stringify(refund, (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('Insufficient balance');
  });

  it('read a refused authorisation by its refusal reason', () => {
    const draft = {
      eventCode: 'AUTHORISATION',
      success: false,
      originalReference: undefined,
      merchantReference: 'c1f0:1',
      reason: 'CVC Declined',
    };
    expect(notificationsOf(read(notificationBody([item(draft)])))).toEqual([
      expect.objectContaining({
        event: 'authorisation',
        success: false,
        providerChargeId: 'QFQTPCQ8HXSKGK82',
        reference: 'c1f0:1',
        failure: { category: 'invalid_cvc', retryable: false, gatewayCode: 'REFUSED_24', gatewayMessage: REFUSALS['24']!.message },
      }),
    ]);
  });

  describe('read an authorisation’s 3-D Secure outcome', () => {
    const authorisation = (success: boolean, additionalData: Record<string, string>, reason?: string) =>
      notificationsOf(
        read(
          notificationBody([
            item({
              eventCode: 'AUTHORISATION',
              success,
              originalReference: undefined,
              merchantReference: 'c1f0:1',
              additionalData,
              reason,
            }),
          ]),
        ),
      )[0];
    const challenged = {
      threeDOffered: 'true',
      threeDOfferedResponse: 'C',
      threeDAuthenticated: 'true',
      threeDAuthenticatedResponse: 'Y',
      liabilityShift: 'true',
      eci: '02',
      threeDSVersion: '2.2.0',
      cavv: 'AAABBBCCCDDDEEEFFFGGGHHHIII=',
    };

    it('after a passed challenge', () => {
      expect(authorisation(true, challenged)).toMatchObject({
        event: 'authorisation',
        success: true,
        providerChargeId: 'QFQTPCQ8HXSKGK82',
        threeDs: { flow: 'challenge', transStatus: 'Y', eci: '02', version: '2.2.0', liabilityShift: true },
      });
    });

    it('after a failed one, refused as needing authentication', () => {
      const failed = { ...challenged, threeDAuthenticated: 'false', threeDAuthenticatedResponse: 'N', liabilityShift: 'false', eci: '00' };
      expect(authorisation(false, failed, '3D Not Authenticated')).toMatchObject({
        success: false,
        failure: { category: 'authentication_required', gatewayCode: 'REFUSED_11' },
        threeDs: { flow: 'challenge', transStatus: 'N', eci: '00', liabilityShift: false },
      });
    });

    it('frictionless, by the directory’s answer', () => {
      const frictionless = { ...challenged, threeDOfferedResponse: 'Y' };
      expect(authorisation(true, frictionless)?.threeDs).toMatchObject({ flow: 'frictionless', transStatus: 'Y' });
    });

    it('none when 3-D Secure took no part, nor for a modification', () => {
      expect(authorisation(true, { threeDOffered: 'false', threeDAuthenticated: 'false' })).not.toHaveProperty('threeDs');
      const [capture] = notificationsOf(read(notificationBody([item({ additionalData: challenged })])));
      expect(capture).not.toHaveProperty('threeDs');
    });
  });

  it.each([
    ['CAPTURE_FAILED', 'capture', 'true', false],
    ['REFUND_FAILED', 'refund', 'true', false],
    ['REFUNDED_REVERSED', 'refund', 'true', false],
    ['CANCELLATION', 'void', 'true', true],
    ['TECHNICAL_CANCEL', 'void', 'false', false],
    ['CHARGEBACK', 'other', 'true', true],
  ] as const)('read %s as %s', (eventCode, event, success, outcome) => {
    const [notification] = notificationsOf(read(notificationBody([item({ eventCode, success: success === 'true' })])));
    expect(notification).toMatchObject({ event, success: outcome });
  });

  it.each([
    ['cancel', 'void'],
    ['refund', 'refund'],
  ] as const)('read CANCEL_OR_REFUND that did a %s as a %s', (action, event) => {
    const [notification] = notificationsOf(
      read(notificationBody([item({ eventCode: 'CANCEL_OR_REFUND', additionalData: { 'modification.action': action } })])),
    );
    expect(notification).toMatchObject({ event, success: true });
  });

  it.each([
    ['IDR', 15, 1500n],
    ['CLP', 12300, 123n],
    ['JPY', 1500, 1500n],
    ['KWD', 12345, 12345n],
    ['EUR', 1250, 1250n],
  ] as const)('give the amount Adyen sent in %s (%i) in ISO minor units, failures too', (currency, value, amount) => {
    for (const eventCode of ['CAPTURE', 'REFUND', 'REFUND_FAILED']) {
      const [notification] = notificationsOf(read(notificationBody([item({ eventCode, amount: { currency, value } })])));
      expect(notification).toMatchObject({ amount, currency });
    }
  });

  it.each([
    ['finer than ISO 4217 counts the currency', 'CLP', 12345],
    ['in a currency ISO 4217 does not know', 'XYZ', 1000],
  ])('give the currency alone for an amount %s', (_case, currency, value) => {
    const [notification] = notificationsOf(read(notificationBody([item({ amount: { currency, value } })])));
    expect(notification).toMatchObject({ currency });
    expect(notification).not.toHaveProperty('amount');
  });

  it('read a replay identically, so the gateway takes it once by its id; another amount is another notification', () => {
    const body = notificationBody([item()]);
    expect(read(body)).toEqual(read(body));
    const [other] = notificationsOf(read(notificationBody([item({ amount: { currency: 'EUR', value: 500 } })])));
    expect(other?.id).toBe('CAPTURE:QFQTPCQ8HXSKGK82:true:EUR:500');
  });

  it('answer Adyen as it expects', () => {
    expect(ADYEN_NOTIFICATIONS.accepted).toEqual({ status: 200, contentType: 'text/plain', body: '[accepted]' });
  });

  describe('are refused whole when', () => {
    const unverified = (body: string, reason: RegExp, with_ = parameters) => {
      const result = read(body, with_);
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.reason).toMatch(reason);
    };

    it('an item is signed with another key (forged)', () => {
      unverified(notificationBody([item(), item({}, FAKE_ACCOUNT.merchantAccount, OTHER_KEY)]), /HMAC/);
    });

    it('a signed field was changed after signing (tampered)', () => {
      const tampered: NotificationRequestItem = { ...item(), amount: { currency: 'EUR', value: 60000 } };
      unverified(notificationBody([tampered]), /HMAC/);
      unverified(notificationBody([{ ...item(), success: 'false' }]), /HMAC/);
    });

    it('an item has no signature', () => {
      const { hmacSignature: _, ...rest } = item().additionalData!;
      unverified(notificationBody([{ ...item(), additionalData: rest }]), /HMAC/);
    });

    it('an item is for another merchant account, even signed with the right key', () => {
      unverified(notificationBody([item({}, 'SomeoneElseECOM')]), /another merchant account/);
    });

    it('the body is not a notification', () => {
      unverified('not json', /JSON/);
      unverified('{"notificationItems":[]}', /no notificationItems/);
      unverified(JSON.stringify({ notificationItems: [{ NotificationRequestItem: { eventCode: 'CAPTURE' } }] }), /malformed/);
    });

    it('the provider has no usable HMAC key', () => {
      const signedWithEmptyKey = signItem({ ...item() }, '');
      unverified(notificationBody([signedWithEmptyKey]), /HMAC key/, { ...parameters, HmacKey: '' });
    });
  });
});

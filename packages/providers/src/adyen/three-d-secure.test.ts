import type { AdyenChallengeOutcome } from '@gateway/provider-fakes';
import { describe, expect, it } from 'vitest';
import type { AuthenticationResult, AuthoriseRequest, ExternalThreeDs } from '../connector.js';
import type { ProviderNotification } from '../provider-type.js';
import { failureOf, kept, valueOf } from '../testing.js';
import { REFUSALS } from './codes.js';
import {
  attemptKey,
  authentication,
  card,
  CHALLENGE_BY_POST_CARD,
  cardSource,
  FRICTIONLESS_CARD,
  payment,
  REFUSED_AFTER_CHALLENGE_CARD,
  resultRequest,
  returnedTo,
  THREE_D_SECURE_CARD,
  VISA,
  contractForTests,
} from './testing.js';
import { BROWSER_DEFAULTS, challengeOf, mpiDataOf, threeDsOf } from './three-d-secure.js';
import { RETURN_URL } from './transformers.js';

const contract = contractForTests();
const fake = () => contract().fake;
const connector = () => contract().connector;
/** The /payments body the connector sent for an attempt, as the fake recorded it (card data masked). */
const sentFor = (req: AuthoriseRequest) =>
  fake().requests.find((r) => r.path === '/payments' && (r.body as { reference?: string } | undefined)?.reference === req.idempotencyKey)
    ?.body as Record<string, unknown>;
const stateOf = (result: AuthenticationResult) => result.state;

/** An attempt the payer can authenticate, answered with a challenge. */
async function challenged(number = THREE_D_SECURE_CARD, extra: Partial<AuthoriseRequest> = {}) {
  const { req, reverse } = kept(payment(cardSource(number), { authentication: authentication(), ...extra }));
  const value = valueOf(await connector().authorise(req));
  return { req, reverse, value, psp: value.providerChargeId };
}

/** The payer finishes the challenge on the fake's page; answers what the return to the gateway brings. */
const finish = (psp: string, outcome: AdyenChallengeOutcome) => returnedTo(fake().completeChallenge(psp, outcome));

describe('authorise with the payer’s authentication', () => {
  it('answers a challenge to send the browser to (GET), kept for a reversal, nothing authorised', async () => {
    const { req, reverse, value, psp } = await challenged();
    expect(value).toEqual({
      providerChargeId: psp,
      captured: false,
      amount: 1000n,
      card: expect.objectContaining({ last4: '1237' }),
      challenge: { redirect: { url: fake().challenge(psp)!.url, method: 'GET' } },
    });
    expect(value.challenge!.redirect.url.startsWith(`${new URL(fake().url).origin}/fake/3ds/${psp}?creq=`)).toBe(true);
    expect(reverse().providerData).toEqual({ pspReference: psp });
    expect(fake().payment(psp)).toMatchObject({ reference: req.idempotencyKey, resultCode: 'RedirectShopper', captured: 0 });
  });

  it('answers a challenge reached by a form POSTed with Adyen’s data', async () => {
    const { value, psp } = await challenged(CHALLENGE_BY_POST_CARD);
    const expected = fake().challenge(psp)!;
    expect(expected.data).toEqual({ creq: expect.any(String) });
    expect(value.challenge).toEqual({ redirect: { url: expected.url, method: 'POST', data: expected.data } });
  });

  it('sends Adyen the gateway’s return URL, the web channel, the origin and the whole browser, redirect only', async () => {
    const { req } = await challenged();
    const { browser, returnUrl, origin } = authentication();
    expect(sentFor(req)).toMatchObject({
      returnUrl,
      channel: 'Web',
      origin,
      browserInfo: browser,
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' } },
    });
    expect(sentFor(req).authenticationData).not.toHaveProperty('attemptAuthentication');
  });

  it('fills the browser fields the gateway does not know with the documented defaults', async () => {
    const req = payment(cardSource(), {
      authentication: authentication({ browser: { userAgent: 'UA/1', language: 'fr-FR', screenWidth: undefined } }),
    });
    valueOf(await connector().authorise(req));
    expect(sentFor(req).browserInfo).toEqual({ ...BROWSER_DEFAULTS, userAgent: 'UA/1', language: 'fr-FR' });
    expect(Object.keys(BROWSER_DEFAULTS).sort()).toEqual(
      ['acceptHeader', 'colorDepth', 'javaEnabled', 'language', 'screenHeight', 'screenWidth', 'timeZoneOffset', 'userAgent'].sort(),
    );
  });

  it('leaves out an origin longer than Adyen takes rather than cut it', async () => {
    const req = payment(cardSource(), { authentication: authentication({ origin: `https://${'a'.repeat(80)}.example` }) });
    valueOf(await connector().authorise(req));
    expect(sentFor(req)).not.toHaveProperty('origin');
  });

  it('asks Adyen to always authenticate when the merchant asks for any card', async () => {
    const req = payment(cardSource(VISA), { authentication: authentication({ request: 'any' }) });
    const value = valueOf(await connector().authorise(req));
    expect(sentFor(req).authenticationData).toEqual({ attemptAuthentication: 'always', threeDSRequestData: { nativeThreeDS: 'disabled' } });
    // The fake then has the issuer authenticate the card, frictionless.
    expect(value.threeDs).toEqual({ flow: 'frictionless', transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true });
  });

  it('takes a saved card as a payment the card holder makes (Ecommerce), challenged', async () => {
    const owner = `pm_${attemptKey().slice(0, 12)}`;
    const stored = fake().addStoredPaymentMethod({
      shopperReference: owner,
      number: CHALLENGE_BY_POST_CARD,
      expiryMonth: '03',
      expiryYear: '2030',
    });
    const req = payment(
      { type: 'stored_card', providerToken: stored, providerData: { shopperReference: owner } },
      { authentication: authentication() },
    );
    const value = valueOf(await connector().authorise(req));
    expect(sentFor(req)).toMatchObject({ shopperInteraction: 'Ecommerce', recurringProcessingModel: 'CardOnFile' });
    expect(value.challenge?.redirect.method).toBe('POST');
  });

  it('reads a frictionless authentication from the answer’s additionalData; without the payer, none takes place', async () => {
    const withPayer = valueOf(await connector().authorise(payment(cardSource(FRICTIONLESS_CARD), { authentication: authentication() })));
    expect(withPayer).toMatchObject({
      captured: false,
      threeDs: { flow: 'frictionless', transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true },
    });
    expect(withPayer).not.toHaveProperty('challenge');
    const without = valueOf(await connector().authorise(payment(cardSource(FRICTIONLESS_CARD))));
    expect(without).not.toHaveProperty('threeDs');
  });

  it('treats a redirect it cannot send a browser to as unreadable, keeping the payment for a reversal', async () => {
    const action = { type: 'redirect', method: 'GET', url: 'javascript:alert(1)' };
    fake().injectFault({ kind: 'answer', status: 200, body: { resultCode: 'RedirectShopper', pspReference: 'PSPOFTHEANSWER03', action } });
    const { req, reverse } = kept(payment(cardSource(THREE_D_SECURE_CARD), { authentication: authentication() }));
    expect(failureOf(await connector().authorise(req))).toMatchObject({ category: 'processor_error', gatewayCode: 'BAD_RESPONSE' });
    expect(reverse().providerData).toEqual({ pspReference: 'PSPOFTHEANSWER03' });
  });
});

describe('authorise without the payer', () => {
  it('refuses a card that needs authentication and cancels the payment Adyen held for the redirect', async () => {
    const req = payment(cardSource(THREE_D_SECURE_CARD));
    expect(failureOf(await connector().authorise(req))).toEqual({
      category: 'authentication_required',
      retryable: false,
      gatewayCode: 'RedirectShopper',
      gatewayMessage: 'The card needs 3-D Secure authentication',
    });
    expect(sentFor(req)).toMatchObject({ returnUrl: RETURN_URL });
    expect(sentFor(req)).not.toHaveProperty('channel');
    expect(
      fake()
        .payments()
        .filter((p) => p.reference === req.idempotencyKey),
    ).toMatchObject([{ resultCode: 'RedirectShopper', cancelled: true, modifications: [{ kind: 'cancel', status: 'succeeded' }] }]);
  });

  it('cancels such a payment when storing a card too', async () => {
    const idempotencyKey = attemptKey();
    const owner = `pm_${idempotencyKey.slice(0, 12)}`;
    const stored = await connector().storeCard({
      idempotencyKey,
      source: { type: 'card', card: card(THREE_D_SECURE_CARD) },
      ownerReference: owner,
    });
    expect(failureOf(stored)).toMatchObject({ category: 'authentication_required' });
    expect(
      fake()
        .payments()
        .filter((p) => p.reference === idempotencyKey),
    ).toMatchObject([{ cancelled: true }]);
  });
});

describe('authenticationResult', () => {
  it('after a completed challenge: asks /payments/details with the redirectResult and answers authorised, 3-D Secure Y', async () => {
    const { req, psp } = await challenged();
    const returned = finish(psp, 'complete');
    const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned })));
    expect(result).toEqual({
      state: 'authorised',
      authorisation: {
        providerChargeId: psp,
        captured: false,
        amount: 1000n,
        threeDs: { flow: 'challenge', transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true },
      },
    });
    const asked = fake().requests.filter((r) => r.path === '/payments/details');
    expect(asked.at(-1)).toMatchObject({
      body: { details: { redirectResult: returned.redirectResult } },
      idempotencyKey: `${req.idempotencyKey}:details`,
    });
    expect(fake().payment(psp)).toMatchObject({ resultCode: 'Authorised', captured: 0, cancelled: false });
  });

  it('captures a sale once authorised, the capture pending until Adyen’s notification', async () => {
    const { req, psp } = await challenged(THREE_D_SECURE_CARD, { capture: true });
    expect(fake().payment(psp)).toMatchObject({ captured: 0 });
    const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned: finish(psp, 'complete') })));
    expect(result).toMatchObject({
      state: 'authorised',
      authorisation: { captured: true, amount: 1000n, capture: { pending: true, providerReference: expect.any(String) } },
    });
    expect(fake().payment(psp)).toMatchObject({ captured: 1000, modifications: [{ kind: 'capture', value: 1000 }] });
  });

  it.each(['fail', 'cancel'] as const)(
    'after a challenge the payer chose to %s: failed, authentication required, 3-D Secure N',
    async (outcome) => {
      const { req, psp } = await challenged();
      const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned: finish(psp, outcome) })));
      expect(result).toEqual({
        state: 'failed',
        failure: {
          category: 'authentication_required',
          retryable: false,
          gatewayCode: 'REFUSED_11',
          gatewayMessage: REFUSALS['11']!.message,
        },
        threeDs: { flow: 'challenge', transStatus: 'N', eci: '07', version: '2.2.0', liabilityShift: false },
      });
      expect(fake().payment(psp)).toMatchObject({ resultCode: 'Refused', refusalReasonCode: '11' });
    },
  );

  it('after a passed challenge the issuer refused: failed with the refusal’s own category', async () => {
    const { req, psp } = await challenged(REFUSED_AFTER_CHALLENGE_CARD);
    const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned: finish(psp, 'complete') })));
    expect(result).toEqual({
      state: 'failed',
      failure: { category: 'do_not_honour', retryable: false, gatewayCode: 'REFUSED_2', gatewayMessage: REFUSALS['2']!.message },
      threeDs: expect.objectContaining({ transStatus: 'Y', liabilityShift: true }),
    });
  });

  it('through the fake’s page as a browser goes: the POSTed form, the password, the return', async () => {
    const { req, value, psp } = await challenged(CHALLENGE_BY_POST_CARD);
    const { url, data } = value.challenge!.redirect;
    const page = await fetch(url, { method: 'POST', body: new URLSearchParams(data) });
    const html = await page.text();
    expect(html).toContain('Complete authentication');
    const action = new URL(/action="([^"]+)"/.exec(html)![1]!, url);
    const verdict = new URLSearchParams({ creq: data!.creq!, password: 'password', outcome: 'complete' });
    const back = await fetch(action, { method: 'POST', body: verdict, redirect: 'manual' });
    expect(back.status).toBe(303);
    const location = back.headers.get('location')!;
    expect(location.startsWith(`${authentication().returnUrl}&redirectResult=`)).toBe(true);
    const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned: returnedTo(location) })));
    expect(result).toMatchObject({ state: 'authorised', authorisation: { threeDs: { transStatus: 'Y', eci: '02' } } });
  });

  it('answers the same again when asked again with the same key (Adyen replays it)', async () => {
    const { req, psp } = await challenged();
    const ask = resultRequest(req, psp, { returned: finish(psp, 'complete') });
    const first = valueOf(await connector().authenticationResult(ask));
    expect(valueOf(await connector().authenticationResult(ask))).toEqual(first);
  });

  it('copes with a redirectResult Adyen already read (704): waiting, or as notified', async () => {
    const { req, psp } = await challenged();
    const returned = finish(psp, 'complete');
    valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned })));
    const otherKey = resultRequest(req, psp, { returned, idempotencyKey: attemptKey() });
    expect(valueOf(await connector().authenticationResult(otherKey))).toEqual({ state: 'waiting' });
    const notified = { success: true, threeDs: { transStatus: 'Y' as const } };
    expect(stateOf(valueOf(await connector().authenticationResult({ ...otherKey, notified })))).toBe('authorised');
  });

  it('refuses a return brought from another payment', async () => {
    const mine = await challenged();
    const other = await challenged();
    const returned = finish(other.psp, 'complete');
    expect(failureOf(await connector().authenticationResult(resultRequest(mine.req, mine.psp, { returned })))).toMatchObject({
      category: 'invalid_request',
      retryable: false,
      gatewayCode: 'OTHER_PAYMENT',
    });
    expect(fake().payment(mine.psp)).toMatchObject({ resultCode: 'RedirectShopper', captured: 0 });
  });

  it('reads threeDS2Result alone (Adyen sends additionalData only when its settings ask for it), the flow a challenge', async () => {
    const { req, psp } = await challenged();
    const returned = finish(psp, 'complete');
    const threeDS2Result = { transStatus: 'Y', eci: '05', messageVersion: '2.1.0', dsTransID: 'a3b1c0de-0000-4000-8000-000000000001' };
    fake().injectFault(
      { kind: 'answer', status: 200, body: { resultCode: 'Authorised', pspReference: psp, threeDS2Result } },
      { path: '/payments/details' },
    );
    expect(valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned })))).toEqual({
      state: 'authorised',
      authorisation: {
        providerChargeId: psp,
        captured: false,
        amount: 1000n,
        threeDs: { flow: 'challenge', transStatus: 'Y', eci: '05', version: '2.1.0' },
      },
    });
  });

  it('answers waiting while Adyen has not decided', async () => {
    const { req, psp } = await challenged();
    const returned = finish(psp, 'complete');
    fake().injectFault({ kind: 'answer', status: 200, body: { resultCode: 'Pending', pspReference: psp } }, { path: '/payments/details' });
    expect(valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned })))).toEqual({ state: 'waiting' });
  });

  describe('from the AUTHORISATION notification alone (the payer never came back)', () => {
    /** The notification the fake sent for the payment, as the gateway reads it. */
    const notificationOf = async (psp: string): Promise<ProviderNotification> => {
      await fake().flushNotifications();
      const all = contract().receiver.reads.flatMap((read) => (read.ok ? read.notifications : []));
      return all.find((n) => n.event === 'authorisation' && n.providerChargeId === psp)!;
    };

    it('authorised, with the notification’s 3-D Secure outcome; a sale captured', async () => {
      const { req, psp } = await challenged(THREE_D_SECURE_CARD, { capture: true });
      finish(psp, 'complete');
      const { success, failure, threeDs } = await notificationOf(psp);
      const before = fake().requests.length;
      const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { notified: { success, failure, threeDs } })));
      expect(result).toEqual({
        state: 'authorised',
        authorisation: {
          providerChargeId: psp,
          captured: true,
          amount: 1000n,
          capture: { pending: true, providerReference: expect.any(String) },
          threeDs: { flow: 'challenge', transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true },
        },
      });
      expect(
        fake()
          .requests.slice(before)
          .map((r) => r.operation),
      ).toEqual(['/payments/{paymentPspReference}/captures']);
    });

    it('failed, with the notification’s failure', async () => {
      const { req, psp } = await challenged();
      finish(psp, 'fail');
      const { success, failure, threeDs } = await notificationOf(psp);
      const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { notified: { success, failure, threeDs } })));
      expect(result).toEqual({
        state: 'failed',
        failure: expect.objectContaining({ category: 'authentication_required', gatewayCode: 'REFUSED_11' }),
        threeDs: expect.objectContaining({ flow: 'challenge', transStatus: 'N', liabilityShift: false }),
      });
    });
  });

  it('answers waiting with neither a return nor a notification, without asking Adyen (it cannot be asked)', async () => {
    const { req, psp } = await challenged();
    const before = fake().requests.length;
    expect(valueOf(await connector().authenticationResult(resultRequest(req, psp)))).toEqual({ state: 'waiting' });
    expect(fake().requests.length).toBe(before);
  });
});

describe('reverse of a payment waiting for the payer', () => {
  it.each([
    ['by its pspReference, kept', (reverse: ReturnType<typeof kept>['reverse']) => reverse(), 'reversal'],
    [
      'by its reference (technical cancel)',
      (reverse: ReturnType<typeof kept>['reverse']) => ({ ...reverse(), providerData: undefined }),
      'technicalCancel',
    ],
  ] as const)('cancels it %s; the payer finishing later authorises nothing', async (_, request, kind) => {
    const { req, reverse, psp } = await challenged();
    valueOf(await connector().reverse(request(reverse)));
    expect(fake().payment(psp)).toMatchObject({ cancelled: true, modifications: [{ kind, status: 'succeeded' }] });
    const result = valueOf(await connector().authenticationResult(resultRequest(req, psp, { returned: finish(psp, 'complete') })));
    expect(result).toEqual({
      state: 'failed',
      failure: {
        category: 'authentication_required',
        retryable: false,
        gatewayCode: 'Cancelled',
        gatewayMessage: 'The payment was cancelled before 3-D Secure authentication ended',
      },
    });
    expect(fake().payment(psp)).toMatchObject({ resultCode: 'Cancelled', captured: 0 });
  });
});

describe('an authentication the merchant ran (mpiData)', () => {
  const external = (changes: Partial<ExternalThreeDs> = {}): ExternalThreeDs => ({
    eci: '05',
    authenticationValue: Buffer.alloc(20, 9).toString('base64'),
    dsTransID: 'c4e59ceb-a382-4d6a-bc87-385d591fa09d',
    threeDsVersion: '2.2.0',
    transStatus: 'Y',
    ...changes,
  });

  it('is passed as mpiData, and the payment’s 3-D Secure outcome follows it', async () => {
    const passed = external();
    const req = payment(cardSource(THREE_D_SECURE_CARD), { externalThreeDs: passed });
    const value = valueOf(await connector().authorise(req));
    expect(sentFor(req).mpiData).toEqual({
      cavv: passed.authenticationValue,
      eci: '05',
      dsTransID: passed.dsTransID,
      threeDSVersion: '2.2.0',
      directoryResponse: 'Y',
      authenticationResponse: 'Y',
    });
    expect(value).toMatchObject({ captured: false, threeDs: { transStatus: 'Y', eci: '05', version: '2.2.0', liabilityShift: true } });
    expect(value).not.toHaveProperty('challenge');
  });

  it('passes an attempt (A) and reads Adyen’s liability shift for it', async () => {
    const value = valueOf(
      await connector().authorise(payment(cardSource(VISA), { externalThreeDs: external({ transStatus: 'A', eci: '06' }) })),
    );
    expect(value.threeDs).toEqual({ transStatus: 'A', eci: '06', version: '2.2.0', liabilityShift: true });
  });

  it('passes a rejection (R) as the directory’s answer alone, and Adyen refuses the payment', async () => {
    const req = payment(cardSource(VISA), { externalThreeDs: external({ transStatus: 'R', eci: '07' }) });
    expect(failureOf(await connector().authorise(req))).toMatchObject({ category: 'authentication_required', gatewayCode: 'REFUSED_11' });
    expect(sentFor(req).mpiData).toMatchObject({ directoryResponse: 'R' });
    expect(sentFor(req).mpiData).not.toHaveProperty('authenticationResponse');
  });

  it('without a transStatus, sends neither response', () => {
    expect(mpiDataOf(external({ transStatus: undefined }))).toEqual({
      cavv: expect.any(String),
      eci: '05',
      dsTransID: expect.any(String),
      threeDSVersion: '2.2.0',
    });
  });
});

describe('reading what Adyen reports', () => {
  it('takes threeDS2Result before additionalData', () => {
    const reported = {
      threeDS2Result: { transStatus: 'N', eci: '07', messageVersion: '2.1.0' },
      additionalData: {
        threeDOffered: 'true',
        threeDAuthenticatedResponse: 'Y',
        eci: '05',
        threeDSVersion: '2.2.0',
        liabilityShift: 'false',
      },
    };
    expect(threeDsOf(reported, 'challenge')).toEqual({
      flow: 'challenge',
      transStatus: 'N',
      eci: '07',
      version: '2.1.0',
      liabilityShift: false,
    });
  });

  it('reads additionalData alone, the flow from the directory’s answer', () => {
    const data = (directory: string) => ({
      additionalData: {
        threeDOffered: 'true',
        threeDOfferedResponse: directory,
        threeDAuthenticated: 'true',
        eci: '02',
        threeDSVersion: '2.2.0',
        liabilityShift: 'true',
      },
    });
    expect(threeDsOf(data('C'))).toEqual({ flow: 'challenge', transStatus: 'Y', eci: '02', version: '2.2.0', liabilityShift: true });
    expect(threeDsOf(data('Y'))?.flow).toBe('frictionless');
  });

  it('tells nothing when 3-D Secure took no part', () => {
    expect(
      threeDsOf({ additionalData: { threeDOffered: 'false', threeDAuthenticated: 'false', liabilityShift: 'false' } }),
    ).toBeUndefined();
    expect(threeDsOf({})).toBeUndefined();
  });

  it.each([
    [{ type: 'redirect', url: 'ftp://acs.example/x' }],
    [{ type: 'redirect', url: 'not a url' }],
    [{ type: 'redirect', method: 'PUT', url: 'https://acs.example/x' }],
    [{ type: 'threeDS2', url: 'https://acs.example/x' }],
    [{ type: 'redirect', method: 'POST', url: 'https://acs.example/x', data: { n: 1 } }],
  ])('sends no browser to an action it cannot follow: %j', (action) => {
    expect(challengeOf(action)).toBeUndefined();
  });
});

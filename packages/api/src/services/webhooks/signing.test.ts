import { describe, expect, it } from 'vitest';
import { signature } from './signing';

/** The webhook sample of wire.md §4: the .NET and PHP clients' tests (and the Java client's older one) use this body. */
const CHARGE =
  '"chargeId":"3f83ab8fdf624c649bc70bbba81d6c2b","providerChargeId":"ch_3MYd2tE9mXU4onpB0r5iTsiL","amount":20,"providerId":"a26c371f-94f6-40da-add2-28ec8e9da8ed","paymentInformation":{"paymentMethodId":"80da8c2d674b4d2e8c65a6520e89d070","card":{"cardNumber":"4111********1111","expiryDate":"12/25","type":"VISA","cardType":"CREDIT","cardIin":"411"},"type":"CARD"},"customerId":"025c73d9cd0540e9a5a997f8ba97c732","status":"SUCCESS","dateAdded":"2023-02-06T22:20:19.0461561Z","successDate":"2023-02-06T22:20:20.8655832Z","estimatedCost":0.20,"estimatedCostCurrency":"AUD","currency":"Aud","refunds":[],"threeDsVerified":false';
const meta = (messageId: string, timestamp: string) =>
  `"meta":{"messageId":"${messageId}","timestamp":"${timestamp}","type":"transaction","eventType":"transaction.status.changed"}`;

const VECTORS = [
  {
    sdks: '.NET and PHP (data first)',
    key: 'dCM6l9ngZMJXVappk73yS607k1K7byfyzTTdToaKMa8=',
    body: `{"data":{${CHARGE}},${meta('bc4f056315d6e0205ab085dde45c4a46', '2023-01-19T20:37:12.8456589Z')}}`,
    signature: 'rDYP2MxMKvvmoV2KrbOi4pnelHnVJoFYdBegvCK7IQk=',
  },
  {
    sdks: 'Java (meta first, a 64-byte key)',
    key: 'NudPPrpKD1Av5Ppp58/refgt7I/fq5UaFj+WPye5gPACdcp4oBH6cwvXEhEDLPHKFBIqymjfFlqwb3uKxxBoSg==',
    body: `{${meta('ba73140b-1cf3-4739-b013-797d7f453389', '2023-05-29T20:09:09.6239083Z')},"data":{${CHARGE}}}`,
    signature: 'NouNAqBs+nXf14cNSttXJ1cqnjsZCgEZBr6DktVZLpI=',
  },
];

describe('X-Payfurl-Signature', () => {
  it.each(VECTORS)('matches the client SDKs’ test vector: $sdks', ({ key, body, signature: expected }) => {
    expect(signature(key, body)).toBe(expected);
  });

  it('keys with the key text itself, not its Base64 decoding, and covers every body byte', () => {
    const [{ key, body, signature: expected }] = VECTORS as [(typeof VECTORS)[0]];
    expect(signature(Buffer.from(key, 'base64').toString('latin1'), body)).not.toBe(expected);
    expect(signature(key, `${body} `)).not.toBe(expected);
  });
});

import type { Scenario } from './run';

/** A captured AUD card charge through the named provider: the gateway's main write path. */
export const chargeCard: Scenario = {
  name: 'POST /charge/card',
  request: ({ secretKey, providerId }) => ({
    method: 'POST',
    path: '/charge/card',
    headers: { 'content-type': 'application/json', 'x-secretkey': secretKey },
    body: JSON.stringify({
      amount: 10,
      currency: 'AUD',
      providerId,
      reference: 'bench',
      capture: true,
      paymentInformation: { cardNumber: '4111111111111111', expiryDate: '12/30', ccv: '123', cardholder: 'Bench Payer' },
    }),
  }),
};

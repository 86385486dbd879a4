import { CURRENCIES } from '@gateway/core';
import { CARD_OPERATIONS, type ProviderType } from '../provider-type.js';
import { createSimulatedConnector } from './connector.js';
import { applePay } from './simulator/wallet.js';

const parameter = (name: string, description: string) => ({ name, required: false, secret: false, description });

/** The simulated acquirer: every ISO 4217 currency, every operation; its parameters shape its behaviour. */
export const DUMMY: ProviderType = {
  type: 'dummy',
  displayName: 'Simulated acquirer',
  parameters: [
    parameter('MinMilliseconds', 'Least simulated latency of an answer (0–60000, default 20)'),
    parameter('MaxMilliseconds', 'Most simulated latency of an answer (0–60000, default 150)'),
    parameter('TimeoutMilliseconds', 'How long the gateway waits for an answer (100–60000, default 10000)'),
    parameter('SettlementDelayMilliseconds', 'How long a bank or PayTo debit stays pending (default 2000)'),
  ],
  // Ranges are checked by the gateway's provider service (services/providers/provider-types.ts).
  checkParameters: (parameters) => ({ ok: true, parameters: { ...parameters } }),
  currencies: [...CURRENCIES.keys()],
  providerAmount: (currency, isoMinor) => (CURRENCIES.has(currency) ? isoMinor : undefined),
  operations: new Set([...CARD_OPERATIONS, 'networkToken', 'bankAccountDebit', 'payTo', 'applePay', 'threeDsRedirect', 'externalThreeDs']),
  // The simulated acquirer runs inside the gateway (or at GATEWAY_SIMULATOR_URL): the gateway passes its URL.
  endpoint: () => '',
  connector: ({ baseUrl, timeoutMs, simulation }) =>
    createSimulatedConnector({
      baseUrl,
      timeoutMs,
      latency: simulation?.latency ?? { minMs: 0, maxMs: 0 },
      settlementDelayMs: simulation?.settlementDelayMs,
      issuerPageUrl: simulation?.issuerPageUrl,
    }),
  // The test format's data is base64 JSON holding the card number (simulator/wallet.ts).
  walletCardNumber(paymentData) {
    try {
      return applePay(paymentData, 'paymentData').card.number;
    } catch {
      return undefined;
    }
  },
};

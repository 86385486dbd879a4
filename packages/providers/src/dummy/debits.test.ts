import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebitAccount, DebitRequest, PayToAgreementRequest, ProviderConnector } from '../connector.js';
import type { Simulator } from './simulator/server.js';
import { DECLINED_PAY_ID, TEST_BANK_ACCOUNTS } from './simulator/test-accounts.js';
import { failureOf, startClockedSimulator, valueOf } from './testing.js';

const SETTLEMENT_DELAY_MS = 3 * 24 * 60 * 60 * 1000;

let sim: Simulator;
let connector: ProviderConnector;
let advance: (ms: number) => void;

beforeAll(async () => {
  ({ sim, connector, advance } = await startClockedSimulator({}, SETTLEMENT_DELAY_MS));
});
afterAll(() => sim.close());

const bankAccount = (accountNumber = '12345678'): DebitAccount => ({
  type: 'bank_account',
  bankCode: '062000',
  accountNumber,
  accountName: 'A Payer',
});

function debitRequest(account = bankAccount(), amount = 1000n): DebitRequest {
  return { idempotencyKey: randomUUID(), amount, currency: 'AUD', account, reference: 'invoice 1' };
}

async function debit(account = bankAccount(), amount = 1000n): Promise<string> {
  return valueOf(await connector.debit(debitRequest(account, amount))).providerChargeId;
}

const stateOf = async (providerChargeId: string) => valueOf(await connector.paymentState({ providerChargeId }));

describe('bank account debits', () => {
  it('are pending until the settlement delay has passed, then settle', async () => {
    const id = await debit();
    expect(id).toMatch(/^dd_/);
    expect(await stateOf(id)).toEqual({ state: 'pending' });
    advance(SETTLEMENT_DELAY_MS - 1);
    expect(await stateOf(id)).toEqual({ state: 'pending' });
    advance(1);
    expect(await stateOf(id)).toEqual({ state: 'settled' });
  });

  it.each([
    ['0000', '51', 'insufficient_funds'],
    ['9999', '78', 'do_not_honour'],
  ])('fail on accounts ending in %s (%s, %s), once due', async (suffix, gatewayCode, category) => {
    const id = await debit(bankAccount(`1234${suffix}`));
    expect(await stateOf(id)).toEqual({ state: 'pending' });
    advance(SETTLEMENT_DELAY_MS);
    expect(await stateOf(id)).toEqual({ state: 'failed', failure: expect.objectContaining({ category, gatewayCode, retryable: false }) });
    expect(failureOf(await connector.refund({ providerChargeId: id, amount: 1n, idempotencyKey: randomUUID() }))).toMatchObject({
      category: 'invalid_request',
    });
  });

  it('list the failing accounts in the test data', () => {
    expect(TEST_BANK_ACCOUNTS.map((a) => [a.suffix, a.responseCode])).toEqual([
      ['0000', '51'],
      ['9999', '78'],
    ]);
  });

  it('are refunded once settled, up to the amount; never captured or voided', async () => {
    const id = await debit();
    const key = () => randomUUID();
    expect(failureOf(await connector.refund({ providerChargeId: id, amount: 1n, idempotencyKey: key() })).category).toBe('invalid_request');
    expect(failureOf(await connector.capture({ providerChargeId: id, amount: 1n, idempotencyKey: key() })).category).toBe(
      'invalid_request',
    );
    expect(failureOf(await connector.void({ providerChargeId: id, idempotencyKey: key() })).category).toBe('invalid_request');

    advance(SETTLEMENT_DELAY_MS);
    valueOf(await connector.refund({ providerChargeId: id, amount: 600n, idempotencyKey: key() }));
    expect(failureOf(await connector.refund({ providerChargeId: id, amount: 401n, idempotencyKey: key() })).category).toBe('over_limit');
    valueOf(await connector.refund({ providerChargeId: id, amount: 400n, idempotencyKey: key() }));
    expect(sim.ledger.debits().find((d) => d.id === id)).toMatchObject({ state: 'settled', amount: 1000n, refunded: 1000n });
  });

  it('are idempotent by key', async () => {
    const req = debitRequest();
    const first = valueOf(await connector.debit(req));
    expect(valueOf(await connector.debit(req))).toEqual(first);
    expect(failureOf(await connector.debit({ ...req, amount: 999n }))).toMatchObject({ gatewayCode: '94' });
    expect(sim.ledger.debits({ idempotencyKey: req.idempotencyKey })).toHaveLength(1);
  });

  it('answer not_found for the state of an unknown payment', async () => {
    expect(failureOf(await connector.paymentState({ providerChargeId: 'dd_nope' }))).toMatchObject({ category: 'not_found' });
  });
});

describe('PayTo', () => {
  const agreement = (changes: Partial<PayToAgreementRequest> = {}): PayToAgreementRequest => ({
    idempotencyKey: randomUUID(),
    payerName: 'A Payer',
    payId: 'payer@example.com',
    payIdType: 'EMAIL',
    description: 'Monthly plan',
    maximumAmount: 5000n,
    currency: 'AUD',
    ...changes,
  });

  it('debits an active agreement up to its maximum amount, and settles like a bank debit', async () => {
    const req = agreement();
    const created = valueOf(await connector.createPayToAgreement(req));
    expect(created).toEqual({ agreementId: expect.stringMatching(/^pta_/), status: 'ACTIVE' });
    expect(valueOf(await connector.createPayToAgreement(req))).toEqual(created);

    const account: DebitAccount = { type: 'payto', agreementId: created.agreementId };
    expect(failureOf(await connector.debit(debitRequest(account, 5001n)))).toMatchObject({ category: 'over_limit', gatewayCode: '61' });
    const id = await debit(account, 5000n);
    expect(await stateOf(id)).toEqual({ state: 'pending' });
    advance(SETTLEMENT_DELAY_MS);
    expect(await stateOf(id)).toEqual({ state: 'settled' });
  });

  it('is refused for the declining PayID', async () => {
    const failure = failureOf(await connector.createPayToAgreement(agreement({ payId: DECLINED_PAY_ID })));
    expect(failure).toMatchObject({ category: 'do_not_honour', gatewayCode: '05' });
  });

  it('cannot debit an unknown agreement', async () => {
    const failure = failureOf(await connector.debit(debitRequest({ type: 'payto', agreementId: 'pta_nope' })));
    expect(failure).toMatchObject({ category: 'not_found' });
  });
});

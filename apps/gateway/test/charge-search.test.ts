import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, startTestGateway, VISA_AU, type TestAccount, type TestGateway } from './harness';

let t: TestGateway;
let a: TestAccount;
const ids: Record<string, string> = {};
const providerChargeIds: Record<string, string> = {};

type ChargeList = { limit: number; skip: number; count: number; charges: Array<Record<string, unknown>> };

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  const [first, second] = a.providerIds;
  const make = async (name: string, body: Record<string, unknown>) => {
    const r = await a.api.post('/charge/card', { providerId: first, paymentInformation: card(), ...body });
    ids[name] = String(r.body.chargeId ?? (r.body.details as Record<string, string>).chargeId);
    providerChargeIds[name] = String(r.body.providerChargeId);
  };
  await make('small', { amount: 5, reference: 'search-small', email: 'Ann.Payer@example.com' });
  await make('mid', {
    amount: 50,
    reference: 'search-mid',
    email: 'mia@shop.example',
    paymentInformation: card('5555555555554444', { cardholder: 'Mia Master' }),
  });
  await make('big', { amount: 500.5, reference: 'search-big', providerId: second, paymentInformation: card(VISA_AU) });
  await make('auth', { amount: 70, reference: 'search-auth', capture: false });
  await make('failed', { amount: 9, reference: 'search-failed', paymentInformation: card('4000000000000002') });
  await a.api.delete(`/charge/${ids.mid}?amount=10`);
  // Another account's charge with the same reference must never show up.
  const other = await createAccount(t, undefined, { throughCommand: true });
  await other.api.post('/charge/card', {
    amount: 5,
    reference: 'search-small',
    email: 'Ann.Payer@example.com',
    providerId: other.providerIds[0],
    paymentInformation: card(),
  });
});
afterAll(() => t.close());

async function search(query: string): Promise<ChargeList> {
  const { status, body } = await a.api.get<ChargeList>(`/charge?${query}`);
  expect(status).toBe(200);
  return body;
}
const found = (list: ChargeList) => list.charges.map((c) => c.chargeId);

describe('GET /charge', () => {
  it('lists the account’s charges newest first with limit, skip and count', async () => {
    const all = await search('');
    expect(all).toMatchObject({ limit: 20, skip: 0, count: 5 });
    expect(found(all)).toEqual([ids.failed, ids.auth, ids.big, ids.mid, ids.small]);
    const page = await search('Limit=2&Skip=1');
    expect(page).toMatchObject({ limit: 2, skip: 1, count: 5 });
    expect(found(page)).toEqual([ids.auth, ids.big]);
  });

  it.each([
    ['Reference=search-mid', ['mid']],
    ['reference=search-small', ['small']],
    ['AmountGreaterThan=9&AmountLessThan=500.5', ['auth', 'mid']],
    ['AmountGreaterThan=500.49', ['big']],
    ['Status=SUCCESS', ['big', 'small']],
    ['status=partial_refund', ['mid']],
    ['Status=AUTHORISE', ['auth']],
    ['Status=FAILED', ['failed']],
    ['CardType=MASTERCARD', ['mid']],
    ['CardNumber=424242', ['big']],
    ['CardNumber=4242424242424242', ['big']],
    ['CardNumber=5555555555550000', []],
    ['Cardholder=Mia%20Master', ['mid']],
    ['Currency=AUD&PaymentType=CARD&Limit=1', ['failed']],
    ['Currency=USD', []],
    ['CustomerId=abc', []],
  ])('filters by %s', async (query, expected) => {
    const list = await search(query);
    expect(found(list)).toEqual(expected.map((name) => ids[name]));
  });

  it.each([
    ['Query=ann.PAYER', 'part of the email, any letter case', ['small']],
    ['query=MID', 'part of the reference', ['mid']],
    ['Query=4444', 'the last four digits', ['mid']],
    ['Query=1111', 'the last four digits', ['auth', 'small']],
    ['Query=search%204242', 'every word, each in a field of its own', ['big']],
    ['Query=%25', 'LIKE’s wildcards as plain characters', []],
    ['ReferenceContains=ARCH-sm', 'ReferenceContains', ['small']],
    ['Email=shop.EXAMPLE', 'Email', ['mid']],
    ['CardLast4=4242', 'CardLast4', ['big']],
    ['CardLast4=1111&Status=AUTHORISE', 'CardLast4 with another filter', ['auth']],
  ])('finds by %s (%s, our extension), only the account’s own', async (query, _what, expected) => {
    expect(found(await search(query))).toEqual(expected.map((name) => ids[name]));
  });

  it('finds by the charge id and the provider’s charge id', async () => {
    expect(found(await search(`Query=${ids.big}`))).toEqual([ids.big]);
    expect(found(await search(`Query=${encodeURIComponent(providerChargeIds.mid!)}`))).toEqual([ids.mid]);
  });

  it('filters by provider and by date, in the formats client SDKs send', async () => {
    expect(found(await search(`ProviderId=${a.providerIds[1]}`))).toEqual([ids.big]);
    const future = new Date(Date.now() + 86_400_000);
    const past = new Date(Date.now() - 86_400_000);
    const netFormat = (d: Date) =>
      d
        .toISOString()
        .replace('T', ' ')
        .replace(/:(\d\d):(\d\d)\..*$/, ': $1:$2');
    expect((await search(`AddedAfter=${encodeURIComponent(netFormat(past))}`)).count).toBe(5);
    expect((await search(`AddedBefore=${encodeURIComponent(past.toISOString())}`)).count).toBe(0);
    expect((await search(`addedBefore=${future.getTime()}`)).count).toBe(5);
  });

  it('sorts by amount when asked', async () => {
    const list = await search('SortBy=Amount');
    expect(found(list)).toEqual([ids.big, ids.auth, ids.mid, ids.failed, ids.small]);
  });

  it.each([
    'Limit=0',
    'Limit=101',
    'Skip=-1',
    'Limit=ten',
    'AddedAfter=yesterday',
    'Status=LOST',
    'SortBy=Colour',
    'AmountGreaterThan=lots',
    'CardLast4=424',
    'CardLast4=42a2',
    `Query=${'a'.repeat(201)}`,
    `Email=${'a'.repeat(201)}`,
    `ReferenceContains=${'a'.repeat(201)}`,
    // A full card number is no free text to search by: refused before anything is matched or logged.
    'Query=order 4111111111111111',
    'Email=4111111111111111@example.com',
    'ReferenceContains=4111-1111-1111-1111',
  ])('refuses %s with a 4xx error body', async (query) => {
    const { status, body } = await a.api.get(`/charge?${query}`);
    expect(status).toBe(400);
    expect([2, 90]).toContain(body.code);
  });
});

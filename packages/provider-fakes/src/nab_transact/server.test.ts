import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskedMessage, startFakeNab, type FakeNab } from './server.js';

// The fake's own contract: what its journal keeps of a card, however the message writes it.
let fake: FakeNab;
beforeAll(async () => {
  fake = await startFakeNab({ merchantId: 'XYZ0010', password: 'abcd1234' });
});
afterAll(() => fake.close());

/** A Visa test number whose middle six digits (665566) appear nowhere else in the messages below. */
const PAN = '4000056655665556';
const MIDDLE = PAN.slice(6, 12);

const message = (cardInfo: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><NABTransactMessage><MerchantInfo><merchantID>XYZ0010</merchantID>` +
  `<password>abcd1234</password></MerchantInfo><RequestType>Payment</RequestType><Payment><TxnList count="1">` +
  `<Txn ID="1"><txnType>0</txnType><amount>1000</amount><purchaseOrderNo>mask-1</purchaseOrderNo>` +
  `<CreditCardInfo>${cardInfo}<expiryDate>12/30</expiryDate></CreditCardInfo></Txn></TxnList></Payment></NABTransactMessage>`;

const sent = async (xml: string) => {
  const answer = await fetch(`${fake.url}/xmlapi/payment`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: xml });
  await answer.text();
  return fake.requests.at(-1)!.body;
};

describe('the fake NAB Transact’s journal', () => {
  it('keeps the first six and last four digits of a card number, and no CCV or password', async () => {
    const body = await sent(message(`<cardNumber>${PAN}</cardNumber><cvv>482</cvv>`));
    expect(body).toContain('<cardNumber>400005******5556</cardNumber>');
    expect(body).toContain('<cvv>***</cvv>');
    expect(body).toContain('<password>***</password>');
    expect(body).not.toContain('abcd1234');
    expect(body).toContain('<purchaseOrderNo>mask-1</purchaseOrderNo>');
  });

  it.each([
    ['spaces and lines around it', `<cardNumber>\n  ${PAN}\n</cardNumber>`],
    ['spaces between its groups', `<cardNumber>4000 0566 5566 5556</cardNumber>`],
    ['CDATA', `<cardNumber><![CDATA[${PAN}]]></cardNumber>`],
    ['a character reference', `<cardNumber>4000&#48;56655665556</cardNumber>`],
    ['a comment inside', `<cardNumber>400005<!-- x -->6655665556</cardNumber>`],
    ['an attribute on the element', `<cardNumber type="pan">${PAN}</cardNumber>`],
    ['a namespace prefix', `<n:cardNumber xmlns:n="urn:x">${PAN}</n:cardNumber>`],
    ['an element inside', `<cardNumber><part>400005665566</part>5556</cardNumber>`],
    ['the element twice', `<cardNumber>${PAN}</cardNumber><cardNumber>${PAN}</cardNumber>`],
    ['an attribute named cardNumber', `<card cardNumber="${PAN}"/>`],
  ])('masks a card number written with %s', async (_how, cardInfo) => {
    const body = await sent(message(cardInfo));
    expect(body).not.toContain(MIDDLE);
    expect(body.replace(/\D/g, '')).not.toContain(MIDDLE);
  });

  it('keeps nothing of a message that is not well-formed XML', async () => {
    const body = await sent(`<NABTransactMessage><cardNumber>${PAN}</cardNumber>`);
    expect(body).not.toContain(MIDDLE);
    expect(maskedMessage(`<a><cvv>482</a>`)).not.toContain('482');
  });
});

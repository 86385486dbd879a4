import { describe, expect, it } from 'vitest';
import { containsCardNumber } from './card-number-in-text';

const VISA = '4111111111111111';
/** Each digit of `digits` written by `write`. */
const eachDigit = (digits: string, write: (digit: string) => string) => [...digits].map(write).join('');
/** The card's digits in groups of four, `separator` between the groups. */
const grouped = (separator: string, digits = VISA) => digits.match(/\d{4}/g)!.join(separator);

describe('containsCardNumber finds a card number', () => {
  it.each([
    ['unbroken', VISA],
    ['in groups, in a sentence', 'ref 4111 1111 1111 1111 exp 12/30'],
    ['with dashes', 'card:5555-5555-5555-4444.'],
    ['in American Express groups', 'amex 3782 822463 10005'],
    ['between other digits', 'order 12 4242424242424242 2030'],
    ['glued to letters', 'x4000000000000002x'],
    ['glued to hex letters, in the shape of a token id', '4111111111111111deadbeef'],
    ['of Discover', '6011111111111117'],
    ['of JCB', '3530111333300000'],
    ['of 13 digits (Visa)', '4222222222222'],
    // Any punctuation or whitespace between the groups.
    ['with full stops', grouped('.')],
    ['with slashes', grouped('/')],
    ['with underscores', `card_${grouped('_')}`],
    ['with commas', grouped(',')],
    ['with tabs', grouped('\t')],
    ['with line breaks', 'card\r\n4111\n1111\r\n1111\n1111'],
    ['with several spaces', '4111   1111    1111  1111'],
    ['wrapped inside a group', 'card 4111 1111 11\n11 1111'],
    ['with en dashes', grouped('\u2013')],
    ['with em dashes and spaces', grouped(' \u2014 ')],
    ['with minus signs', grouped('\u2212')],
    ['with non-breaking hyphens', grouped('\u2011')],
    ['with dashes of several kinds', '5555\u20105555\u20125555-4444'],
    ['with spaces and dashes', '4111 1111-1111 1111'],
    ['with dashes and spaces around them', '4111 - 1111\u2013 1111 \u20141111'],
    ['with full-width hyphens', grouped('\uff0d')],
    ['with no-break spaces', grouped('\u00a0')],
    ['with narrow no-break spaces', grouped('\u202f')],
    ['with ideographic spaces', grouped('\u3000')],
    ['with a space in each', `card ${eachDigit(VISA, (d) => `${d} `)}`],
    ['in American Express groups with full stops', '3782.822463.10005'],
    // Invisible characters.
    ['with zero-width spaces', eachDigit(VISA, (d) => `${d}\u200b`)],
    ['with zero-width non-joiners', eachDigit(VISA, (d) => `${d}\u200c`)],
    ['with zero-width joiners', grouped('\u200d')],
    ['with word joiners', grouped('\u2060')],
    ['with byte order marks', grouped('\ufeff')],
    ['with soft hyphens', grouped('\u00ad')],
    ['with direction marks', grouped('\u200e')],
    ['with zero-width spaces beside spaces', grouped('\u200b \u200b')],
    ['in keycaps', eachDigit(VISA, (d) => `${d}\ufe0f\u20e3`)],
    // Digits of other scripts.
    ['in full-width digits', '４１１１ １１１１ １１１１ １１１１'],
    ['in Arabic-Indic digits', '٤١١١١١١١١١١١١١١١'],
    ['in Arabic-Indic digits, Mastercard', '٥٥٥٥ ٥٥٥٥ ٥٥٥٥ ٤٤٤٤'],
    ['in Persian digits', '۴۱۱۱-۱۱۱۱-۱۱۱۱-۱۱۱۱'],
    ['in Devanagari digits', '४१११ ११११ ११११ ११११'],
    ['in Thai digits', '๔๑๑๑๑๑๑๑๑๑๑๑๑๑๑๑'],
    ['in mathematical bold digits', '𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏'],
    ['in digits of several scripts', '4111 ١١١١ ११११ １１１１'],
    // Escaped, in URLs and what people paste.
    ['percent-encoded in a URL', `https://shop.example/hook?card=${eachDigit(VISA, (d) => `%3${d}`)}`],
    ['with percent-encoded spaces', `https://shop.example/3ds?ref=${grouped('%20')}`],
    ['with percent-encoded dashes', `https://shop.example/return?c=${grouped('%2D')}&d=${grouped('%2d')}`],
    ['with + for spaces in a query', `https://shop.example/return?c=${grouped('+')}`],
    ['after a + for a space in a query (not a phone number)', 'https://shop.example/?q=amex+378282246310005'],
    ['encoded twice, in a URL in a URL', 'https://shop.example/r?next=https%3A%2F%2Fx.example%2F%3Fc%3D4111%25201111%25201111%25201111'],
    ['as percent-encoded full-width digits', `https://shop.example/?c=${encodeURIComponent('４１１１１１１１１１１１１１１１')}`],
    ['with percent-encoded zero-width spaces', `https://shop.example/?c=${grouped('%E2%80%8B')}`],
    ['in a URL path', 'https://shop.example/orders/4111-1111-1111-1111/done'],
    ['among malformed escapes', `https://shop.example/?a=%zz&b=%E2%82&c=${grouped('%20')}&d=%`],
    ['as HTML decimal references', eachDigit(VISA, (d) => `&#${d.charCodeAt(0)};`)],
    ['as HTML hexadecimal references', eachDigit(VISA, (d) => `&#x3${d};`)],
    ['with HTML no-break spaces', grouped('&nbsp;')],
    ['with HTML en dashes', grouped('&ndash;')],
    ['as JavaScript \\u escapes', eachDigit(VISA, (d) => `\\u003${d}`)],
    ['as JavaScript \\u{} escapes', eachDigit(VISA, (d) => `\\u{3${d}}`)],
    ['as JavaScript \\x escapes', eachDigit(VISA, (d) => `\\x3${d}`)],
    ['as an HTML reference percent-encoded', `${encodeURIComponent('&#52;')}111 1111 1111 1111`],
  ])('%s', (_, text) => {
    expect(containsCardNumber(text)).toBe(true);
  });
});

describe('containsCardNumber lets through what is not a card number', () => {
  it.each([
    ['a timestamp in microseconds that passes Luhn, no scheme', '1700000000000050'],
    ['an order number that passes Luhn, no scheme', '1234567812345670'],
    ['an order number in groups that passes Luhn, no scheme', 'order 1234-5678-1234-5670'],
    ['a Visa prefix and length that fails Luhn', '4111111111111112'],
    ['20 digits in one group', '41111111111111111111'],
    ['a Mastercard prefix with 15 digits', '555555555555444'],
    ['many digits', '99999999999999999999999999'],
    ['timestamps', 'at 1764215432 (1764215432123 ms), 20261127035032'],
    // UUIDs whose digit runs, taken alone, would pass as card numbers.
    ['a UUID', 'cb38f6c6-27b1-4c43-8031-0323136f66eb'],
    ['a UUID in capitals, in text', 'method d5652c44-FA48-4167-8988-109f186c9f5c'],
    // Phone numbers.
    ['an Australian phone number', '+61 2 9876 5432'],
    ['a local phone number', '(02) 9876-5432'],
    ['a US toll-free number', '+1-800-555-0199'],
    ['a German mobile number whose 13 digits pass as a Visa', '+49 1512 3456704'],
    ['a German mobile number in a URI', 'tel:+4915123456704'],
    ['two phone numbers', 'call +61 412 345 678 or +61 2 9876 5432'],
    // Dates and times.
    ['an ISO date', '2026-11-27'],
    ['a day-first date', '27/11/2026'],
    ['an ISO date and time', '2026-11-27T03:50:32Z'],
    ['a date and time that would join into a Diners number', '30/11/2026 14:30:05'],
    ['a date and time that would join into a Visa number', '4/11/2026 14:03:00'],
    ['a range of dates that would join into a Mastercard number', '23-11-2026 - 25-11-2026'],
    ['a date and time with milliseconds', '2026.11.27 03:50:32.123'],
    ['a date then an order number', 'ref 12 Nov 2026 order 4111'],
    ['an invoice date and time', 'invoice 2026-11-23 12:00'],
    // Amounts and lists.
    ['an amount with thousands separators', '1,234,567.89'],
    ['an amount with a space', '4 111.11'],
    ['an amount in a currency', 'AUD 4,111.11'],
    ['an amount written the French way', '1 234 567,89 €'],
    ['a list of amounts that would join into a Visa number', 'paid 4,512.30, 1,200.00, 980.06'],
    ['a list of numbers that would join into a Visa number', 'invoices 4521, 3321, 9910, 2202'],
    ['amounts in CSV that would join into a Visa number', '4,512.30,1,200.00,980.06'],
    ['addresses', '10.0.0.1, 192.168.100.200'],
    // Bank account numbers.
    ['an IBAN whose groups would make a Diners number', 'FR34 3000 4000 1234 5670 0012 345'],
    ['that IBAN unbroken', 'FR3430004000123456700012345'],
    ['a German IBAN', 'DE89 3704 0044 0532 0130 00'],
    ['a British IBAN', 'GB82 WEST 1234 5698 7654 32'],
    // Escapes that decode to no card number, or do not decode.
    ['a per cent sign', '100% of 4111'],
    ['malformed escapes', 'https://shop.example/?q=%E2%82&x=%zz&y=%&z=%%34'],
    ['references out of range', '&#99999999; &#x110000; \\u{110000} 4111 1111'],
  ])('%s', (_, text) => {
    expect(containsCardNumber(text)).toBe(false);
  });
});

describe('containsCardNumber takes time in proportion to the text', () => {
  const SIZE = 100_000;
  const filled = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

  // Linear, each takes a few tens of milliseconds; backtracking that grows with the text would take seconds or hours.
  it.each([
    ['digits and spaces', filled('4 ')],
    ['digits and dashes', filled('4-')],
    ['a digit, then separators', `4${' -'.repeat(SIZE / 2)}x`],
    ['per cent signs', filled('%3')],
    ['percent-encoded digits', filled('%34')],
    ['HTML references', filled('&#52;')],
    ['JavaScript escapes', filled('\\u')],
    ['IBAN beginnings', filled('DE89 ')],
    ['date beginnings', filled('1-1-')],
    ['Arabic-Indic digits', filled('٤ ')],
    ['digits and zero-width spaces', filled('4\u200b')],
    ['phone number beginnings', filled('+4 ')],
    ['a list', filled('4, ')],
  ])('%s', (_, text) => {
    const start = performance.now();
    expect(containsCardNumber(text)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1_500);
  });
});

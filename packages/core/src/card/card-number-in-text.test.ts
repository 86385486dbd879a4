import { describe, expect, it } from 'vitest';
import { containsCardNumber, maskCardNumbers } from './card-number-in-text';

const VISA = '4111111111111111';
/** Each digit of `digits` written by `write`. */
const eachDigit = (digits: string, write: (digit: string) => string) => [...digits].map(write).join('');
/** The card's digits in groups of four, `separator` between the groups. */
const grouped = (separator: string, digits = VISA) => digits.match(/\d{4}/g)!.join(separator);
/** `text` percent-encoded `levels` times: each byte of it as `%XX`, then that text encoded again… */
const percentEncoded = (text: string, levels: number) => {
  let encoded = [...new TextEncoder().encode(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  for (let level = 1; level < levels; level += 1) encoded = encodeURIComponent(encoded);
  return encoded;
};
/** ASCII as its full-width form (U+FF01…U+FF5E), which NFKC folds back. */
const fullWidth = (text: string) => text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));

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
    // Any punctuation or symbol between the groups (Unicode's P and S), not a list of them.
    ['with carets', grouped('^')],
    ['with backticks', grouped('`')],
    ['with dollar signs', grouped('$')],
    ['with euro signs', grouped('\u20ac')],
    ['with degree signs', grouped('\u00b0')],
    ['with emoji', grouped('\u{1f4b3}')],
    ['with replacement characters', grouped('\ufffd')],
    // Caught before too (other punctuation and math symbols), kept as a review listed them.
    ['with vertical bars', grouped('|')],
    ['with asterisks', grouped('*')],
    ['with number signs', grouped('#')],
    ['with tildes', grouped('~')],
    ['with semicolons', grouped(';')],
    ['with colons', grouped(':')],
    ['with plus signs', grouped('+')],
    ['with dashes and spaces around them, again', '4111 - 1111 - 1111 - 1111'],
    ['with slashes and runs of spaces around them', '4111 /  1111 / 1111 / 1111'],
    ['with a dash among spaces', '4111-1111 1111-1111'],
    // Punctuation with spaces around it; a line broken after a separator.
    ['with full stops and spaces around them', '4111 . 1111 . 1111 . 1111'],
    ['with commas and spaces around them', '4111 , 1111 , 1111 , 1111'],
    ['with full stops, the line broken after one', '4111.1111.\n1111.1111'],
    ['with commas, the line broken after one', 'card 4111,1111,\r\n1111,1111'],
    // One mistyped separator: several kinds, in the groups printed on cards.
    ['with a full stop among spaces', '4111 1111 1111.1111'],
    ['with a slash among spaces and dashes', '5555 5555/5555-4444'],
    ['with a comma among full stops', 'card 4111.1111,1111.1111 exp 12/30'],
    ['with several kinds of separators, then its expiry', 'ref 4111 1111 1111.1111 12/30'],
    ['in American Express groups, several kinds of separators', '3782 822463.10005'],
    ['of 19 digits in groups, several kinds of separators', '4111 1111 1111 1112.001'],
    // Escapes in disguise, deeper, or broken.
    ['as full-width percent escapes', fullWidth(eachDigit(VISA, (d) => `%3${d}`))],
    ['as percent escapes with full-width digits', eachDigit(VISA, (d) => `%${fullWidth(`3${d}`)}`)],
    ['as a percent-encoded full-width per cent sign before ASCII hex', eachDigit(VISA, (d) => `%EF%BC%853${d}`)],
    ['as percent escapes with zero-width spaces in them', eachDigit(VISA, (d) => `%3\u200b${d}`)],
    ['percent-encoded four times', `https://shop.example/r?u=${percentEncoded(VISA, 4)}`],
    ['percent-encoded eight times', percentEncoded(grouped(' '), 8)],
    ['percent-encoded, a byte that is not UTF-8 between its groups', `${percentEncoded('4111', 1)}%FF${percentEncoded('111111111111', 1)}`],
    [
      'percent-encoded, a truncated UTF-8 sequence between its groups',
      `${percentEncoded('4111', 1)}%E2%80${percentEncoded('111111111111', 1)}`,
    ],
    ['percent-encoded, bytes that are not UTF-8 in its groups', `%34%31%FF%31%31%31%31%31%31%31%31%31%31%31%31%C0%31%31`],
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
    // Lists: an item ends at a comma, full stop, colon or semicolon followed by whitespace.
    ['a list of numbers, one a line, that would join into a Visa number', 'invoices 4521,\n3321,\n9910,\n2202'],
    ['a list of numbers with semicolons', 'invoices 4521; 3321; 9910; 2202'],
    ['a list of numbers with semicolons the French way', 'factures 4521 ; 3321 ; 9910 ; 2202'],
    ['a list of numbers with full stops, one a line', '4521.\n3321.\n9910.\n2202'],
    ['two phone numbers in a list, each a Luhn-valid Visa without its +', '+49 1512 3456704, +49 1512 3456704'],
    ['two phone numbers, one a line', '+49 1512 3456704,\n+49 1512 3456704'],
    ['a phone number, then a number on the next line', 'tel +49 1512 3456704;\n4111 order'],
    // Numbers with several kinds of separators that are not in a card's groups.
    ['amounts in CSV that would join into a Mastercard number', '4,512.00,1,200.00,980.86'],
    ['amounts written the French way that would join into a Mastercard number', '4 512,00 1 200,00 980,86'],
    ['a sum that would join into a Mastercard number', 'paid 5,512.10 + 1,200.00 = 6,712.00'],
    ['two phone numbers that would join into a Mastercard number', '0151-2345-6707 / 0151-2345-6705'],
    ['times of day that would join into a Diners number', '04:30-15:45, 16:00-17:31'],
    [
      'prices, each with its currency sign, that would join into a UnionPay number',
      '500361 \u20ac2974748 \u20ac8150 \u20ac421 \u20ac1736 \u20ac2712 \u20ac6023',
    ],
    ['prices in dollars that would join into a Visa number', '$4111 $1111 $1111 $1111'],
  ])('%s', (_, text) => {
    expect(containsCardNumber(text)).toBe(false);
  });
});

describe('containsCardNumber decodes escapes in escapes', () => {
  it('until a round changes nothing, and at most 8 levels deep: deeper ones stay text', () => {
    expect(containsCardNumber(percentEncoded(VISA, 8))).toBe(true);
    expect(containsCardNumber(percentEncoded(VISA, 9))).toBe(false);
  });
});

describe('containsCardNumber never throws', () => {
  const pieces = [
    '4',
    '1',
    '0',
    ' ',
    '.',
    ',',
    ', ',
    '-',
    '+',
    '%',
    '%3',
    '%34',
    '%FF',
    '%E2',
    '%80',
    '&#',
    '&#x',
    ';',
    '\\u',
    '\\u{',
    '\\x',
    '}',
    '\ud800',
    '\udc00',
    '\u0000',
    '\u200b',
    '\u0664',
    '\uff14',
    '\uff05',
    '\ufdfa',
    '\ufffd',
    '\ue000',
    'e',
    '\n',
  ];
  it('on any text made of digits, separators, escapes and their pieces, lone surrogates and NULs', () => {
    let seed = 17;
    const random = (below: number) => (seed = (seed * 48271) % 2147483647) % below;
    for (let i = 0; i < 20_000; i += 1) {
      const text = Array.from({ length: random(40) }, () => pieces[random(pieces.length)]).join('');
      expect(() => [containsCardNumber(text), maskCardNumbers(text, () => '*')]).not.toThrow();
    }
  });
});

describe('maskCardNumbers', () => {
  const mask = (digits: string) => `${digits.slice(0, 6)}…${digits.slice(-4)}`;
  it.each([
    ['a card number in groups', 'card 4111 1111 1111 1111 exp 12/30', 'card 411111…1111 exp 12/30'],
    ['two card numbers', '4111.1111.1111.1111 and 5555^5555^5555^4444!', '411111…1111 and 555555…4444!'],
    [
      'a card number in a percent-encoded URL, decoded',
      `/hook?c=${percentEncoded('4111-1111-1111-1111', 1)}&x=%2F`,
      '/hook?c=411111…1111&x=/',
    ],
    ['full-width digits', '４１１１ １１１１ １１１１ １１１１', '411111…1111'],
    ['a mistyped separator', 'ref 4111 1111 1111.1111.', 'ref 411111…1111.'],
  ])('masks %s, in the text made plain', (_, text, masked) => {
    expect(maskCardNumbers(text, mask)).toBe(masked);
    expect(containsCardNumber(maskCardNumbers(text, mask))).toBe(false);
  });

  it.each([
    ['text without one', 'order %2F1001 caf\u00e9'],
    ['a UUID and a date', 'cb38f6c6-27b1-4c43-8031-0323136f66eb 2026-11-27'],
    ['a phone number', '+49 1512 3456704'],
  ])('leaves %s as it is', (_, text) => {
    expect(maskCardNumbers(text, mask)).toBe(text);
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
    ['a list, one a line', filled('4,\n')],
    ['symbols', filled('4^')],
    ['several kinds of separators', filled('4 .')],
    ['groups of four, several kinds of separators', filled('4000 1111.')],
    ['full-width per cent signs', filled('\uff05\uff13')],
    ['full-width percent escapes', filled('\uff05\uff13\uff14')],
    ['escapes nested eight levels deep', filled(percentEncoded('4', 8))],
    ['escapes nested nine levels deep', filled(percentEncoded('4', 9))],
    ['Arabic-Indic digits and escapes nested eight levels deep', filled(`\u0664 ${percentEncoded('4', 8)} `)],
    ['bytes that are not UTF-8', filled('%FF')],
    ['currency signs', filled('4 \u20ac')],
  ])('%s', (_, text) => {
    const start = performance.now();
    expect(containsCardNumber(text)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1_500);
  });
});

/**
 * Whether free text holds a card number, in the disguises people and copy-pastes give it: any
 * whitespace or punctuation between its digits, invisible characters among them, digits of any
 * script, escapes of URLs, HTML and JavaScript. What only looks like one (UUIDs, dates, IBANs, phone
 * numbers, amounts, lists) is let through. docs/api.md ("No card number in free text") lists both
 * sides, docs/decisions.md says why. Every step is one pass over the text, without backtracking
 * that grows with it: free text is checked before its length is.
 */
import { findCountry } from '../country/countries';
import { LONGEST_CARD_NUMBER, passesLuhn, schemeLengthsOf, SHORTEST_CARD_NUMBER } from './card-number';

/**
 * Percent-encoded bytes (a run of them is one UTF-8 text), HTML's `&#52;`, `&#x34;` and named
 * entities (`&nbsp;`, `&ndash;`), JavaScript's `\u0034`, `\u{34}` and `\x34`.
 */
const ESCAPE =
  /(?:%[0-9a-f]{2})+|&#x([0-9a-f]{1,6});?|&#([0-9]{1,7});?|&[a-z][a-z0-9]{1,31};|\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})/gi;
const MAY_HOLD_ESCAPE = /[%&\\]/;
/** Escapes in escapes (a URL in a URL's query: `%2534` is `%34`, which is `4`) are decoded this deep. */
const ESCAPE_DEPTH = 3;
/** Malformed UTF-8 becomes U+FFFD, not an error: a bad escape is just text. */
const utf8 = new TextDecoder();

function decodeEscape(
  escape: string,
  hexEntity?: string,
  decimalEntity?: string,
  braced?: string,
  unicode?: string,
  byte?: string,
): string {
  if (escape.startsWith('%')) return utf8.decode(Uint8Array.from(escape.slice(1).split('%'), (hex) => parseInt(hex, 16)));
  // A named entity between digits is a space, a dash or nothing: a separator either way.
  if (!escape.startsWith('&#') && escape.startsWith('&')) return ' ';
  const code = decimalEntity === undefined ? parseInt(hexEntity ?? braced ?? unicode ?? byte ?? '', 16) : Number(decimalEntity);
  return code <= 0x10ffff ? String.fromCodePoint(code) : escape;
}

function decodeEscapes(text: string): string {
  let decoded = text;
  for (let depth = 0; depth < ESCAPE_DEPTH && MAY_HOLD_ESCAPE.test(decoded); depth += 1) {
    const next = decoded.replace(ESCAPE, decodeEscape);
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Zero-width spaces and joiners, word joiner, BOM, soft hyphen, direction marks (\p{Cf}); combining marks (a keycap's U+20E3). */
const INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}]/gu;
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;
const DECIMAL_DIGIT = /\p{Nd}/u;
const digitValues = new Map<string, string>();

/** A decimal digit of any script as 0–9: Unicode encodes each script's digits 0 to 9 in a row. */
function asciiDigit(digit: string): string {
  let value = digitValues.get(digit);
  if (value === undefined) {
    const code = digit.codePointAt(0) ?? 0;
    let zero = code;
    while (DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
    value = String((code - zero) % 10);
    digitValues.set(digit, value);
  }
  return value;
}

/** The text with its escapes decoded, compatibility forms folded (NFKC: full-width digits), invisible characters dropped and every digit in ASCII. */
function plainText(text: string): string {
  const decoded = decodeEscapes(text);
  if (!NON_ASCII.test(decoded)) return decoded;
  return decoded.normalize('NFKC').replace(INVISIBLE, '').replace(NON_ASCII_DIGIT, asciiDigit);
}

function digitCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count += 1;
  }
  return count;
}

/** Put in the place of what is not a card number: a symbol, neither a digit nor a separator. */
const NOT_A_CARD = '\uFFFC';
/**
 * A UUID (provider ids and others): about one random UUID in 2,600 holds a digit run that passes
 * as a card number, but it is an id, never a card. The gateway's hex ids are not skipped in free
 * text ("4111111111111111deadbeef" has their shape); an id field holding exactly one is not free
 * text (packages/api/src/binding.ts).
 */
const UUID = /(?<![0-9a-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z])/gi;
/**
 * 2026-11-27, 2026/11/27, 27/11/2026, 27.11.2026, 11-27-2026 (isDate), not inside a longer chain of
 * digits: a date range in dashes would otherwise join into 16 digits.
 */
const DATE_LIKE =
  /(?<![0-9][-/.]?)(?:(?:19|20)[0-9]{2}([-/.])[0-9]{1,2}\1[0-9]{1,2}|[0-9]{1,2}([-/.])[0-9]{1,2}\2(?:19|20)[0-9]{2})(?![-/.]?[0-9])/g;

/** Whether a date-like text names a month (1–12) and a day (1–31), in one order or the other. */
function isDate(text: string): boolean {
  const [first = 0, second = 0, third = 0] = text.split(/[-/.]/).map(Number);
  const [month, day] = first > 31 ? [second, third] : [Math.min(first, second), Math.max(first, second)];
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** What may be an IBAN, in capitals, unbroken or in groups of four; it is one when its country and check digits say so (isIban). */
const IBAN_LIKE = /(?<![0-9A-Za-z])[A-Z]{2}[0-9]{2}(?: ?[0-9A-Z]{4}){2,7}(?: ?[0-9A-Z]{1,4})?(?![0-9A-Za-z])/g;

/** ISO 13616: a country, and 15 to 34 characters whose number, country and check digits moved to the end, is 1 modulo 97. */
function isIban(text: string): boolean {
  const compact = text.replaceAll(' ', '');
  if (compact.length < 15 || compact.length > 34 || !findCountry(compact.slice(0, 2))) return false;
  let remainder = 0;
  for (const char of compact.slice(4) + compact.slice(0, 4)) {
    const value = parseInt(char, 36);
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return remainder === 1;
}

function withoutNonCards(text: string): string {
  return text
    .replace(UUID, NOT_A_CARD)
    .replace(DATE_LIKE, (candidate) => (isDate(candidate) ? NOT_A_CARD : candidate))
    .replace(IBAN_LIKE, (candidate) => (isIban(candidate) ? NOT_A_CARD : candidate));
}

/**
 * What people and copy-pastes put between the digits of a card number: any whitespace, any
 * punctuation (dashes of every kind, `.`, `/`, `_`, `,`…), math symbols (the minus sign; `+`, a
 * space in a URL's query), one or more of them; but a comma, full stop, colon or semicolon
 * followed by a space ends an item of a list or a sentence ("invoices 4521, 3321, 9910, 2202").
 */
const SEPARATOR = String.raw`(?:(?![,.:;][\s\p{Z}])[\s\p{P}\p{Z}\p{Sm}])+`;
const DIGIT_RUN = new RegExp(String.raw`[0-9]+(?:${SEPARATOR}[0-9]+)*`, 'gu');
const BETWEEN_GROUPS = new RegExp(SEPARATOR, 'u');
const SEPARATORS = new RegExp(SEPARATOR, 'gu');
/** Whitespace and dashes of every kind: as people type card numbers ("4111 1111-1111 1111"), one kind of separator. */
const SPACES_AND_DASHES = /[\s\p{Z}\p{Pd}\u2212]/gu;
/** E.164: a phone number has at most 15 digits, after a `+` that follows no letter or digit (in `card+4111…` it is a URL's space). */
const LONGEST_PHONE_NUMBER = 15;
const PHONE_PREFIX = new RegExp(String.raw`(?:^|[^\p{L}\p{N}${NOT_A_CARD}])\+$`, 'u');

/** A separator's kind: its other punctuation (`.`, `/`, `" / "`…), or a space if it has none. */
function kindOf(separator: string): string {
  return separator.replace(SPACES_AND_DASHES, '') || ' ';
}

/**
 * Whether consecutive whole groups of a run of digits, with the same kind of separator between
 * each, make a card number of a known scheme. A card number is written one way throughout
 * ("4111.1111.1111.1111"); mixed separators are dates with times, amounts, phone numbers
 * ("27/11/2026 14:30:00", "4 111.11", "(02) 9876-5432").
 */
function runHoldsCardNumber(run: string): boolean {
  const groups = run.split(BETWEEN_GROUPS);
  const kinds = Array.from(run.matchAll(SEPARATORS), ([separator]) => kindOf(separator));
  for (let first = 0; first < groups.length; first += 1) {
    let digits = '';
    let lengths: readonly number[] | undefined;
    for (let last = first; last < groups.length && digits.length < LONGEST_CARD_NUMBER; last += 1) {
      if (last > first + 1 && kinds[last - 1] !== kinds[first]) break;
      digits += groups[last];
      if (digits.length < SHORTEST_CARD_NUMBER) continue;
      // The scheme, hence its lengths, is known from the first digits: looked up once per first group.
      lengths ??= schemeLengthsOf(digits);
      if (lengths === undefined) break;
      if (lengths.includes(digits.length) && passesLuhn(digits)) return true;
    }
  }
  return false;
}

/**
 * Whether free text holds a card number: consecutive whole groups of a run of digits, separated
 * alike, that make a card number of a known scheme (its prefix, its length, and Luhn): "ref 4111
 * 1111 1111 1111 12/30" does, so do "４１１１…", "4111\u200b1111…" and "%34%31%31%31…";
 * "4111111111111111" glued to more digits does not. Order numbers and timestamps that merely pass
 * Luhn have no scheme's prefix and length, and pass; so do UUIDs, dates, IBANs and a run after `+`
 * of at most 15 digits (a phone number).
 */
export function containsCardNumber(text: string): boolean {
  const plain = plainText(text);
  if (digitCount(plain) < SHORTEST_CARD_NUMBER) return false;
  const scanned = withoutNonCards(plain);
  for (const { 0: run, index } of scanned.matchAll(DIGIT_RUN)) {
    const phoneNumber = PHONE_PREFIX.test(scanned.slice(Math.max(0, index - 2), index)) && digitCount(run) <= LONGEST_PHONE_NUMBER;
    if (!phoneNumber && runHoldsCardNumber(run)) return true;
  }
  return false;
}

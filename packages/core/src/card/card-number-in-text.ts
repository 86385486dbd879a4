/**
 * Whether free text holds a card number, in the disguises people and copy-pastes give it: any
 * whitespace, punctuation or symbol between its digits (one mistyped among others too), invisible
 * characters among them, digits of any script, escapes of URLs, HTML and JavaScript (full-width,
 * nested). What only looks like one (UUIDs, dates, IBANs, phone numbers, amounts, lists) is let
 * through. docs/api.md ("No card number in free text") lists both
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
/**
 * Escapes in escapes (a URL in a URL's query: `%2534` is `%34`, which is `4`) and escapes written
 * in full-width characters (`％３４`) are decoded round after round, each round folding the text
 * (NFKC…) then decoding one level of escapes, until a round changes nothing: at most this many
 * rounds, so that the work stays linear in the text whatever it holds.
 */
const DECODING_ROUNDS = 8;
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

/** Compatibility forms folded (NFKC: full-width digits and `％`), invisible characters dropped, every digit in ASCII. */
function folded(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(NON_ASCII_DIGIT, asciiDigit);
}

/**
 * The text with its escapes decoded and folded, in rounds until a round changes nothing (at most
 * DECODING_ROUNDS): folding first lets full-width escapes and escapes with invisible characters
 * among them decode, decoding then may yield more to fold or decode (`%EF%BC%94` is `４`, `%2534`
 * is `%34`). A percent-encoded run with a byte that is not UTF-8 decodes the rest (U+FFFD for it).
 */
function plainText(text: string): string {
  let plain = text;
  for (let round = 0; round < DECODING_ROUNDS; round += 1) {
    const next = folded(plain);
    const decoded = MAY_HOLD_ESCAPE.test(next) ? next.replace(ESCAPE, decodeEscape) : next;
    if (decoded === plain) return plain;
    plain = decoded;
  }
  return folded(plain);
}

function digitCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count += 1;
  }
  return count;
}

/**
 * Put in the place of each character of what is not a card number (so that places in the text
 * stay where they were): a private-use character, neither a digit, a letter nor a separator.
 */
const NOT_A_CARD = '\uE000';
const notACard = (text: string) => NOT_A_CARD.repeat(text.length);
/**
 * A UUID (provider ids and others): about one random UUID in 2,600 holds a digit run that passes
 * as a card number, but it is an id, never a card. The gateway's hex ids are not skipped in free
 * text ("4111111111111111deadbeef" has their shape); an id field holding exactly one is not free
 * text (packages/api/src/binding.ts).
 */
const UUID = /(?<![0-9a-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z])/gi;
const NOT_A_UUID = NOT_A_CARD.repeat(36);
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
    .replace(UUID, NOT_A_UUID)
    .replace(DATE_LIKE, (candidate) => (isDate(candidate) ? notACard(candidate) : candidate))
    .replace(IBAN_LIKE, (candidate) => (isIban(candidate) ? notACard(candidate) : candidate));
}

/**
 * What people and copy-pastes put between the digits of a card number: one or more characters of
 * whitespace, punctuation (dashes of every kind, `.`, `/`, `_`, `,`, `#`…) or symbols (`+`, a
 * space in a URL's query, `|`, `^`, `$`, `°`, U+FFFD for a byte that was not UTF-8…), spaces
 * around them or not (`4111 . 1111`). But a comma, full stop, colon or semicolon right after a
 * digit, or a colon or semicolon after a space as French typography writes them, followed by
 * whitespace ends an item of a list or a sentence ("invoices 4521, 3321, 9910, 2202", "4521 ;
 * 3321"): it joins digits only when nothing but whitespace follows it (a LIST_END: see
 * cardNumberFrom), and never with what follows otherwise ("+61 412 345 678, +61 2 9876 5432").
 * A currency sign with whitespace on a side of it is a LIST_END too: it belongs to an amount
 * ("€8150 €421 €1736", "30 $ 12 $").
 */
const SPACE = String.raw`[\s\p{Z}]`;
const ITEM_END = String.raw`(?:[,.:;]|${SPACE}+[:;])${SPACE}`;
const SEPARATOR = String.raw`(?:${ITEM_END}${SPACE}*|(?!${ITEM_END})[\s\p{P}\p{S}\p{Z}]+)`;
const DIGIT_RUN = new RegExp(String.raw`[0-9]+(?:${SEPARATOR}[0-9]+)*`, 'gu');
const LIST_END = new RegExp(String.raw`^(?:${ITEM_END}|${SPACE}+\p{Sc}|\p{Sc}${SPACE})${SPACE}*$`, 'u');
/** Whitespace and dashes of every kind: as people type card numbers ("4111 1111-1111 1111"), one kind of separator. */
const SPACES_AND_DASHES = /[\s\p{Z}\p{Pd}\u2212]/gu;
/** E.164: a phone number has at most 15 digits, after a `+` that follows no letter or digit (in `card+4111…` it is a URL's space). */
const LONGEST_PHONE_NUMBER = 15;
const PHONE_PREFIX = new RegExp(String.raw`(?:^|[^\p{L}\p{N}${NOT_A_CARD}])\+$`, 'u');
/** A separator in a number written with several kinds of them is a character or a few: `4111 1111 1111.1111`, `5555 - 5555/5555 4444`. */
const LONGEST_MIXED_SEPARATOR = 3;

/** A separator's kind: its other punctuation and symbols (`.`, `/`, `" / "`…), or a space if it has none. */
function kindOf(separator: string): string {
  return separator.replace(SPACES_AND_DASHES, '') || ' ';
}

/**
 * How far a number's groups, from its first, follow the groups printed on cards: fours with a
 * shorter last group (4-4-4-4, 4-4-4-4-3, 4-4-4-1), or 4-6-5 and 4-6-4 (American Express, Diners).
 */
type Layout = 'start' | 'fours' | 'fours, ended' | 'four, six' | 'four, six, ended' | 'other';

function nextLayout(layout: Layout, groups: number, length: number): Layout {
  switch (layout) {
    case 'start':
      return length === 4 ? 'fours' : 'other';
    case 'fours':
      if (length === 4) return 'fours';
      if (length < 4) return 'fours, ended';
      return length === 6 && groups === 1 ? 'four, six' : 'other';
    case 'four, six':
      return length === 4 || length === 5 ? 'four, six, ended' : 'other';
    default:
      return 'other';
  }
}

/**
 * A run of digits cut at its separators: groups[i] begins at starts[i], separators[i] follows it,
 * of kinds[i] (kindOf, or its mark for a LIST_END), listEnds[i] when it is a LIST_END.
 */
interface Run {
  groups: string[];
  starts: number[];
  separators: string[];
  kinds: string[];
  listEnds: boolean[];
}

function cut(run: string): Run {
  const cuts: Run = { groups: [], starts: [], separators: [], kinds: [], listEnds: [] };
  let at = 0;
  while (at < run.length) {
    let end = at;
    while (end < run.length && run.charCodeAt(end) >= 48 && run.charCodeAt(end) <= 57) end += 1;
    cuts.groups.push(run.slice(at, end));
    cuts.starts.push(at);
    at = end;
    while (end < run.length && (run.charCodeAt(end) < 48 || run.charCodeAt(end) > 57)) end += 1;
    if (end > at) {
      const separator = run.slice(at, end);
      const listEnd = LIST_END.test(separator);
      cuts.separators.push(separator);
      cuts.listEnds.push(listEnd);
      cuts.kinds.push(listEnd ? separator.trimStart().charAt(0) : kindOf(separator));
    }
    at = end;
  }
  return cuts;
}

/**
 * The last group of the card number that begins with group `first` of a run, or -1. Its groups are
 * whole, consecutive, and make a known scheme's prefix and length and pass Luhn; and either
 * - they are separated by one kind of separator throughout ("4111.1111.1111.1111", any grouping:
 *   "4111 1111 11\n11 1111"), a LIST_END counting as its mark but only with at least one separator
 *   that is not one ("4111.1111.\n1111.1111": a number wrapped after its separator; "4521, 3321,
 *   9910, 2202" is a list), or
 * - with several kinds of separators (one mistyped: "4111 1111 1111.1111"), they are a card's
 *   printed groups (Layout) counted from the first digit of the number (`segmentStart`: not from
 *   the middle of a chain of digits, where other numbers join), each separator at most
 *   LONGEST_MIXED_SEPARATOR characters and no LIST_END. Amounts, dates with times, versions and
 *   phone numbers written with several kinds of separators are not in cards' groups.
 */
function cardNumberFrom(run: Run, first: number, segmentStart: boolean): number {
  const { groups, separators, kinds, listEnds } = run;
  let digits = '';
  let lengths: readonly number[] | undefined;
  let kind: string | undefined;
  let oneKind = true;
  let bare = false;
  let mixable = segmentStart;
  let layout: Layout = 'start';
  for (let last = first; last < groups.length && digits.length < LONGEST_CARD_NUMBER; last += 1) {
    if (last > first) {
      const listEnd = listEnds[last - 1];
      kind ??= kinds[last - 1];
      if (kinds[last - 1] !== kind) oneKind = false;
      if (listEnd || (separators[last - 1]?.length ?? 0) > LONGEST_MIXED_SEPARATOR) mixable = false;
      if (!listEnd) bare = true;
    }
    const group = groups[last] ?? '';
    layout = nextLayout(layout, last - first, group.length);
    if (!oneKind && (!mixable || layout === 'other')) break;
    digits += group;
    if (digits.length < SHORTEST_CARD_NUMBER) continue;
    // The scheme, hence its lengths, is known from the first digits: looked up once per first group.
    lengths ??= schemeLengthsOf(digits);
    if (lengths === undefined) break;
    if (!lengths.includes(digits.length) || !passesLuhn(digits)) continue;
    if (oneKind ? bare || last === first : layout !== 'four, six') return last;
  }
  return -1;
}

/** Where a card number was found, [start, end) in the text; false to stop looking. */
type Found = (start: number, end: number) => boolean;

/**
 * Reports the card numbers in a run of digits and separators, each from its first digit to its
 * last: consecutive whole groups tried from each group on (cardNumberFrom). A run after a `+` is a
 * phone number up to its first LIST_END when that part has at most 15 digits (E.164): no card
 * number begins in it. False when `found` said to stop.
 */
function visitRun(run: string, at: number, afterPlus: boolean, found: Found): boolean {
  const cuts = cut(run);
  const { groups, starts, listEnds } = cuts;
  let first = 0;
  if (afterPlus) {
    let phoneDigits = 0;
    let phoneGroups = 0;
    while (phoneGroups < groups.length) {
      phoneDigits += groups[phoneGroups]?.length ?? 0;
      phoneGroups += 1;
      if (listEnds[phoneGroups - 1]) break;
    }
    if (phoneDigits <= LONGEST_PHONE_NUMBER) first = phoneGroups;
  }
  while (first < groups.length) {
    const segmentStart = first === 0 || listEnds[first - 1] === true;
    const last = cardNumberFrom(cuts, first, segmentStart);
    if (last < 0) {
      first += 1;
      continue;
    }
    if (!found(at + (starts[first] ?? 0), at + (starts[last] ?? 0) + (groups[last]?.length ?? 0))) return false;
    first = last + 1;
  }
  return true;
}

/** Reports the card numbers in plain text (plainText's); false when `found` said to stop. */
function visitCardNumbers(plain: string, found: Found): boolean {
  if (digitCount(plain) < SHORTEST_CARD_NUMBER) return true;
  const scanned = withoutNonCards(plain);
  for (const { 0: run, index } of scanned.matchAll(DIGIT_RUN)) {
    const afterPlus = PHONE_PREFIX.test(scanned.slice(Math.max(0, index - 2), index));
    if (!visitRun(run, index, afterPlus, found)) return false;
  }
  return true;
}

const stop: Found = () => false;

/**
 * Whether free text holds a card number: consecutive whole groups of a run of digits that make a
 * card number of a known scheme (its prefix, its length, and Luhn), separated alike or, when
 * separated by several kinds, in a card's printed groups: "ref 4111 1111 1111 1111 12/30" does, so
 * do "4111 1111 1111.1111", "４１１１…", "4111\u200b1111…", "4111^1111^1111^1111" and
 * "%34%31%31%31…"; "4111111111111111" glued to more digits does not. Order numbers and timestamps
 * that merely pass Luhn have no scheme's prefix and length, and pass; so do UUIDs, dates, IBANs,
 * lists ("4521, 3321, 9910, 2202") and a run after `+` of at most 15 digits (a phone number).
 */
export function containsCardNumber(text: string): boolean {
  return !visitCardNumbers(plainText(text), stop);
}

/**
 * The text with each card number containsCardNumber finds in it replaced by `mask` of its digits,
 * for a last guard such as a log line's: the text as it is when it holds none, else its plain form
 * (escapes decoded, NFKC, invisible characters dropped, ASCII digits) with the numbers masked.
 */
export function maskCardNumbers(text: string, mask: (digits: string) => string): string {
  const plain = plainText(text);
  let masked = '';
  let done = 0;
  visitCardNumbers(plain, (start, end) => {
    masked += plain.slice(done, start) + mask(plain.slice(start, end).replace(/[^0-9]+/g, ''));
    done = end;
    return true;
  });
  return done === 0 ? text : masked + plain.slice(done);
}

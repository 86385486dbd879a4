/** Card number rules: normalisation, Luhn, scheme detection by IIN range, masking. */

export type CardScheme = 'VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER' | 'JCB' | 'DINERS' | 'UNIONPAY' | 'UNKNOWN';

interface SchemeRule {
  scheme: Exclude<CardScheme, 'UNKNOWN'>;
  /** Inclusive prefix ranges, compared on the same number of leading digits. */
  ranges: ReadonlyArray<readonly [string, string]>;
  lengths: readonly number[];
}

// Most specific ranges first: a number takes the first scheme whose range contains it.
const SCHEMES: readonly SchemeRule[] = [
  {
    scheme: 'AMEX',
    ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    lengths: [15],
  },
  {
    scheme: 'DINERS',
    ranges: [
      ['300', '305'],
      ['36', '36'],
      ['38', '39'],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
  },
  { scheme: 'JCB', ranges: [['3528', '3589']], lengths: [16, 17, 18, 19] },
  {
    scheme: 'DISCOVER',
    ranges: [
      ['6011', '6011'],
      ['644', '649'],
      ['65', '65'],
      ['622126', '622925'],
    ],
    lengths: [16, 17, 18, 19],
  },
  {
    scheme: 'UNIONPAY',
    ranges: [
      ['62', '62'],
      ['81', '81'],
    ],
    lengths: [16, 17, 18, 19],
  },
  {
    scheme: 'MASTERCARD',
    ranges: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    lengths: [16],
  },
  { scheme: 'VISA', ranges: [['4', '4']], lengths: [13, 16, 19] },
];

/** Strips the spaces and dashes people type; undefined unless 12–19 digits remain. */
export function normaliseCardNumber(input: string): string | undefined {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : undefined;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function inRange(digits: string, [low, high]: readonly [string, string]): boolean {
  const prefix = digits.slice(0, low.length);
  return prefix >= low && prefix <= high;
}

export function detectScheme(digits: string): CardScheme {
  return SCHEMES.find((rule) => rule.ranges.some((r) => inRange(digits, r)))?.scheme ?? 'UNKNOWN';
}

/** A number is valid when it passes Luhn and has a length its scheme issues. */
export function isValidCardNumber(digits: string): boolean {
  if (!passesLuhn(digits)) return false;
  const rule = SCHEMES.find((r) => r.ranges.some((range) => inRange(digits, range)));
  return rule ? rule.lengths.includes(digits.length) : true;
}

/** The lengths of a known scheme's card numbers that start with these digits (six or more); undefined when none does. */
export function schemeLengthsOf(digits: string): readonly number[] | undefined {
  return SCHEMES.find((r) => r.ranges.some((range) => inRange(digits, range)))?.lengths;
}

/** Whether `digits` is a card number of a known scheme: one of its prefixes, one of its lengths, and Luhn. */
export function isSchemeCardNumber(digits: string): boolean {
  return (schemeLengthsOf(digits)?.includes(digits.length) ?? false) && passesLuhn(digits);
}

const CARD_LENGTHS = SCHEMES.flatMap((rule) => rule.lengths);
/** The fewest and the most digits a card number of a known scheme has. */
export const SHORTEST_CARD_NUMBER = Math.min(...CARD_LENGTHS);
export const LONGEST_CARD_NUMBER = Math.max(...CARD_LENGTHS);

/** First six and last four digits kept, the rest replaced by '*': 4111********1111. */
export function maskCardNumber(digits: string): string {
  if (digits.length < 10) return '*'.repeat(digits.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

export function isValidCcv(ccv: string): boolean {
  return /^[0-9]{3,4}$/.test(ccv);
}

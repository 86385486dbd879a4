import { detectScheme, type CardScheme } from './card-number';

/** What the issuer identification number (first digits) tells about a card. */
export interface IinData {
  scheme: CardScheme;
  cardType: 'CREDIT' | 'DEBIT' | 'PREPAID';
  issuer: string | null;
  /** ISO 3166 alpha-2 and alpha-3 codes and name of the issuing country, when known. */
  countryCode: string | null;
  country: string | null;
  countryAlpha3: string | null;
}

interface KnownIin {
  prefix: string;
  cardType: IinData['cardType'];
  issuer: string;
  countryCode: string;
  countryAlpha3: string;
  country: string;
}

/**
 * A small built-in BIN table: the simulated providers' test ranges plus Australian ranges, so that
 * fee rules for domestic and international cards can be exercised. A real deployment would load a
 * licensed BIN file; unknown ranges are treated as credit cards of unknown country.
 */
const KNOWN_IINS: readonly KnownIin[] = [
  {
    prefix: '424242',
    cardType: 'CREDIT',
    issuer: 'Simulated Bank of Australia',
    countryCode: 'AU',
    countryAlpha3: 'AUS',
    country: 'Australia',
  },
  {
    prefix: '456470',
    cardType: 'DEBIT',
    issuer: 'Simulated Bank of Australia',
    countryCode: 'AU',
    countryAlpha3: 'AUS',
    country: 'Australia',
  },
  {
    prefix: '520000',
    cardType: 'DEBIT',
    issuer: 'Simulated Bank of Australia',
    countryCode: 'AU',
    countryAlpha3: 'AUS',
    country: 'Australia',
  },
  {
    prefix: '411111',
    cardType: 'CREDIT',
    issuer: 'Simulated Issuer US',
    countryCode: 'US',
    countryAlpha3: 'USA',
    country: 'United States of America',
  },
  {
    prefix: '400000',
    cardType: 'CREDIT',
    issuer: 'Simulated Issuer US',
    countryCode: 'US',
    countryAlpha3: 'USA',
    country: 'United States of America',
  },
  {
    prefix: '555555',
    cardType: 'CREDIT',
    issuer: 'Simulated Issuer US',
    countryCode: 'US',
    countryAlpha3: 'USA',
    country: 'United States of America',
  },
  {
    prefix: '378282',
    cardType: 'CREDIT',
    issuer: 'Simulated Issuer US',
    countryCode: 'US',
    countryAlpha3: 'USA',
    country: 'United States of America',
  },
];

export function lookupIin(digits: string): IinData {
  const scheme = detectScheme(digits);
  const known = KNOWN_IINS.find((k) => digits.startsWith(k.prefix));
  if (!known) {
    return { scheme, cardType: 'CREDIT', issuer: null, countryCode: null, country: null, countryAlpha3: null };
  }
  const { cardType, issuer, countryCode, country, countryAlpha3 } = known;
  return { scheme, cardType, issuer, countryCode, country, countryAlpha3 };
}

/** A card is international for a provider unless both countries are known and equal (alpha-3). */
export function isInternationalCard(iin: IinData, providerCountryAlpha3: string | null): boolean {
  if (!iin.countryAlpha3 || !providerCountryAlpha3) return true;
  return iin.countryAlpha3 !== providerCountryAlpha3.toUpperCase();
}

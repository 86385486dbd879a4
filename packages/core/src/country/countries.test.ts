import { describe, expect, it } from 'vitest';
import { COUNTRIES, findCountry } from './countries';

describe('ISO 3166-1 countries', () => {
  it('holds every country once, with well-formed codes', () => {
    expect(COUNTRIES).toHaveLength(249);
    for (const key of ['alpha2', 'alpha3', 'numeric'] as const) expect(new Set(COUNTRIES.map((c) => c[key])).size).toBe(249);
    for (const c of COUNTRIES) {
      expect(c.alpha2).toMatch(/^[A-Z]{2}$/);
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(c.numeric).toMatch(/^\d{3}$/);
    }
  });

  it.each([
    ['AU', 'AUS', '036', 'Australia', 'Australia'],
    ['NZ', 'NZL', '554', 'New Zealand', 'New Zealand'],
    ['GB', 'GBR', '826', 'United Kingdom', 'United Kingdom'],
    ['US', 'USA', '840', 'United States', 'United States'],
    ['JP', 'JPN', '392', 'Japan', 'Japan'],
    ['KR', 'KOR', '410', 'Korea, Republic of', 'South Korea'],
    ['CI', 'CIV', '384', "Côte d'Ivoire", "Côte d'Ivoire"],
    ['AX', 'ALA', '248', 'Åland Islands', 'Åland Islands'],
  ])('knows %s = %s = %s (%s)', (alpha2, alpha3, numeric, name, friendlyName) => {
    const country = { alpha2, alpha3, numeric, name, friendlyName };
    expect(findCountry(alpha2)).toEqual(country);
    expect(findCountry(alpha3.toLowerCase())).toEqual(country);
  });

  it('knows no other code', () => {
    for (const code of ['', 'XX', 'UK', 'AUSS', '036']) expect(findCountry(code)).toBeUndefined();
  });
});
